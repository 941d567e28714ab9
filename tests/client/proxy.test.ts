/**
 * Proxies from the environment (HTTPS_PROXY, NO_PROXY) through a real CONNECT proxy, and the
 * machine's extra CAs (NODE_EXTRA_CA_CERTS) next to tls.caCert, against the emulator.
 */
import { execFile } from "node:child_process";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import { rootCertificates } from "node:tls";
import { closeDispatchers, createAdminSession, serverInfo } from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

let emu: TestEmulator;
let proxy: http.Server;
let proxyUrl: string;
const tunnels: string[] = [];
const plainRequests: string[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 0 });
  proxy = http.createServer((req, res) => {
    plainRequests.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? "");
    const [host, port] = (req.url ?? "").split(":");
    const upstream = net.connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
}, 60_000);

afterEach(async () => {
  for (const key of ["HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "HTTP_PROXY"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  tunnels.length = 0;
  plainRequests.length = 0;
  await closeDispatchers();
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await emu?.close();
});

describe("HTTPS_PROXY", () => {
  it("tunnels to the server through the proxy, with the server's certificate checked against tls.caCert", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    const info = await serverInfo(emu.adminUrl, { tls: { caCert: emu.caCert! } });
    expect(info.fullVersion).toBe("11.3.0");
    expect(tunnels).toEqual([new URL(emu.adminUrl).host]);
    // A tunnel only: the proxy never sees a request, so never a token.
    expect(plainRequests).toEqual([]);
  });

  it("keeps checking the certificate through the tunnel (no caCert: refused)", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    await expect(serverInfo(emu.adminUrl, {})).rejects.toThrow(/certificate/i);
    expect(tunnels).toEqual([new URL(emu.adminUrl).host]);
  });

  it("sends a token only inside the tunnel to the configured origin", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    const session = createAdminSession({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      password: "no-site-yet-1",
      tls: { caCert: emu.caCert! },
    });
    await expect(session.call("machines", {})).rejects.toThrow();
    expect(tunnels.every((t) => t === new URL(emu.adminUrl).host)).toBe(true);
    expect(plainRequests).toEqual([]);
  });

  it("goes direct to a host in NO_PROXY", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    process.env.NO_PROXY = "127.0.0.1";
    const info = await serverInfo(emu.adminUrl, { tls: { caCert: emu.caCert! } });
    expect(info.fullVersion).toBe("11.3.0");
    expect(tunnels).toEqual([]);
  });
});

describe("NODE_EXTRA_CA_CERTS", () => {
  /** Calls rest/info from a fresh Node (NODE_EXTRA_CA_CERTS is read at start) with the build. */
  function callWith(env: NodeJS.ProcessEnv) {
    const script = `
      const { serverInfo } = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider", "client"))});
      serverInfo(process.argv[1], { tls: { caCert: process.argv[2] } }).then(
        (info) => { console.log("ok " + info.fullVersion); process.exit(0); },
        (error) => { console.log("failed " + error.message); process.exit(1); });`;
    const { NODE_EXTRA_CA_CERTS: _ignored, ...rest } = process.env;
    // Asynchronously: the emulator answers from this process.
    return new Promise<{ stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ["-e", script, emu.adminUrl, rootCertificates[0]!],
        { encoding: "utf8", env: { ...rest, ...env } },
        (_error, stdout) => resolve({ stdout }),
      );
    });
  }

  it("trusts the machine's extra CAs when tls.caCert names another CA", async () => {
    const result = await callWith({ NODE_EXTRA_CA_CERTS: emu.caCertFile! });
    expect(result.stdout.trim()).toBe("ok 11.3.0");
  });

  it("without them, the server's self-signed certificate is refused (the control)", async () => {
    const result = await callWith({});
    expect(result.stdout).toMatch(/^failed .*certificate/i);
  });
});

describe("a failure on the way through a proxy", () => {
  it("names the proxy and NO_PROXY when the proxy does not answer", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    process.env.HTTPS_PROXY = `http://user:secret@127.0.0.1:${port}`;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    const error = await serverInfo(emu.adminUrl, { tls: { caCert: emu.caCert! } }).catch(
      (e: unknown) => e as Error,
    );
    expect((error as Error).message).toContain(
      `went through the proxy http://127.0.0.1:${port} (HTTPS_PROXY)`,
    );
    expect((error as Error).message).toContain("NO_PROXY");
    expect((error as Error).message).not.toContain("secret");
  });

  it("says to use https when an http:// URL meets a TLS port that closes the connection", async () => {
    const error = await serverInfo(emu.adminUrl.replace("https://", "http://"), {}).catch(
      (e: unknown) => e as Error,
    );
    expect((error as Error).message).toMatch(
      /use an https:\/\/ URL \(https:\/\/127\.0\.0\.1:\d+\)/,
    );
  });
});
