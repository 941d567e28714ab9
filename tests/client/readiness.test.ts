/**
 * What waitForServer waits for and what it does not, over the network: the emulator and real
 * local servers (a plain http server answering 404, one answering 503 while "starting", a port
 * where nothing listens yet). A failure waiting cannot fix ends the wait at once with its reason
 * (permanentReason); a server that is not answering yet is waited for, then used.
 */
import { createServer, type Server } from "node:http";
import {
  closeDispatchers,
  isArcGISRequestError,
  permanentReason,
  waitForServer,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { closedPortToBindLater, closeServer, listen } from "../../tools/harness/servers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
  await closeDispatchers();
});

/** Long enough that a wait that is not ended at once fails the elapsed-time assertion. */
const DEADLINE_MS = 20_000;

/** Runs waitForServer with a 20 s deadline; the failure it ends with and how long it took. */
async function failureOf(adminUrl: string, tls: { caCert?: string } = {}) {
  const started = Date.now();
  try {
    await waitForServer(
      adminUrl,
      { tls },
      { deadline: started + DEADLINE_MS, pollIntervalMs: 100 },
    );
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    return { error, ms: Date.now() - started, reason: permanentReason(error) };
  }
  throw new Error("waitForServer did not fail");
}

describe("waitForServer ends at once on what waiting cannot fix", () => {
  it("an http:// URL on the emulator's https port: plain-http, saying to use https", async () => {
    const { error, ms, reason } = await failureOf(emu.adminUrl.replace(/^https:/, "http:"));
    expect(reason).toBe("plain-http");
    expect(error.message).toContain(`use an https:// URL (https://${new URL(emu.adminUrl).host})`);
    expect(ms).toBeLessThan(5_000);
  });

  it("an https:// URL on a plain http port: no-tls, not a certificate problem", async () => {
    const plain = await startTestEmulator({ tls: false });
    try {
      const { error, ms, reason } = await failureOf(plain.adminUrl.replace(/^http:/, "https:"));
      expect(reason).toBe("no-tls");
      expect(error.message).not.toMatch(/not trusted/);
      expect(ms).toBeLessThan(5_000);
    } finally {
      await plain.close();
    }
  });

  it("a path the emulator answers 404 to: not-found", async () => {
    const { error, ms, reason } = await failureOf(emu.adminUrl.replace("/admin", "/admn"), {
      caCert: emu.caCert!,
    });
    expect(reason).toBe("not-found");
    expect(error.httpStatus).toBe(404);
    expect(ms).toBeLessThan(5_000);
  });

  it("a plain http server answering an HTML 404: not-found", async () => {
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { "content-type": "text/html" }).end("<html>Not Found</html>");
    });
    const { origin } = await listen(server);
    try {
      const { ms, reason } = await failureOf(`${origin}/arcgis/admin`);
      expect(reason).toBe("not-found");
      expect(ms).toBeLessThan(5_000);
    } finally {
      await closeServer(server);
    }
  });

  it("a portal at the admin URL's place: wrong-product, naming its sharing API", async () => {
    const { error, ms, reason } = await failureOf(
      emu.sharingUrl.replace("/sharing/rest", "/admin"),
      { caCert: emu.caCert! },
    );
    expect(reason).toBe("wrong-product");
    expect(error.message).toContain(
      `a portal answers there (its sharing API is ${emu.sharingUrl})`,
    );
    expect(ms).toBeLessThan(5_000);
  });

  it("a certificate that is not trusted: tls-untrusted", async () => {
    const { ms, reason } = await failureOf(emu.adminUrl);
    expect(reason).toBe("tls-untrusted");
    expect(ms).toBeLessThan(5_000);
  });

  it("a trusted certificate that does not name the host: tls-hostname", async () => {
    // The emulator's certificate names 127.0.0.1 and ::1; the same address written as an
    // IPv4-mapped IPv6 address reaches it under a name the certificate does not carry.
    const { ms, reason } = await failureOf(
      emu.adminUrl.replace("127.0.0.1", "[::ffff:127.0.0.1]"),
      { caCert: emu.caCert! },
    );
    expect(reason).toBe("tls-hostname");
    expect(ms).toBeLessThan(5_000);
  });
});

describe("waitForServer waits for a server that is not answering yet", () => {
  it("connection refused until the server starts: it is waited for, then its answer is used", async () => {
    const port = await closedPortToBindLater();
    const adminUrl = `https://127.0.0.1:${port}/arcgis/admin`;
    let late: TestEmulator | undefined;
    const starting = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        startTestEmulator({ port }).then((e) => {
          late = e;
          resolve();
        }, reject);
      }, 2_000),
    );
    // A late start that fails ends the wait below at once instead of at the test's timeout.
    const failedStart = starting.then(() => new Promise<never>(() => {}));
    try {
      const seen: string[] = [];
      const started = Date.now();
      // The emulator's CA exists only once it starts: trust it through insecureSkipVerify here,
      // the wait is what is tested.
      const status = await Promise.race([
        waitForServer(
          adminUrl,
          { tls: { insecureSkipVerify: true } },
          {
            deadline: started + DEADLINE_MS,
            pollIntervalMs: 200,
            onStatus: (s) => seen.push(s.detail),
          },
        ),
        failedStart,
      ]);
      expect(status.state).toBe("no-site");
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(seen.some((d) => /ECONNREFUSED/.test(d))).toBe(true);
    } finally {
      await starting;
      await late?.close();
    }
  });

  it("HTTP 503 while starting: it is waited for, then the server's answer is used", async () => {
    let starting = true;
    const looks: number[] = [];
    const server: Server = createServer((req, res) => {
      req.resume();
      looks.push(Date.now());
      if (starting) {
        res.writeHead(503, { "content-type": "text/html" }).end("<html>Starting</html>");
        return;
      }
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { code: 499, message: "Token Required" } }));
    });
    const { origin } = await listen(server);
    const timer = setTimeout(() => (starting = false), 2_000);
    try {
      const started = Date.now();
      const status = await waitForServer(
        `${origin}/arcgis/admin`,
        {},
        { deadline: started + DEADLINE_MS, pollIntervalMs: 200 },
      );
      expect(status.state).toBe("in-site");
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(looks.length).toBeGreaterThan(2);
    } finally {
      clearTimeout(timer);
      await closeServer(server);
    }
  });
});
