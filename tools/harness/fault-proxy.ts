/**
 * A small fault-injecting HTTP proxy for tests: it sits between the client and a plain-HTTP
 * emulator and, per request, forwards, delays, answers 502/504, resets the connection, truncates
 * the body, drops the answer after the server has acted, or sends a file body that never ends
 * or trickles.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import type { TestEmulator } from "./emulator";

/** What the proxy does with one request. */
export type Fault =
  | { kind: "forward" }
  | { kind: "delay"; ms: number }
  | { kind: "status"; status: 502 | 503 | 504; body?: string; contentType?: string }
  | { kind: "reset" }
  | { kind: "truncate" }
  /**
   * Forwards the request, waits for the server's answer, then destroys the client socket; with
   * `replaceWith`, answers that status instead (a load balancer timing out on a slow backend).
   */
  | { kind: "drop-answer"; replaceWith?: { status: 502 | 504; body?: string } }
  /** Answers with this body and status (and extra headers) instead of forwarding. */
  | {
      kind: "answer";
      status: number;
      body: string;
      contentType?: string;
      headers?: Record<string, string>;
    }
  /**
   * Answers 200 with a file body that never ends (64 KiB chunks of zeros, as fast as the client
   * reads), until the client goes away. `bytesSent` of the proxy counts what went out.
   */
  | { kind: "endless-body" }
  /** Answers 200 with a file body of one byte every `everyMs`, until the client goes away. */
  | { kind: "trickle"; everyMs: number }
  /**
   * Forwards the request once `forwardAfter` settles (never, when the client has gone by then),
   * and passes the server's answer on once `answerAfter` settles: a call held in flight, so that
   * a test can signal or kill the client while the server has it.
   */
  | {
      kind: "hold";
      forwardAfter?: Promise<unknown> | undefined;
      answerAfter?: Promise<unknown> | undefined;
    };

/** One forwarded request and the server's answer, as the proxy saw them. */
export interface Exchange {
  method: string;
  path: string;
  requestBody: Buffer;
  status: number;
  contentType: string | undefined;
  responseBody: Buffer;
}

/** Chooses a fault for a request; `undefined` forwards it. */
export type FaultRule = (request: { method: string; path: string }) => Fault | undefined;

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Replaces the rule deciding each request's fault. */
  setRule(rule: FaultRule): void;
  /** Every request seen: method, path and the fault applied. */
  seen: Array<{ method: string; path: string; fault: Fault["kind"] }>;
  /** Body bytes sent by the endless-body and trickle faults. */
  bytesSent(): number;
  /** Calls `observer` with every exchange that reached the server (bodies included). */
  observe(observer: (exchange: Exchange) => void): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1, port 0, in front of `target` (an `http://host:port` origin, or an
 * `https://` one, whose certificate the proxy does not check: it is the test's own emulator).
 *
 * @example
 * ```ts
 * const proxy = await startFaultProxy(emulatorOrigin);
 * proxy.setRule(({ path }) => (path.endsWith("/createNewSite") ? { kind: "drop-answer" } : undefined));
 * ```
 */
export async function startFaultProxy(
  target: string,
  options: {
    /**
     * Forward the client's Host header instead of the target's, as a reverse proxy in front of
     * a server usually does: URLs the server builds from it (download links) then point at the
     * proxy.
     */
    preserveHost?: boolean;
  } = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  let rule: FaultRule = () => undefined;
  let observer: ((exchange: Exchange) => void) | undefined;
  const seen: FaultProxy["seen"] = [];
  let streamed = 0;

  const server = http.createServer((req, res) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const fault = rule({ method, path }) ?? { kind: "forward" };
    seen.push({ method, path, fault: fault.kind });

    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      switch (fault.kind) {
        case "reset":
          req.socket.destroy();
          return;
        case "status":
          res.writeHead(fault.status, { "content-type": fault.contentType ?? "text/html" });
          res.end(fault.body ?? `<html><body><h1>${fault.status} Bad Gateway</h1></body></html>`);
          return;
        case "answer":
          res.writeHead(fault.status, {
            "content-type": fault.contentType ?? "application/json",
            ...fault.headers,
          });
          res.end(fault.body);
          return;
        case "endless-body": {
          res.writeHead(200, {
            "content-type": "application/octet-stream",
            "content-disposition": 'attachment; filename="endless.agssite"',
          });
          const chunk = Buffer.alloc(64 * 1024);
          const pump = (): void => {
            while (!res.destroyed) {
              streamed += chunk.length;
              if (!res.write(chunk)) {
                res.once("drain", pump);
                return;
              }
            }
          };
          pump();
          return;
        }
        case "trickle": {
          res.writeHead(200, {
            "content-type": "application/octet-stream",
            "content-disposition": 'attachment; filename="trickle.agssite"',
          });
          const timer = setInterval(() => {
            if (res.destroyed) {
              clearInterval(timer);
              return;
            }
            streamed += 1;
            res.write("P");
          }, fault.everyMs);
          res.on("close", () => clearInterval(timer));
          return;
        }
        case "delay":
          setTimeout(() => forward(fault), fault.ms);
          return;
        case "hold":
          void Promise.resolve(fault.forwardAfter).then(() => {
            if (!req.socket.destroyed) forward(fault);
          });
          return;
        default:
          forward(fault);
      }
    });

    function forward(f: Fault): void {
      const headers = {
        ...req.headers,
        host: options.preserveHost === true ? req.headers.host : upstream.host,
      };
      const send = upstream.protocol === "https:" ? https.request : http.request;
      const out = send(
        {
          rejectUnauthorized: false,
          host: upstream.hostname,
          port: upstream.port,
          method,
          path,
          headers,
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => {
            const full = Buffer.concat(parts);
            observer?.({
              method,
              path,
              requestBody: Buffer.concat(chunks),
              status: answer.statusCode ?? 0,
              contentType: answer.headers["content-type"],
              responseBody: full,
            });
            if (f.kind === "drop-answer") {
              if (f.replaceWith === undefined) {
                req.socket.destroy();
                return;
              }
              res.writeHead(f.replaceWith.status, { "content-type": "text/html" });
              res.end(
                f.replaceWith.body ??
                  `<html><body><h1>${f.replaceWith.status} Gateway error</h1></body></html>`,
              );
              return;
            }
            if (f.kind === "truncate") {
              const responseHeaders = { ...answer.headers };
              delete responseHeaders["transfer-encoding"];
              responseHeaders["content-length"] = String(full.length);
              res.writeHead(answer.statusCode ?? 502, responseHeaders);
              res.write(full.subarray(0, Math.floor(full.length / 2)));
              setTimeout(() => req.socket.destroy(), 20);
              return;
            }
            const pass = (): void => {
              if (req.socket.destroyed) return;
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(full);
            };
            if (f.kind === "hold") void Promise.resolve(f.answerAfter).then(pass);
            else pass();
          });
        },
      );
      out.on("error", () => {
        if (!res.headersSent) {
          res.writeHead(502, { "content-type": "text/html" });
          res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
        } else {
          req.socket.destroy();
        }
      });
      out.end(Buffer.concat(chunks));
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setRule(next) {
      rule = next;
    },
    seen,
    bytesSent: () => streamed,
    observe(next) {
      observer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The admin URL of the emulator as reached through the proxy. */
export function proxiedAdminUrl(proxy: FaultProxy, emu: TestEmulator): string {
  return proxy.url + new URL(emu.adminUrl).pathname;
}

/** The sharing URL of the emulator as reached through the proxy. */
export function proxiedSharingUrl(proxy: FaultProxy, emu: TestEmulator): string {
  return proxy.url + new URL(emu.sharingUrl).pathname;
}

/** How many requests the proxy answered with a fault (anything but forwarding). */
export function faultsSeen(proxy: FaultProxy): number {
  return proxy.seen.filter((s) => s.fault !== "forward").length;
}
