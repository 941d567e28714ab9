/**
 * A CONNECT proxy for tests, what `HTTPS_PROXY` names: the client's TLS runs end to end through
 * it (the proxy sees no request), and for the targets a rule picks it loses the answer of the
 * first request of a tunnel once the server has acted. Where fault-proxy.ts stands in for a server
 * at another address, this one leaves every URL as it is: a Web Adaptor registers the URL it is
 * reached at, and a client that reaches it through this proxy still names that URL.
 */
import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * What the proxy does with one tunnel: forwards it, or loses the answer (the server's bytes after
 * the client's second flight, in TLS 1.3 its Finished and the request, are held back) and cuts
 * the connection once `lose()` resolves (once the server shows it acted; never, to hold the
 * answer until the client is killed).
 */
export type TunnelFault = { kind: "forward" } | { kind: "lose-answer"; lose: () => Promise<void> };

/** Chooses a fault for a tunnel to `target` (`host:port`); `undefined` forwards it. */
export type TunnelRule = (target: string) => TunnelFault | undefined;

/** A running CONNECT proxy. */
export interface TunnelProxy {
  /** `http://127.0.0.1:PORT`, for `HTTPS_PROXY`. */
  url: string;
  /** Replaces the rule deciding each tunnel's fault. */
  setRule(rule: TunnelRule): void;
  /** Every tunnel opened: its target and the fault applied. */
  seen: Array<{ target: string; fault: TunnelFault["kind"] }>;
  close(): Promise<void>;
}

/** Pipes the two sockets; with `fault` lose-answer, holds back the answer as described above. */
function tunnel(client: net.Socket, server: net.Socket, fault: TunnelFault): void {
  let serverSpoke = false;
  let holding = false;
  client.on("data", (chunk: Buffer) => {
    if (fault.kind === "lose-answer" && serverSpoke && !holding) {
      holding = true;
      void fault.lose().then(() => client.destroy());
    }
    server.write(chunk);
  });
  server.on("data", (chunk: Buffer) => {
    serverSpoke = true;
    if (!holding) client.write(chunk);
  });
  // `lose()` resolves once the server has acted: its side can go with the client's.
  client.on("close", () => server.destroy());
  server.on("close", () => {
    if (!holding) client.destroy();
  });
  client.on("error", () => undefined);
  server.on("error", () => client.destroy());
}

/**
 * Starts a CONNECT proxy on 127.0.0.1, port 0.
 *
 * @example
 * ```ts
 * const proxy = await startTunnelProxy();
 * proxy.setRule((target) => (target.endsWith(`:${port}`) ? { kind: "lose-answer", lose } : undefined));
 * await stack.mustRun("up", { env: { HTTPS_PROXY: proxy.url } });
 * ```
 */
export async function startTunnelProxy(): Promise<TunnelProxy> {
  let rule: TunnelRule = () => undefined;
  const seen: TunnelProxy["seen"] = [];
  const sockets = new Set<net.Socket>();
  const proxy = http.createServer((_req, res) => {
    res.writeHead(405).end();
  });
  proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? "";
    const fault = rule(target) ?? { kind: "forward" };
    seen.push({ target, fault: fault.kind });
    const [host, port] = [target.slice(0, target.lastIndexOf(":")), target.split(":").pop()];
    const server = net.connect(Number(port), host.replace(/^\[|\]$/g, ""), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) server.write(head);
      tunnel(client, server, fault);
    });
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    server.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setRule: (next) => (rule = next),
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
