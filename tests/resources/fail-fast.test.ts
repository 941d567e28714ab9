/**
 * Mistakes that waiting cannot fix fail in seconds, naming the input to change, whatever the time
 * limit (timeouts.serverReadyMs here 60 s): another product than serverType, a portal where a
 * server was expected, TLS, refused credentials, a wrong sharingUrl. Only a server that is not
 * answering yet is waited for (refused connections, 503), and then used. Each lifecycle is called
 * as the host calls it (`implementation`), against the emulator and real local servers.
 */
import { createServer, type Server } from "node:http";
import { closedPort, closeServer, listen } from "../../tools/harness/servers";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { withTiming } from "../../provider/resources/site/lifecycle";
import { createNewSite } from "../../provider/client";
import {
  portalSeed,
  siteInputs,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { startEmulatorPresenting } from "../../tools/harness/presenting-emulator";
import { issueServerCertificate, makeRootCa } from "../../tools/harness/pki";

jest.setTimeout(60_000);

const site = withTiming({ pollIntervalMs: 50, serverPollIntervalMs: 200 });
const PASSWORD = "site-Password-1";
/** So long that a failure that is waited out fails the elapsed-time assertions. */
const TIMEOUTS = { serverReadyMs: 60_000, createMs: 60_000 };
/** What "in seconds" means here, with room for a loaded machine. */
const FAST_MS = 5_000;

type Implementation = {
  check: (olds: unknown, news: unknown) => Promise<{ inputs?: unknown; failures?: unknown[] }>;
  create: (inputs: unknown) => Promise<unknown>;
};

/** check() then create(); the failure's message and how long create took. */
async function createFails(impl: Implementation, raw: Record<string, unknown>) {
  const checked = await impl.check({}, raw);
  expect(checked.failures ?? []).toEqual([]);
  const started = Date.now();
  try {
    await impl.create(checked.inputs);
  } catch (error) {
    const message = (error as Error).message;
    // No secret and no stack trace in what the user reads.
    expect(message).not.toContain(PASSWORD);
    expect((error as Error).stack ?? "").toBe("");
    return { message, ms: Date.now() - started };
  }
  throw new Error("create did not fail");
}

describe("Site fails fast", () => {
  const emulators: TestEmulator[] = [];
  afterAll(async () => {
    for (const e of emulators) await e.close();
  });
  async function emulator(options: Parameters<typeof startTestEmulator>[0] = {}) {
    const e = await startTestEmulator({ createDelayMs: 0, ...options });
    emulators.push(e);
    return e;
  }

  it("on a Notebook Server declared as a Mission Server, naming adminUrl and serverType, sending nothing", async () => {
    const notebook = await emulator({ serverType: "notebook-server" });
    const { message, ms } = await createFails(
      site,
      siteInputs(notebook, { password: PASSWORD, timeouts: TIMEOUTS }),
    );
    expect(message).toMatch(/no Mission Server health check/);
    expect(message).toMatch(/Set serverType to the server's product/);
    expect(message).toMatch(/adminUrl \(https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin\)/);
    expect(message).toContain("Nothing was sent.");
    expect(ms).toBeLessThan(FAST_MS);
    expect(notebook.stats().createNewSiteRequests).toBe(0);
  });

  it("on a portal where a server was expected, naming adminUrl and the portal", async () => {
    const emu = await emulator();
    const { message, ms } = await createFails(
      site,
      siteInputs(emu, {
        adminUrl: emu.sharingUrl.replace("/sharing/rest", "/admin"),
        password: PASSWORD,
        timeouts: TIMEOUTS,
      }),
    );
    expect(message).toContain(`a portal answers there (its sharing API is ${emu.sharingUrl})`);
    expect(message).toMatch(/set adminUrl to a server's administrative root/);
    expect(ms).toBeLessThan(FAST_MS);
  });

  it("on an admin URL a plain http server answers 404 to, naming adminUrl", async () => {
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { "content-type": "text/html" }).end("<html>Not Found</html>");
    });
    const { origin } = await listen(server);
    try {
      const { message, ms } = await createFails(site, {
        adminUrl: `${origin}/arcgis/admin`,
        username: "siteadmin",
        password: PASSWORD,
        timeouts: TIMEOUTS,
      });
      expect(message).toMatch(
        /Nothing answers at adminUrl \(http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin, HTTP 404\): check the path of adminUrl/,
      );
      expect(ms).toBeLessThan(FAST_MS);
    } finally {
      await closeServer(server);
    }
  });

  it("on a certificate that is not trusted, naming tls.caCert and adminUrl", async () => {
    const emu = await emulator();
    const { message, ms } = await createFails(
      site,
      siteInputs(emu, { password: PASSWORD, tls: {}, timeouts: TIMEOUTS }),
    );
    expect(message).toMatch(
      /The certificate of adminUrl \(https:\/\/127\.0\.0\.1:\d+\) is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate\): set tls\.caCert/,
    );
    expect(ms).toBeLessThan(FAST_MS);
  });

  it("on a certificate that does not name the host, naming adminUrl", async () => {
    const emu = await emulator();
    const { message, ms } = await createFails(
      site,
      siteInputs(emu, {
        adminUrl: emu.adminUrl.replace("127.0.0.1", "[::ffff:127.0.0.1]"),
        password: PASSWORD,
        timeouts: TIMEOUTS,
      }),
    );
    expect(message).toMatch(/use in adminUrl a host name the certificate names/);
    expect(ms).toBeLessThan(FAST_MS);
  });
});

describe("Site names a server certificate that is not valid now as such", () => {
  const DAY = 24 * 3600 * 1000;
  const root = makeRootCa();
  const emulators: TestEmulator[] = [];
  afterAll(async () => {
    for (const e of emulators) await e.close();
  });

  it.each([
    {
      name: "expired",
      validity: {
        notBefore: new Date(Date.now() - 30 * DAY),
        notAfter: new Date(Date.now() - DAY),
      },
      said: /The certificate of adminUrl \(https:\/\/127\.0\.0\.1:\d+\), or one of its chain, has expired \(CERT_HAS_EXPIRED: certificate has expired\): the server must present a renewed certificate/,
    },
    {
      name: "not valid yet",
      validity: {
        notBefore: new Date(Date.now() + DAY),
        notAfter: new Date(Date.now() + 30 * DAY),
      },
      said: /The certificate of adminUrl \(https:\/\/127\.0\.0\.1:\d+\), or one of its chain, is not valid yet \(CERT_NOT_YET_VALID: certificate is not yet valid\): check the clocks/,
    },
  ])("$name, from a CA given as tls.caCert: not 'not trusted'", async ({ validity, said }) => {
    const issued = issueServerCertificate(root, ["127.0.0.1"], "127.0.0.1", validity);
    const emu = await startEmulatorPresenting(issued, { createDelayMs: 0 });
    emulators.push(emu);
    const { message, ms } = await createFails(
      site,
      siteInputs(emu, { password: PASSWORD, tls: { caCert: root.certPem }, timeouts: TIMEOUTS }),
    );
    expect(message).toMatch(said);
    expect(message).not.toMatch(/is not trusted|set tls\.caCert to/);
    expect(ms).toBeLessThan(FAST_MS);
  });
});

describe("Site waits for a server that is not answering yet, then uses it", () => {
  it("connection refused until the emulator starts on the port", async () => {
    const port = await closedPort();
    let late: TestEmulator | undefined;
    const starting = new Promise<void>((resolve) =>
      setTimeout(() => {
        void startTestEmulator({ port, createDelayMs: 0 }).then((e) => {
          late = e;
          resolve();
        });
      }, 2_000),
    );
    try {
      const checked = await site.check(
        {},
        {
          adminUrl: `https://127.0.0.1:${port}/arcgis/admin`,
          username: "siteadmin",
          password: PASSWORD,
          // The emulator's CA exists only once it starts; the wait is what is tested here.
          tls: { insecureSkipVerify: true },
          timeouts: TIMEOUTS,
        },
      );
      const started = Date.now();
      const created = (await site.create(checked.inputs)) as { outs: { state: string } };
      expect(created.outs.state).toBe("created");
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      await starting;
      expect(late!.stats().createNewSiteRequests).toBe(1);
    } finally {
      await starting;
      await late?.close();
    }
  });

  it("HTTP 503 while starting, then the emulator answers on the same port", async () => {
    const starting: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { "content-type": "text/html" }).end("<html>Starting</html>");
    });
    const { origin } = await listen(starting);
    const port = Number(new URL(origin).port);
    let late: TestEmulator | undefined;
    const handOver = new Promise<void>((resolve) =>
      setTimeout(() => {
        void closeServer(starting)
          .then(() => startTestEmulator({ port, tls: false, createDelayMs: 0 }))
          .then((e) => {
            late = e;
            resolve();
          });
      }, 2_000),
    );
    try {
      const checked = await site.check(
        {},
        {
          adminUrl: `${origin}/arcgis/admin`,
          username: "siteadmin",
          password: PASSWORD,
          timeouts: TIMEOUTS,
        },
      );
      const started = Date.now();
      const created = (await site.create(checked.inputs)) as { outs: { state: string } };
      expect(created.outs.state).toBe("created");
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    } finally {
      await handOver;
      await late?.close();
    }
  });
});

describe("refused credentials fail fast, naming username and password", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ createDelayMs: 0 });
    await createNewSite(
      emu.adminUrl,
      { serverType: "mission-server", username: "siteadmin", password: PASSWORD, runAsync: false },
      { tls: { caCert: emu.caCert! } },
    );
  });
  afterAll(async () => {
    await emu.close();
  });

  it("SiteExport with a wrong password", async () => {
    const { message, ms } = await createFails(siteExport, {
      ...siteInputs(emu, { password: "wrong-Password-7" }),
      location: emu.dataDir,
    });
    expect(message).toMatch(
      /The server at adminUrl \(https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin\) refused the username "siteadmin" with the password given \(it answered "Unable to generate token\. Invalid username or password\."\): check the arguments username and password, or, when the resource leaves them out, the connection argument, stack config arcgis-admin:username and arcgis-admin:password or environment variables ARCGIS_ADMIN_USERNAME and ARCGIS_ADMIN_PASSWORD\./,
    );
    expect(message).not.toContain("wrong-Password-7");
    expect(ms).toBeLessThan(FAST_MS);
  });
});

describe("Collaboration fails fast on its portal, naming sharingUrl", () => {
  const ADMIN = { username: "gisadmin", password: "portal-Admin-1" };
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: portalSeed([{ ...ADMIN, role: "org_admin" }]) });
  });
  afterAll(async () => {
    await emu.close();
  });
  const inputs = (extra: Record<string, unknown>) => ({
    sharingUrl: emu.sharingUrl,
    collaborationId: "hosted1",
    ...ADMIN,
    tls: { caCert: emu.caCert },
    ...extra,
  });

  it("on an http:// sharingUrl on the portal's https port", async () => {
    const { message, ms } = await createFails(
      collaboration,
      inputs({ sharingUrl: emu.sharingUrl.replace(/^https:/, "http:"), tls: {} }),
    );
    expect(message).toContain(
      `sharingUrl is an http:// URL on a port that speaks https: set sharingUrl to ${emu.sharingUrl}.`,
    );
    expect(ms).toBeLessThan(FAST_MS);
  });

  it("on a sharingUrl whose path answers 404", async () => {
    const { message } = await createFails(
      collaboration,
      inputs({ sharingUrl: emu.sharingUrl.replace("/portal/", "/portl/") }),
    );
    expect(message).toMatch(
      /Nothing answers at sharingUrl \(.*\/portl\/sharing\/rest, HTTP 404\): check the path of sharingUrl/,
    );
  });

  it("on a wrong password", async () => {
    const { message } = await createFails(collaboration, inputs({ password: "wrong-Password-8" }));
    expect(message).toMatch(
      /The portal at sharingUrl \(.*\) refused the username "gisadmin" with the password given \(it answered ".*"\): check the arguments username and password, or, when the resource leaves them out, the connection argument, stack config arcgis-admin:portalUsername and arcgis-admin:portalPassword or environment variables ARCGIS_ADMIN_PORTAL_USERNAME and ARCGIS_ADMIN_PORTAL_PASSWORD\./,
    );
    expect(message).not.toContain("wrong-Password-8");
  });

  it("on a certificate that is not trusted", async () => {
    const { message } = await createFails(collaboration, inputs({ tls: {} }));
    expect(message).toMatch(
      /The certificate of sharingUrl \(https:\/\/127\.0\.0\.1:\d+\) is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate\): set tls\.caCert/,
    );
  });
});
