/**
 * Secrets through Pulumi's REAL dynamic-provider host (tools/harness/host.ts): a full lifecycle
 * (check, create, read, diff, update, delete, plus refused calls) of Site, SiteExport and
 * Collaboration from one user program, asserting that the passwords, the config store secret and
 * every token the emulator issued appear in no output except under keys Pulumi marks secret, in no
 * error message, in no line the host printed, in no request URL, in no emulator log line and in no
 * file the emulator keeps.
 *
 * The emulator runs without TLS behind the fault proxy (forwarding everything, the Host header
 * kept), which sees every answer: the issued tokens are read from the generateToken answers. As a
 * second net, any token-like string found anywhere is checked with the emulator's own signing key
 * (from its state file), so a token the proxy did not see would still count as a leak.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { createPortalSession } from "../../provider/client";
import { readToken } from "../../emulator/core/tokens";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { HostCallError, type Host } from "../../tools/harness/host-types";
import { isSecret, secret, urn, type PropertyMap } from "../../tools/harness/property-values";
import { prepareConsumer, type Consumer, type Registration } from "../../tools/harness/consumer";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { runTempDir } from "../../tools/harness/temp";

const figures = new SuiteFigures("security-secrets");
afterAll(() => figures.write());

const SITE_PASSWORD = "secrets-Site-Pw-71c4e";
const NEW_EXPORT_PASSWORD = "secrets-Rotated-Pw-5d0b9";
/** A new Site password that was never set on the server (its update is refused). */
const UNSET_SITE_PASSWORD = "secrets-Other-Pw-0000";
const STORE_SECRET = "secrets-Store-Key-8a2f6";
const PORTAL_PASSWORD = "secrets-Portal-Pw-3e9d1";
const PORTAL_ID = "SECRETPORTAL1";

let emu: TestEmulator;
let proxy: FaultProxy;
let adminUrl: string;
let sharingUrl: string;
let downloads: string;
let consumer: Consumer;
let host: Host;
const emulatorLog: string[] = [];
/** Tokens seen in the emulator's generateToken answers. */
const issuedTokens = new Set<string>();
/** A portal token given to the Collaboration as an input (a secret). */
let givenToken: string;
/** Everything the provider returned, as the engine would store it. */
const results: Array<{ what: string; value: unknown }> = [];
/** The messages of every refused call. */
const errors: string[] = [];
let regs: Record<"site" | "backup" | "partners" | "partnersWithToken", Registration>;

function program(): string {
  return `
    const pulumi = require("@pulumi/pulumi");
    const { Site, SiteExport, Collaboration } = require("pulumi-arcgis-admin");
    const config = new pulumi.Config("arcgis");
    const site = new Site("site", {
      adminUrl: ${JSON.stringify(adminUrl)},
      username: "siteadmin",
      password: config.requireSecret("sitePassword"),
      configStoreConnection: {
        type: "AZURE",
        connectionString: "DefaultEndpointsProtocol=https;AccountName=store",
        connectionSecret: config.requireSecret("storeSecret"),
      },
      deleteSiteOnDestroy: true,
      timeouts: { serverReadyMs: 20000, createMs: 60000 },
    });
    new SiteExport("backup", {
      adminUrl: site.adminUrl,
      username: site.username,
      password: site.password,
      downloadTo: ${JSON.stringify(downloads)},
      triggers: ["release-1"],
    });
    new Collaboration("partners", {
      sharingUrl: ${JSON.stringify(sharingUrl)},
      collaborationId: "hosted1",
      username: "gisadmin",
      password: config.requireSecret("portalPassword"),
    });
    new Collaboration("partnersWithToken", {
      sharingUrl: ${JSON.stringify(sharingUrl)},
      collaborationId: "hosted1",
      token: config.requireSecret("portalToken"),
    });
  `;
}

/** Records a result for the final scan and returns it. */
function keep<T>(what: string, value: T): T {
  results.push({ what, value });
  return value;
}

/** Awaits a call that must be refused and keeps its message. */
async function refused(promise: Promise<unknown>): Promise<HostCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostCallError);
  errors.push((error as HostCallError).message, (error as HostCallError).details);
  return error as HostCallError;
}

beforeAll(async () => {
  emu = await startTestEmulator({
    tls: false,
    createDelayMs: 100,
    exportDelayMs: 50,
    quiet: false,
    log: (line) => emulatorLog.push(line),
    seed: portalSeed(
      [{ username: "gisadmin", password: PORTAL_PASSWORD, role: "org_admin" }],
      PORTAL_ID,
    ),
  });
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin, { preserveHost: true });
  proxy.observe((exchange) => {
    if (!exchange.path.split("?")[0]!.endsWith("/generateToken")) return;
    const token = /"token":"([^"]+)"/.exec(exchange.responseBody.toString("utf8"))?.[1];
    if (token !== undefined) issuedTokens.add(token);
  });
  adminUrl = `${proxy.url}${new URL(emu.adminUrl).pathname}`;
  sharingUrl = `${proxy.url}${new URL(emu.sharingUrl).pathname}`;
  downloads = runTempDir("secrets-downloads-");
  givenToken = await createPortalSession({
    sharingUrl,
    username: "gisadmin",
    password: PORTAL_PASSWORD,
  }).token();
  consumer = await prepareConsumer();
  const registrations = await consumer.runProgram(program(), {
    config: {
      "arcgis:sitePassword": SITE_PASSWORD,
      "arcgis:storeSecret": STORE_SECRET,
      "arcgis:portalPassword": PORTAL_PASSWORD,
      "arcgis:portalToken": givenToken,
    },
  });
  regs = Object.fromEntries(registrations.map((r) => [r.name, r])) as typeof regs;
  expect(Object.keys(regs).sort()).toEqual(["backup", "partners", "partnersWithToken", "site"]);
  host = await consumer.startHost();
  await host.configure();
}, 240_000);

afterAll(async () => {
  await host?.close();
  await consumer?.cleanup();
  await proxy?.close();
  await emu?.close();
  if (downloads !== undefined) await fs.rm(downloads, { recursive: true, force: true });
});

/** Counters at the start of the current test, for {@link recordStep}. */
let stepStart = { results: 0, errors: 0 };
beforeEach(() => {
  stepStart = { results: results.length, errors: errors.length };
});

/** Records the current lifecycle test with the host results and refusals it counted. */
function recordStep(name: string, faultsInjected = 0): void {
  figures.record(name, {
    inputsTried: results.length - stepStart.results,
    refusalsVerified: (errors.length - stepStart.errors) / 2,
    faultsInjected,
    faultsSurvived: faultsInjected,
  });
}

const secretOutputs = (name: keyof typeof regs) => ({
  additionalSecretOutputs: regs[name].options?.additionalSecretOutputs ?? [],
});

describe("a full lifecycle of the three resources through the dynamic-provider host", () => {
  let siteState: { id: string; properties: PropertyMap };
  let siteInputs: PropertyMap;

  it("Site: check, create, read, diff, update, a refused password update, a refused diff and create", async () => {
    const URN = urn("site");
    const checked = keep("site check", await host.check(URN, {}, regs.site.inputs));
    expect(checked.failures).toEqual([]);
    siteInputs = checked.inputs;
    expect(isSecret(siteInputs.password)).toBe(true);
    siteState = keep("site create", await host.create(URN, siteInputs, secretOutputs("site")));
    expect(emu.stats().sitesCreated).toBe(1);
    keep("site read", await host.read(siteState.id, URN, siteState.properties, siteInputs));
    const news = { ...siteInputs, timeouts: { serverReadyMs: 30_000, createMs: 90_000 } };
    const diff = await host.diff(siteState.id, URN, siteState.properties, news);
    expect(diff.changes).toBe("DIFF_SOME");
    const updated = keep(
      "site update",
      await host.update(siteState.id, URN, siteState.properties, news, secretOutputs("site")),
    );
    siteState = { id: siteState.id, properties: updated.properties };
    // A new password is an update, never a replacement, although deleteSiteOnDestroy is set.
    const otherPassword = { ...news, password: secret(UNSET_SITE_PASSWORD) };
    const credentialDiff = await host.diff(siteState.id, URN, siteState.properties, otherPassword);
    expect(credentialDiff).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
      deleteBeforeReplace: false,
    });
    // Refused: the server does not accept it (nobody changed it there), so state keeps the old.
    await refused(
      host.update(siteState.id, URN, siteState.properties, otherPassword, secretOutputs("site")),
    );
    // Refused: a new site-defining input for a site that cannot be re-created in place.
    await refused(
      host.diff(
        siteState.id,
        URN,
        { ...siteState.properties, deleteSiteOnDestroy: false },
        {
          ...otherPassword,
          directories: [{ name: "d", physicalPath: "/d", directoryType: "JOBS" }],
          deleteSiteOnDestroy: false,
        },
      ),
    );
    // Refused: creating it again on a machine that is in a site.
    await refused(host.create(URN, siteInputs, secretOutputs("site")));
    recordStep("Site lifecycle steps through the host");
  });

  it("SiteExport: check, create (download), read, diff, update with a rotated password, a refused create, delete", async () => {
    const URN = urn("backup");
    // The program's inputs come from the Site's outputs (unknown under setMocks): use the real ones.
    const news: PropertyMap = {
      ...regs.backup.inputs,
      adminUrl,
      username: "siteadmin",
      password: secret(SITE_PASSWORD),
    };
    const checked = keep("export check", await host.check(URN, {}, news));
    expect(checked.failures).toEqual([]);
    const created = keep(
      "export create",
      await host.create(URN, checked.inputs, secretOutputs("backup")),
    );
    expect((await fs.readdir(downloads)).filter((f) => f.endsWith(".agssite"))).toHaveLength(1);
    keep("export read", await host.read(created.id, URN, created.properties, checked.inputs));
    const rotated = { ...checked.inputs, password: secret(NEW_EXPORT_PASSWORD) };
    const diff = await host.diff(created.id, URN, created.properties, rotated);
    expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    const updated = keep(
      "export update",
      await host.update(created.id, URN, created.properties, rotated, secretOutputs("backup")),
    );
    // Refused: a location outside the server's export roots.
    const outside: PropertyMap = { ...checked.inputs, location: "/definitely/not/allowed" };
    delete outside.downloadTo;
    await refused(host.create(urn("outside"), outside, secretOutputs("backup")));
    await host.delete(created.id, URN, updated.properties);
    recordStep("SiteExport lifecycle steps through the host");
  });

  it("Site: a refresh after every token expired renews the token", async () => {
    await emu.expireTokens();
    const before = issuedTokens.size;
    const read = keep(
      "site read after expiry",
      await host.read(siteState.id, urn("site"), siteState.properties, siteInputs),
    );
    expect(read.id).toBe(siteState.id);
    expect(issuedTokens.size).toBe(before + 1);
    recordStep("Site refresh after every token expired", 1);
  });

  it("Collaboration: check, create, read, diff and update to a token, a refused create, delete", async () => {
    const URN = urn("partners");
    const checked = keep("collab check", await host.check(URN, {}, regs.partners.inputs));
    expect(checked.failures).toEqual([]);
    const withToken = keep(
      "collab check (token)",
      await host.check(URN, {}, regs.partnersWithToken.inputs),
    );
    expect(withToken.failures).toEqual([]);
    const created = keep(
      "collab create",
      await host.create(URN, checked.inputs, secretOutputs("partners")),
    );
    keep("collab read", await host.read(created.id, URN, created.properties, checked.inputs));
    const diff = await host.diff(created.id, URN, created.properties, withToken.inputs);
    expect(diff.changes).toBe("DIFF_SOME");
    const updated = keep(
      "collab update",
      await host.update(
        created.id,
        URN,
        created.properties,
        withToken.inputs,
        secretOutputs("partners"),
      ),
    );
    // Refused: a guest collaboration without leaveAsGuest.
    await refused(host.create(urn("joined"), { ...checked.inputs, collaborationId: "joined1" }));
    // The token given as input expired with the others: deleting with it is refused, and says so.
    await refused(host.delete(created.id, URN, updated.properties));
    // With a password again, destroy deletes it.
    await host.delete(created.id, URN, created.properties);
    keep("collab read after delete", await host.read(created.id, URN, created.properties));
    recordStep("Collaboration lifecycle steps through the host");
  });

  it("Site: delete (deleteSite) as the last step", async () => {
    await host.delete(siteState.id, urn("site"), siteState.properties);
    const gone = await host.read(siteState.id, urn("site"), siteState.properties, siteInputs);
    expect(gone.id).toBe("");
    recordStep("Site delete through the host");
  });
});

/** Places where a string occurs outside secret markers, as paths. */
function plainPlaces(value: unknown, needle: string, at = ""): string[] {
  if (isSecret(value)) return [];
  if (typeof value === "string") return value.includes(needle) ? [at || "(value)"] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => plainPlaces(v, needle, `${at}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => plainPlaces(v, needle, at ? `${at}.${k}` : k));
  }
  return [];
}

/** Every string outside secret markers. */
function plainStrings(value: unknown): string[] {
  if (isSecret(value)) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(plainStrings);
  if (value !== null && typeof value === "object")
    return Object.values(value).flatMap(plainStrings);
  return [];
}

describe("where the secrets went", () => {
  it("appear nowhere in the clear: outputs, errors, host output, URLs, emulator logs and files", async () => {
    expect(issuedTokens.size).toBeGreaterThanOrEqual(4);
    expect(issuedTokens.has(givenToken)).toBe(true);
    expect(errors.length).toBeGreaterThanOrEqual(5);
    const secrets = [
      SITE_PASSWORD,
      NEW_EXPORT_PASSWORD,
      UNSET_SITE_PASSWORD,
      STORE_SECRET,
      PORTAL_PASSWORD,
      ...issuedTokens,
    ];
    const dataFiles = await Promise.all(
      ["state.json", "requests.log"].map((f) => fs.readFile(path.join(emu.dataDir, f), "utf8")),
    );
    const texts: Array<[string, string]> = [
      ["host stdout", host.stdout()],
      ["host stderr", host.stderr()],
      ...errors.map((e, i): [string, string] => [`error ${i}`, e]),
      ...emu.requestLog().map((r): [string, string] => [`request line ${r.method}`, r.url]),
      ...proxy.seen.map((s): [string, string] => [`proxied ${s.method}`, s.path]),
      ["emulator log", emulatorLog.join("\n")],
      ["emulator state.json", dataFiles[0]!],
      ["emulator requests.log", dataFiles[1]!],
    ];
    const leaks: string[] = [];
    for (const value of secrets) {
      for (const [where, text] of texts) if (text.includes(value)) leaks.push(where);
      for (const { what, value: result } of results) {
        for (const place of plainPlaces(result, value)) leaks.push(`${what}: ${place}`);
      }
    }
    // Second net: any token this emulator would accept, wherever it shows up in the clear.
    const signingKey = (JSON.parse(dataFiles[0]!) as { tokenSecret: string }).tokenSecret;
    const candidates = [
      ...texts.map(([, text]) => text),
      ...results.flatMap(({ value }) => plainStrings(value)),
    ].flatMap((text) => text.match(/[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g) ?? []);
    const acceptable = candidates.filter((c) => readToken(signingKey, c) !== null);
    leaks.push(...acceptable.map((t) => `a valid token in the clear (${t.slice(0, 8)}…)`));
    expect(leaks).toEqual([]);
    // The passwords and the given token are in state, but only as secrets.
    const secretPlaces = results.filter(({ value }) =>
      JSON.stringify(value).includes(SITE_PASSWORD),
    );
    expect(secretPlaces.length).toBeGreaterThan(0);
    // The host did print progress: the scan looked at real output.
    expect(host.stdout()).toMatch(/info: \[runtime\]/);
    figures.record(
      "lifecycle of Site, SiteExport and Collaboration through the real host",
      {
        secretsTracked: secrets.length,
        secretsLeaked: leaks.length,
        inputsTried: results.length,
      },
      {
        tokensIssued: issuedTokens.size,
        placesScanned: texts.length + results.length,
        tokenLikeStringsChecked: candidates.length,
      },
    );
  });
});
