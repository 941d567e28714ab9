/**
 * What error messages and requests reveal: a short password must not be "redacted" out of the
 * URL or address it happens to be part of (which told the reader the password), and credentials in
 * a URL's user-info part are refused by the client before anything is sent.
 */
import { createAdminSession, downloadToFile, siteStatus } from "../../provider/client";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy, proxiedAdminUrl } from "../../tools/harness/fault-proxy";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure } from "../../tools/harness/outcome";

const figures = new SuiteFigures("security-exposure");
afterAll(() => figures.write());

let emu: TestEmulator;
let proxy: FaultProxy;
let adminUrl: string;

beforeAll(async () => {
  emu = await startTestEmulator({ tls: false, createDelayMs: 50, exportDelayMs: 50 });
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin, { preserveHost: true });
  adminUrl = proxiedAdminUrl(proxy, emu);
  const created = await site.create(
    (await site.check({}, siteInputs(emu, { adminUrl, runAsync: false }))).inputs,
  );
  expect(created.outs.state).toBe("created");
});

afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

describe("redaction of short passwords", () => {
  // `admin` is part of every admin URL, `7` of 127.0.0.1, `1` of nearly everything.
  it.each(["admin", "7", "1", "arcgis"])(
    "keeps the URL whole in the error of a wrong password %j, and hides the password where it is a value",
    async (password) => {
      const inputs = (
        await siteExport.check({}, { adminUrl, username: "siteadmin", password, location: "/x" })
      ).inputs!;
      const error = errorOf(await measure(siteExport.create(inputs)));
      // The URL and the address appear exactly as configured: nothing was cut out of them.
      expect(error.message).toContain(`${adminUrl}`);
      expect(error.message).not.toMatch(/12\[REDACTED\]|\/\[REDACTED\]|\[REDACTED\]\//);

      // A server that echoes the password as a value (a JSON string, a form value, a word).
      proxy.setRule(({ path }) =>
        path.endsWith("/generateToken")
          ? {
              kind: "answer",
              status: 200,
              body: JSON.stringify({
                status: "error",
                code: 400,
                messages: [
                  `Rejected "${password}" for user siteadmin at 127.0.0.1/arcgis/admin.`,
                  `username=siteadmin&pwd=${encodeURIComponent(password)}&f=json`,
                  `password ${password} is wrong`,
                ],
              }),
            }
          : undefined,
      );
      try {
        const echoed = errorOf(await measure(siteExport.create(inputs)));
        expect(echoed.message).toContain(`${adminUrl}`);
        expect(echoed.message).toContain("127.0.0.1/arcgis/admin");
        expect(echoed.message).toContain('Rejected "[REDACTED]" for user siteadmin');
        expect(echoed.message).toContain("pwd=[REDACTED]&f=json");
        expect(echoed.message).toContain("password [REDACTED] is wrong");
      } finally {
        proxy.setRule(() => undefined);
      }
      figures.record(`short password ${JSON.stringify(password)} in error messages`, {
        inputsTried: 2,
        faultsInjected: 1,
        faultsSurvived: 1,
        secretsTracked: 1,
        secretsLeaked: 0,
      });
    },
  );
});

describe("credentials in a URL's user-info part", () => {
  const SECRET = "userinfo-Secret-4c1d";

  /** The admin URL through the proxy with user info added. */
  function withUserInfo(url: string, userInfo: string): string {
    return url.replace("http://", `http://${userInfo}@`);
  }

  it("refuses them in the client before anything is sent, without repeating them", async () => {
    const before = proxy.seen.length;
    const urls = [
      withUserInfo(adminUrl, `siteadmin:${SECRET}`),
      withUserInfo(adminUrl, "siteadmin"),
      withUserInfo(adminUrl, `:${SECRET}`),
    ];
    let refused = 0;
    for (const url of urls) {
      // A password no token was cached for, so that generateToken has to be sent.
      const session = createAdminSession({
        adminUrl: url,
        username: "siteadmin",
        password: `uncached-Password-${refused}`,
      });
      const errors = [
        errorOf(await measure(session.token())),
        errorOf(
          await measure(
            downloadToFile({
              url: `${url}/uploads/x`,
              operation: "downloadExport",
              dest: { dir: emu.dataDir },
            }),
          ),
        ),
      ];
      const status = await siteStatus(url);
      expect(status.state).toBe("unreachable");
      if (status.state === "unreachable") errors.push(status.error);
      for (const e of errors) {
        expect(e).toMatchObject({ code: "BAD_INPUT" });
        expect(e.message).toMatch(
          /the URL contains credentials .*give them as username and password/,
        );
        expect(e.message).not.toContain(SECRET);
        expect(e.message).not.toContain("siteadmin@");
        refused++;
      }
    }
    // Nothing reached the server.
    expect(proxy.seen.length).toBe(before);
    figures.record("URLs with user info refused by the client (token, download, site status)", {
      inputsTried: urls.length * 3,
      refusalsVerified: refused,
      secretsTracked: urls.length,
      secretsLeaked: 0,
    });
  });

  it("makes Site create fail at once, even without check(), instead of waiting for an answer", async () => {
    const before = proxy.seen.length;
    const inputs = (await site.check({}, siteInputs(emu, { timeouts: { serverReadyMs: 60_000 } })))
      .inputs!;
    const outcome = await measure(
      site.create({ ...inputs, adminUrl: withUserInfo(adminUrl, `siteadmin:${SECRET}`) }),
    );
    const error = errorOf(outcome);
    expect(error.message).toMatch(/adminUrl: must not contain credentials \(user:password@/);
    expect(error.message).not.toContain(SECRET);
    // Far from serverReadyMs: the refusal is final, not "not answering yet".
    expect(outcome.ms).toBeLessThan(30_000);
    expect(proxy.seen.length).toBe(before);
    figures.record(
      "Site create with user info in adminUrl (check bypassed)",
      { refusalsVerified: 1, secretsTracked: 1, secretsLeaked: 0 },
      { tookMs: outcome.ms },
    );
  });
});
