/**
 * A pass-through proxy in front of the tests' S3 store (SeaweedFS) that makes it slow on purpose
 * and, on request, makes it a store without conditional writes: it delays the writes that publish
 * an object (CopyObject, PutObject, CompleteMultipartUpload) so that two uploads overlap, and with
 * `dropIfNoneMatch` removes the `If-None-Match` header, signing the request again with the
 * store's credentials (the header is signed, so a bare removal would be refused as a forgery).
 * With `holdPartDeletes` it holds the removal of an upload's temporary `.part` object, which
 * comes once the archive is under its final key, so that a test can kill the client there.
 */
import { createHash, createHmac } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy. */
export interface S3Proxy {
  /** `http://127.0.0.1:PORT`, the endpoint to give the client. */
  url: string;
  /** How many publishing writes (copy, put, complete) went through. */
  writes(): number;
  /** How many requests came with an `If-None-Match` header. */
  conditionals(): number;
  /** How many DELETE requests of `.part` objects came. */
  partDeletes(): number;
  close(): Promise<void>;
}

/** What the proxy does. */
export interface S3ProxyOptions {
  /** The store's origin, e.g. `http://127.0.0.1:8333`. */
  target: string;
  /** The store's credentials and region, to sign a request again after changing it. */
  credentials: { accessKeyId: string; secretAccessKey: string; region: string };
  /** How long each publishing write waits before it is forwarded. */
  writeDelayMs: number;
  /** Forward every request without `If-None-Match`, as a store that ignores it would act. */
  dropIfNoneMatch?: boolean;
  /**
   * DELETE requests of `.part` objects are forwarded once this settles, and only when their
   * client is still connected then.
   */
  holdPartDeletes?: Promise<unknown>;
}

/**
 * Starts the proxy on 127.0.0.1, port 0.
 *
 * @example
 * ```ts
 * const proxy = await startS3Proxy({ target: store.endpoint, credentials, writeDelayMs: 300 });
 * ```
 */
export async function startS3Proxy(options: S3ProxyOptions): Promise<S3Proxy> {
  const upstream = new URL(options.target);
  let writes = 0;
  let conditionals = 0;
  let partDeletes = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const method = req.method ?? "GET";
      const path = req.url ?? "/";
      const headers: http.OutgoingHttpHeaders = { ...req.headers };
      if (headers["if-none-match"] !== undefined) {
        conditionals++;
        if (options.dropIfNoneMatch === true) {
          delete headers["if-none-match"];
          headers.authorization = signAgain(method, path, headers, options.credentials);
        }
      }
      const publishing =
        (method === "PUT" && !/[?&]partNumber=/.test(path)) ||
        (method === "POST" && /[?&]uploadId=/.test(path));
      if (publishing) writes++;
      const partDelete = method === "DELETE" && /\.part(\?|$)/.test(path);
      if (partDelete) partDeletes++;
      if (partDelete && options.holdPartDeletes !== undefined) {
        // A client gone meanwhile (killed) never sends it.
        void options.holdPartDeletes.then(() => {
          if (!req.socket.destroyed) forward();
        });
      } else {
        setTimeout(forward, publishing ? options.writeDelayMs : 0);
      }

      function forward(): void {
        const out = http.request(
          { host: upstream.hostname, port: upstream.port, method, path, headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on("error", () => {
          if (!res.headersSent) res.writeHead(502).end();
          else req.socket.destroy();
        });
        out.end(Buffer.concat(chunks));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    writes: () => writes,
    conditionals: () => conditionals,
    partDeletes: () => partDeletes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (key: Buffer | string, text: string) =>
  createHmac("sha256", key).update(text).digest();

/**
 * The Authorization header of AWS Signature V4 for the request as it now is: the headers it
 * signed before, less those removed. The payload hash is the request's own
 * `x-amz-content-sha256`, as S3 signs it.
 */
function signAgain(
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders,
  credentials: S3ProxyOptions["credentials"],
): string {
  const authorization = String(headers.authorization);
  const signed = /SignedHeaders=([^,\s]+)/.exec(authorization)?.[1]?.split(";") ?? [];
  const names = signed.filter((name) => headers[name] !== undefined);
  const amzDate = String(headers["x-amz-date"]);
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const [pathname = "/", query = ""] = path.split("?", 2);
  const canonicalQuery = query
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => (pair.includes("=") ? pair : `${pair}=`))
    .sort()
    .join("&");
  const canonicalHeaders = names
    .map((name) => `${name}:${String(headers[name]).trim().replace(/\s+/g, " ")}\n`)
    .join("");
  const canonical = [
    method,
    pathname,
    canonicalQuery,
    canonicalHeaders,
    names.join(";"),
    String(headers["x-amz-content-sha256"] ?? "UNSIGNED-PAYLOAD"),
  ].join("\n");
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  let key = hmac(`AWS4${credentials.secretAccessKey}`, day);
  for (const part of [credentials.region, "s3", "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  return (
    `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${names.join(";")}, Signature=${signature}`
  );
}
