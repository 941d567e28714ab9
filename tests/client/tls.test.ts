import { createServer, type Server } from "node:https";
import { connect as tlsConnect } from "node:tls";
import { generate } from "selfsigned";
import { MockAgent } from "undici";
import {
  arcgisRequest,
  closeDispatchers,
  dispatcherFor,
  isTlsError,
  siteStatus,
} from "../../provider/client";
import { TokenRequiredAnswer } from "../../tools/harness/server-answers";
import { closeServer, listen } from "../../tools/harness/servers";
import { failure } from "../../tools/harness/mock-agent";

let server: Server;
let origin: string;
let caCert: string;
let otherCaCert: string;
/** TLS handshakes the server completed: one per connection a client opened. */
let handshakes = 0;

async function selfSigned(): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

beforeAll(async () => {
  const [own, other] = await Promise.all([selfSigned(), selfSigned()]);
  caCert = own.cert;
  otherCaCert = other.cert;
  server = createServer({ cert: own.cert, key: own.key }, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(TokenRequiredAnswer));
  });
  server.on("secureConnection", () => handshakes++);
  ({ origin } = await listen(server, "https"));
});

afterAll(async () => {
  await closeDispatchers();
  await closeServer(server);
});

const adminUrl = () => `${origin}/arcgis/admin`;

describe("TLS against a server with a self-signed certificate", () => {
  it("trusts the server when its certificate is given as tls.caCert", async () => {
    await expect(siteStatus(adminUrl(), { tls: { caCert } })).resolves.toMatchObject({
      state: "in-site",
    });
  });

  it("rejects the server without tls.caCert, with a TLS error that names the option", async () => {
    const e = await failure(
      arcgisRequest({ url: `${adminUrl()}/`, operation: "siteStatus", method: "GET" }),
    );
    expect(e.code).toBe("TLS");
    expect(isTlsError(e)).toBe(true);
    expect(e.message).toContain("tls.caCert");
    expect(e.message).toContain("tls.insecureSkipVerify");
    expect(e.message).toMatch(/SELF_SIGNED|self-signed/i);
    expect(e.cause).toBeDefined();
  });

  it("reports an unrelated tls.caCert as not matching", async () => {
    const e = await failure(
      arcgisRequest({
        url: `${adminUrl()}/`,
        operation: "siteStatus",
        method: "GET",
        tls: { caCert: otherCaCert },
      }),
    );
    expect(e.code).toBe("TLS");
    expect(e.message).toContain("the tls.caCert given does not match it");
  });

  it("says the host name is wrong when the certificate is trusted but issued for another name", async () => {
    const byName = origin.replace("127.0.0.1", "localhost");
    const e = await failure(
      arcgisRequest({
        url: `${byName}/arcgis/admin/`,
        operation: "siteStatus",
        method: "GET",
        tls: { caCert },
      }),
    );
    expect(e.code).toBe("TLS");
    expect(e.message).toContain("does not match the host name");
  });

  it("skips verification only when tls.insecureSkipVerify is set explicitly", async () => {
    await expect(
      siteStatus(adminUrl(), { tls: { insecureSkipVerify: true } }),
    ).resolves.toMatchObject({
      state: "in-site",
    });
    const status = await siteStatus(adminUrl(), { tls: { insecureSkipVerify: false } });
    expect(status).toMatchObject({ state: "unreachable", error: { code: "TLS" } });
  });
});

// That it is added to Node's default store, not in place of it (a machine's extra CAs still
// verify): tests/client/proxy.test.ts, "NODE_EXTRA_CA_CERTS".
describe("the trust tls.caCert adds", () => {
  it("stays with its own connections: Node's shared root store, and so every other connection, still refuses the server", async () => {
    // First a connection that trusts the CA (its secure context adds it to a copy of Node's
    // default store), then, in the same process, plain Node TLS with the default store.
    await closeDispatchers();
    await expect(siteStatus(adminUrl(), { tls: { caCert } })).resolves.toMatchObject({
      state: "in-site",
    });
    const plain = await new Promise<Error | undefined>((resolve) => {
      const socket = tlsConnect({ host: "127.0.0.1", port: Number(new URL(origin).port) });
      socket.once("secureConnect", () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once("error", resolve);
    });
    expect(plain?.message).toMatch(/self-signed|SELF_SIGNED/i);
    // And an Agent of the package without the option refuses it too.
    const status = await siteStatus(adminUrl(), {});
    expect(status).toMatchObject({ state: "unreachable", error: { code: "TLS" } });
  });
});

describe("dispatcherFor()", () => {
  it("reuses one Agent per distinct TLS and connect-timeout configuration", () => {
    const a = dispatcherFor({ tls: { caCert } });
    expect(dispatcherFor({ tls: { caCert }, timeouts: { headersMs: 5 } })).toBe(a);
    expect(dispatcherFor({ tls: { caCert: otherCaCert } })).not.toBe(a);
    expect(dispatcherFor({ tls: { caCert }, timeouts: { connectMs: 5 } })).not.toBe(a);
    expect(dispatcherFor({})).toBe(dispatcherFor());
    expect(dispatcherFor({ tls: { insecureSkipVerify: true } })).not.toBe(dispatcherFor({}));
  });

  it("sends requests made one after the other over one kept-alive TLS connection", async () => {
    // A fresh Agent (closed first), then a sequence like Site's create: the next request is sent
    // as soon as the previous answer is read, with another headers timeout (createNewSite's).
    await closeDispatchers();
    const before = handshakes;
    const tls = { caCert };
    for (const headersMs of [30_000, 300_000, 3_600_000, 300_000]) {
      await siteStatus(adminUrl(), { tls, timeouts: { headersMs } });
    }
    expect(handshakes - before).toBe(1);
  });

  it("returns an injected dispatcher as is", async () => {
    const mock = new MockAgent();
    expect(dispatcherFor({ dispatcher: mock, tls: { caCert } })).toBe(mock);
    await mock.close();
  });
});
