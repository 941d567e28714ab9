/**
 * Faults in what comes back: tokens that expire in the middle of an operation (renewed once, the
 * operation succeeds), and answers that are not the JSON an operation needs (an HTML page, an empty
 * body, invalid or truncated JSON, an unexpected shape), which must give errors that say what came
 * back. The emulator runs without TLS behind the fault proxy, which also counts what it forwards.
 */
import { promises as fs } from "node:fs";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import {
  portalSeed,
  siteInputs,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import {
  startFaultProxy,
  type Exchange,
  type Fault,
  type FaultProxy,
  faultsSeen,
  proxiedAdminUrl,
  proxiedSharingUrl,
} from "../../tools/harness/fault-proxy";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";
import { runTempDir } from "../../tools/harness/temp";

const figures = new SuiteFigures("faults-answers");
afterAll(() => figures.write());

const ADMIN = { username: "siteadmin", password: "answers-Fault-Pw-6d2e" };
const PORTAL_ID = "FAULTPORTAL1";
const PORTAL_ADMIN = { username: "gisadmin", password: "answers-Portal-Pw-8f1a" };

let emu: TestEmulator;
let proxy: FaultProxy;
let adminUrl: string;
let sharingUrl: string;
let downloads: string;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({
    tls: false,
    createDelayMs: 50,
    exportDelayMs: 100,
    seed: portalSeed([{ ...PORTAL_ADMIN, role: "org_admin" }], PORTAL_ID),
  });
  // The Host header is kept, so that download URLs the emulator answers lead through the proxy.
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin, { preserveHost: true });
  proxy.observe((exchange) => exchanges.push(exchange));
  adminUrl = proxiedAdminUrl(proxy, emu);
  sharingUrl = proxiedSharingUrl(proxy, emu);
  downloads = runTempDir("faults-answers-");
  const inputs = (
    await site.check({}, siteInputs(emu, { ...ADMIN, adminUrl, runAsync: false, tls: {} }))
  ).inputs!;
  const { id, outs } = await site.create(inputs);
  // A refresh obtains a token (the create sends none after its synchronous answer): the token
  // the tests below expire and see renewed.
  await site.read(id, outs);
});

afterAll(async () => {
  await proxy?.close();
  await emu?.close();
  if (downloads !== undefined) await fs.rm(downloads, { recursive: true, force: true });
});

beforeEach(() => {
  proxy.setRule(() => undefined);
});

async function exportInputs(extra: Record<string, unknown> = {}) {
  const result = await siteExport.check({}, { adminUrl, ...ADMIN, ...extra });
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

async function collaborationInputs() {
  const result = await collaboration.check(
    {},
    { sharingUrl, collaborationId: "hosted1", ...PORTAL_ADMIN },
  );
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

/** generateToken requests the emulator received from `from` on (an index into its log). */
function tokenRequestsSince(from: number): number {
  return emu
    .requestLog()
    .slice(from)
    .filter((r) => r.url.split("?")[0]!.endsWith("/generateToken")).length;
}

/** Answers the proxy forwarded with code 498 (token rejected) from `from` on. */
function rejectionsSince(from: number): number {
  return exchanges
    .slice(from)
    .filter((e) => e.responseBody.toString("utf8").includes("Invalid token.")).length;
}

describe("a token that expires in the middle of an operation", () => {
  it("is renewed once when it expired between two calls: SiteExport succeeds", async () => {
    // The refresh above obtained the token that the export session now reuses from the cache.
    await emu.expireTokens();
    const log = emu.requestLog().length;
    const seen = exchanges.length;
    const outcome = await measure(siteExport.create(await exportInputs({ downloadTo: downloads })));
    expect(valueOf(outcome).outs.sizeBytes).toBeGreaterThan(0);
    expect(rejectionsSince(seen)).toBe(1);
    expect(tokenRequestsSince(log)).toBe(1);
    figures.record(
      "token expired between calls (SiteExport)",
      { faultsInjected: 1, faultsSurvived: 1, dataLost: 0 },
      { tokenRenewals: tokenRequestsSince(log), tookMs: outcome.ms },
    );
  });

  it("is renewed once when it expires between exportSite and the download of the same create", async () => {
    // Warm the cache with a valid token first.
    valueOf(await measure(siteExport.create(await exportInputs({ downloadTo: downloads }))));
    const log = emu.requestLog().length;
    const seen = exchanges.length;
    let expired = 0;
    proxy.setRule(({ path: p }) => {
      if (p.includes("/uploads/") && expired === 0) {
        expired++;
        // Expire every token while the download request waits at the proxy.
        void emu.expireTokens();
        return { kind: "delay", ms: 300 };
      }
      return undefined;
    });
    const outcome = await measure(siteExport.create(await exportInputs({ downloadTo: downloads })));
    const outs = valueOf(outcome).outs;
    expect(outs.localPath).toEqual(expect.stringContaining(downloads));
    expect(expired).toBe(1);
    // One refused attempt, seen twice: the item URL answers its page, and the same URL asked as
    // JSON (to learn whether it describes an uploaded item) answers the 498.
    expect(rejectionsSince(seen)).toBe(2);
    expect(tokenRequestsSince(log)).toBe(1);
    figures.record(
      "token expired between exportSite and its download",
      { faultsInjected: 1, faultsSurvived: 1, dataLost: 0 },
      { tokenRenewals: tokenRequestsSince(log), tookMs: outcome.ms },
    );
  });

  it("is renewed once on refresh of a Collaboration, and never sent by a Site's refresh, which asks for a new one first", async () => {
    const siteState = (await site.check({}, siteInputs(emu, { ...ADMIN, adminUrl, tls: {} })))
      .inputs!;
    const created = await collaboration.create(await collaborationInputs());
    // Both sessions hold a cached token now (Site's from create above).
    valueOf(await measure(site.read(adminUrl, { ...siteState, machines: [] })));
    await emu.expireTokens();
    const log = emu.requestLog().length;
    const seen = exchanges.length;
    const siteRead = valueOf(await measure(site.read(adminUrl, { ...siteState, machines: [] })));
    expect(siteRead.id).toBe(adminUrl);
    expect(siteRead.props?.machines).toHaveLength(1);
    const collabRead = valueOf(await measure(collaboration.read(created.id, created.outs)));
    expect(collabRead.id).toBe(`${PORTAL_ID}/hosted1`);
    // The Collaboration's expired token is refused once and renewed; the Site's refresh proves
    // the site with a new token and never sends its expired one. One new token per API.
    expect(rejectionsSince(seen)).toBe(1);
    expect(tokenRequestsSince(log)).toBe(2);
    figures.record(
      "token expired before a refresh (Site and Collaboration)",
      { faultsInjected: 2, faultsSurvived: 2, dataLost: 0 },
      { tokenRenewals: tokenRequestsSince(log) },
    );
  });
});

/** A canned answer and what the error must say about it. */
interface BadAnswer {
  name: string;
  fault: Fault;
  says: RegExp;
}

const LOGIN_PAGE =
  '<!DOCTYPE html><html><head><title>ArcGIS Web Adaptor - Sign In</title></head><body><form action="/login"><input name="password"></form></body></html>';

const BAD_ANSWERS: BadAnswer[] = [
  {
    name: "an HTML login page with HTTP 200",
    fault: { kind: "answer", status: 200, body: LOGIN_PAGE, contentType: "text/html" },
    says: /the server answered an HTML page \(HTTP 200\): "ArcGIS Web Adaptor - Sign In"/,
  },
  {
    name: "a proxy's 502 page",
    fault: { kind: "status", status: 502 },
    says: /the server answered an HTML page \(HTTP 502\): "502 Bad Gateway"/,
  },
  {
    name: "an empty body",
    fault: { kind: "answer", status: 200, body: "" },
    says: /the server answered an empty body \(HTTP 200\)/,
  },
  {
    name: "invalid JSON",
    fault: { kind: "answer", status: 200, body: '{"status": success}' },
    says: /the server answered invalid JSON \(HTTP 200\): "\{"status": success\}"/,
  },
  {
    name: "JSON cut short (complete HTTP answer)",
    fault: { kind: "answer", status: 200, body: '{"status":"success","location":"/exports/2025' },
    says: /the server answered invalid JSON \(HTTP 200\): "\{"status":"success","location":"\/exports\/2025"/,
  },
  {
    name: "JSON that is not an object",
    fault: { kind: "answer", status: 200, body: '["success"]' },
    says: /the server answered JSON that is not an object \(HTTP 200\): "\["success"\]"/,
  },
  {
    name: "plain text with HTTP 500",
    fault: {
      kind: "answer",
      status: 500,
      body: "Internal Server Error",
      contentType: "text/plain",
    },
    says: /the server answered invalid JSON \(HTTP 500\): "Internal Server Error"/,
  },
];

describe("answers that are not the JSON an operation needs", () => {
  const shapes: BadAnswer[] = [
    ...BAD_ANSWERS,
    {
      name: "a success without the location",
      fault: { kind: "answer", status: 200, body: '{"status":"success"}' },
      says: /unexpected answer \(location: .*\)/,
    },
    {
      name: "a location that is not a string",
      fault: { kind: "answer", status: 200, body: '{"status":"success","location":42}' },
      says: /unexpected answer \(location: .*string.*\)/,
    },
    {
      name: "a body cut off mid-transfer",
      fault: { kind: "truncate" },
      says: /the answer \(HTTP 200\) broke off before it was complete \(UND_ERR_SOCKET: other side closed\)/,
    },
  ];

  it.each(shapes)("exportSite: $name gives an error that says what came back", async (bad) => {
    proxy.setRule(({ path: p }) => (p.endsWith("/exportSite") ? bad.fault : undefined));
    const outcome = await measure(siteExport.create(await exportInputs({ downloadTo: downloads })));
    const error = errorOf(outcome);
    expect(error.message).toMatch(/^exportSite on http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin failed/);
    expect(error.message).toMatch(bad.says);
    expect(error.message).not.toContain(ADMIN.password);
    expect(error.message).not.toMatch(/\n\s+at /);
    figures.record(`exportSite answered ${bad.name}`, {
      faultsInjected: 1,
      faultsSurvived: 1,
      inputsTried: 1,
    });
  });

  it.each(BAD_ANSWERS)(
    "the portal's community/self: $name gives an error that says what came back",
    async (bad) => {
      proxy.setRule(({ path: p }) => (p.includes("/community/self") ? bad.fault : undefined));
      const outcome = await measure(collaboration.create(await collaborationInputs()));
      const error = errorOf(outcome);
      expect(error.message).toMatch(/community\/self on http:\/\/127\.0\.0\.1:\d+\/portal/);
      expect(error.message).toMatch(bad.says);
      expect(error.message).not.toContain(PORTAL_ADMIN.password);
      figures.record(`community/self answered ${bad.name}`, {
        faultsInjected: 1,
        faultsSurvived: 1,
        inputsTried: 1,
      });
    },
  );

  it.each(BAD_ANSWERS.filter((b) => b.fault.kind === "answer"))(
    "the admin generateToken: $name gives an error that says what came back",
    async (bad) => {
      // A fresh password so that no token is cached and generateToken must be called.
      proxy.setRule(({ path: p }) => (p.endsWith("/generateToken") ? bad.fault : undefined));
      const outcome = await measure(
        siteExport.create(
          await exportInputs({ password: "never-Cached-Pw-1", downloadTo: downloads }),
        ),
      );
      const error = errorOf(outcome);
      expect(error.message).toMatch(/generateToken on http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin/);
      expect(error.message).toMatch(bad.says);
      expect(error.message).not.toContain("never-Cached-Pw-1");
      figures.record(`generateToken answered ${bad.name}`, {
        faultsInjected: faultsSeen(proxy) > 0 ? 1 : 0,
        faultsSurvived: 1,
        inputsTried: 1,
      });
    },
  );

  it("Site creation: a login page instead of the admin root is named in the timeout error", async () => {
    const fresh = await startTestEmulator({ tls: false });
    const front = await startFaultProxy(new URL(fresh.adminUrl).origin);
    try {
      front.setRule(() => BAD_ANSWERS[0]!.fault);
      const inputs = (
        await site.check(
          {},
          siteInputs(fresh, {
            adminUrl: proxiedAdminUrl(front, fresh),
            tls: {},
            timeouts: { serverReadyMs: 1000, createMs: 10_000 },
          }),
        )
      ).inputs!;
      const error = errorOf(await measure(site.create(inputs)));
      expect(error.message).toMatch(/was not ready within timeouts\.serverReadyMs \(1000 ms\)/);
      expect(error.message).toMatch(BAD_ANSWERS[0]!.says);
      expect(fresh.stats().createNewSiteRequests).toBe(0);
      figures.record("admin root answered a login page (Site create)", {
        faultsInjected: faultsSeen(front),
        faultsSurvived: faultsSeen(front),
        inputsTried: 1,
      });
    } finally {
      await front.close();
      await fresh.close();
    }
  });

  it("leaves the emulator's state untouched by the failed calls", () => {
    // Canned answers never reach the server: it completed exactly the exports whose success it
    // answered (the successful creates above, and the one whose answer the proxy cut off).
    const succeeded = exchanges.filter(
      (e) => e.path.endsWith("/exportSite") && e.responseBody.includes('"status":"success"'),
    ).length;
    expect(succeeded).toBeGreaterThanOrEqual(4);
    expect(emu.stats().exportsCompleted).toBe(succeeded);
    expect(emu.stats().sitesCreated).toBe(1);
    figures.record(
      "state after the bad answers: exactly the acknowledged exports, one site",
      { dataLost: Math.abs(emu.stats().exportsCompleted - succeeded) },
      { exportsCompleted: emu.stats().exportsCompleted },
    );
  });
});
