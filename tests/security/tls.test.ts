/**
 * TLS verification is on by default: each resource refuses the emulator's self-signed certificate
 * unless its CA is given, with an error that names `tls.caCert`, and nothing reaches the server;
 * `tls.insecureSkipVerify` is an explicit opt-in that works and warns on every use.
 */
import * as fs from "node:fs";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { DEFAULT_PORTAL_ADMIN } from "../../emulator";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";

const figures = new SuiteFigures("security-tls");
afterAll(() => figures.write());

const ADMIN = { username: "siteadmin", password: "tls-Site-Pw-2a8e" };

let emu: TestEmulator;
/** A second emulator: its certificate is a CA that did NOT sign the first one's. */
let other: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 50, exportDelayMs: 50 });
  other = await startTestEmulator();
});

afterAll(async () => {
  await emu?.close();
  await other?.close();
});

async function checked(
  impl: typeof site,
  raw: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await impl.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

/** Runs `fn` with console.warn captured; returns the warning lines. */
async function warningsOf<T>(fn: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const spy = jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  try {
    return { value: await fn(), warnings };
  } finally {
    spy.mockRestore();
  }
}

describe("TLS verification by default", () => {
  const cases: Array<{ name: string; tls: Record<string, unknown> | undefined; given: boolean }> = [
    { name: "no tls argument", tls: undefined, given: false },
    { name: "tls: {}", tls: {}, given: false },
    { name: "insecureSkipVerify: false", tls: { insecureSkipVerify: false }, given: false },
    { name: "another CA's certificate", tls: { caCert: "OTHER" }, given: true },
  ];

  it.each(cases)(
    "Site refuses the self-signed certificate ($name), naming tls.caCert, and sends nothing",
    async ({ name, tls, given }) => {
      const before = emu.requestLog().length;
      const raw: Record<string, unknown> = {
        adminUrl: emu.adminUrl,
        ...ADMIN,
        timeouts: { serverReadyMs: 60_000, createMs: 60_000 },
      };
      if (tls !== undefined) raw.tls = tls.caCert === "OTHER" ? { caCert: other.caCert } : tls;
      const outcome = await measure(site.create(await checked(site, raw)));
      const error = errorOf(outcome);
      expect(error.message).toMatch(/The certificate of adminUrl \(.*\) is not trusted/);
      expect(error.message).toMatch(/set tls\.caCert/);
      // Node's own advice is for who starts Node.js, not for a Pulumi user.
      expect(error.message).not.toMatch(/--use-system-ca|Node\.js/);
      expect(error.message).toMatch(/tls\.insecureSkipVerify/);
      if (given) expect(error.message).toMatch(/the tls\.caCert given does not match it/);
      // Refused at once (not waited out as "server not ready"), before any request line.
      expect(outcome.ms).toBeLessThan(10_000);
      expect(emu.requestLog().length).toBe(before);
      expect(emu.stats().createNewSiteRequests).toBe(0);
      figures.record(
        `Site without the CA (${name}): refused`,
        { refusalsVerified: 1 },
        {
          tookMs: outcome.ms,
        },
      );
    },
  );

  it("SiteExport and Collaboration refuse it too, naming tls.caCert", async () => {
    const before = emu.requestLog().length;
    const exported = errorOf(
      await measure(
        siteExport.create(
          await checked(siteExport, { adminUrl: emu.adminUrl, ...ADMIN, downloadTo: "/tmp" }),
        ),
      ),
    );
    const collab = errorOf(
      await measure(
        collaboration.create(
          await checked(collaboration, {
            sharingUrl: emu.sharingUrl,
            collaborationId: "any",
            ...DEFAULT_PORTAL_ADMIN,
          }),
        ),
      ),
    );
    const refusals = [exported, collab];
    for (const error of refusals) {
      expect(error.message).toMatch(/is not trusted.*set tls\.caCert/);
    }
    expect(emu.requestLog().length).toBe(before);
    figures.record("SiteExport and Collaboration without the CA: refused", {
      refusalsVerified: refusals.length,
    });
  });

  it("accepts the certificate when its CA is given as tls.caCert, without a warning", async () => {
    const { value, warnings } = await warningsOf(async () =>
      site.create(await checked(site, siteInputs(emu, { ...ADMIN, runAsync: false }))),
    );
    expect(value.outs.state).toBe("created");
    expect(warnings.filter((w) => /insecureSkipVerify/.test(w))).toEqual([]);
    expect(fs.readFileSync(emu.caCertFile!, "utf8")).toContain("BEGIN CERTIFICATE");
    figures.record("Site with tls.caCert: accepted");
  });
});

describe("insecureSkipVerify is an opt-in that warns", () => {
  it("works for Site, SiteExport and Collaboration, and warns on every use", async () => {
    const insecure = { insecureSkipVerify: true };
    const { value, warnings } = await warningsOf(async () => {
      const adopted = valueOf(
        await measure(
          site.create(
            await checked(site, {
              adminUrl: emu.adminUrl,
              ...ADMIN,
              adoptExisting: true,
              tls: insecure,
            }),
          ),
        ),
      );
      const exported = valueOf(
        await measure(
          siteExport.create(
            await checked(siteExport, { adminUrl: emu.adminUrl, ...ADMIN, tls: insecure }),
          ),
        ),
      );
      const collab = await measure(
        collaboration.create(
          await checked(collaboration, {
            sharingUrl: emu.sharingUrl,
            collaborationId: "missing",
            ...DEFAULT_PORTAL_ADMIN,
            tls: insecure,
          }),
        ),
      );
      return { adopted, exported, collab };
    });
    expect(value.adopted.outs.state).toBe("adopted");
    expect(value.exported.outs.location).toMatch(/\/uploads\/[0-9a-f]{32}$/);
    // The portal was reached over unverified TLS: the answer is the portal's own "not found".
    expect(errorOf(value.collab).message).toMatch(/does not exist/);
    const switchedOff = warnings.filter((w) =>
      /^warning: .*TLS certificate verification is switched off for https:\/\/127\.0\.0\.1:\d+\/(arcgis\/admin|portal\/sharing\/rest) \(tls\.insecureSkipVerify\)\. Prefer tls\.caCert/.test(
        w,
      ),
    );
    // At least one warning per resource, for each of the URLs used.
    expect(switchedOff.length).toBeGreaterThanOrEqual(3);
    expect(switchedOff.some((w) => w.includes(emu.adminUrl))).toBe(true);
    expect(switchedOff.some((w) => w.includes(emu.sharingUrl))).toBe(true);
    figures.record(
      "insecureSkipVerify: works and warns",
      { inputsTried: 3 },
      {
        warnings: switchedOff.length,
      },
    );
  });
});
