/**
 * When an http:// request fails because the connection closed, the message suggests https only
 * where the failure looks like a TLS port meeting plain http: undici reports a closed connection
 * as a SocketError "other side closed" whose `socket.bytesRead` is 0 when the server sent nothing
 * (what Node's https server does with a plain request) and above 0 when a plain http server had
 * started answering and was cut off. Real servers on loopback, undici's real errors.
 */
import { createServer as createHttpsServer } from "node:https";
import * as net from "node:net";
import { request } from "undici";
import {
  closeDispatchers,
  getUpgradeStatus,
  isArcGISRequestError,
  permanentReason,
  transportError,
} from "../../provider/client";
import { issueServerCertificate, makeRootCa } from "../../tools/harness/pki";
import { closeServer, listen } from "../../tools/harness/servers";
import { failure } from "../../tools/harness/mock-agent";

const HINT = /if it serves https on this port, use an https:\/\/ URL/;

const servers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of servers) await close();
  await closeDispatchers();
});

/**
 * A raw TCP server that answers each connection's first bytes with `answer(socket)`; `connections`
 * counts what reached it (a TLS probe of the port is one more).
 */
async function rawServer(
  answer: (socket: net.Socket) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.on("error", () => undefined);
    socket.once("data", () => answer(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { url, connections: () => connections };
}

/** A plain http server that starts an answer (status line and a header), then closes. */
const cutMidAnswer = () =>
  rawServer((socket) => {
    socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n");
    setTimeout(() => socket.destroy(), 20);
  });

/** What undici throws for a GET of `url`, and what transportError makes of it. */
async function classified(url: string) {
  let thrown: unknown;
  try {
    const res = await request(url);
    await res.body.text();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeDefined();
  const error = transportError(thrown, {}, { operation: "probe", url, secrets: [] });
  return { thrown: thrown as { code?: string; socket?: { bytesRead?: number } }, error };
}

describe("the https hint on a closed plain-http connection", () => {
  it("a TLS port given an http:// URL: undici reads nothing before the close, and the hint is shown", async () => {
    const ca = makeRootCa();
    const cert = issueServerCertificate(ca, ["127.0.0.1"]);
    const https = createHttpsServer({ key: cert.keyPem, cert: cert.certPem }, (_q, s) =>
      s.end("{}"),
    );
    const { origin } = await listen(https, "https");
    servers.push(() => closeServer(https));
    const url = `${origin.replace(/^https:/, "http:")}/arcgis/admin`;
    const { thrown, error } = await classified(url);
    expect(thrown.code).toBe("UND_ERR_SOCKET");
    expect(thrown.socket?.bytesRead).toBe(0);
    expect(error.code).toBe("NETWORK");
    expect(error.message).toMatch(HINT);
    expect(error.message).toContain(`(https://${new URL(origin).host})`);
  });

  it("a plain http server cut off mid-answer: undici had read its first bytes, and no hint", async () => {
    const url = `${(await cutMidAnswer()).url}/arcgis/admin`;
    const { thrown, error } = await classified(url);
    expect(thrown.code).toBe("UND_ERR_SOCKET");
    expect(thrown.socket?.bytesRead).toBeGreaterThan(0);
    expect(error.code).toBe("NETWORK");
    expect(error.message).toMatch(/other side closed/);
    expect(error.message).not.toMatch(HINT);
  });

  it("through an operation: a cut-off answer is neither told to use https nor taken for a TLS port", async () => {
    const server = await cutMidAnswer();
    const adminUrl = `${server.url}/arcgis/admin`;
    const error = await failure(getUpgradeStatus(adminUrl, { retry: false }));
    // The request's own connection only: no TLS handshake was tried to confirm a TLS port.
    expect(server.connections()).toBe(1);
    expect(isArcGISRequestError(error)).toBe(true);
    expect(error.message).toMatch(/other side closed/);
    expect(error.message).not.toMatch(/https:\/\//);
    expect(permanentReason(error)).toBeUndefined();
  });
});
