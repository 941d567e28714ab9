/**
 * ServerCertificate through the real Pulumi engine, from the packed package, against the TLS
 * emulator: the machine ends up presenting the declared certificate (to a handshake that trusts
 * only the organisation's new CA), a second `up` changes nothing and sends nothing, a renewal
 * swaps it in place, the state holds the PKCS #12 file and its password only as secrets, and
 * destroy leaves a working server (binding the previous certificate again when asked). Then, on
 * a second machine behind a fault proxy, the answers of both imports and of the bind are each lost
 * once in one `up`: each reaches the server once, the engine shows the provider's message about
 * it, and a second `up` (another spelling of adminUrl too) sends nothing. Last, on a third machine,
 * certificates that cannot work (expired, for another host, from another CA, a wrong password, a
 * key of another certificate; and another host's certificate whose webServerUrl is unknown at
 * preview) are each refused at check, naming the input, with nothing imported or bound; a bound
 * certificate that has since expired still previews and refreshes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import {
  closeDispatchers,
  createAdminSession,
  getMachine,
  presentedCertificate,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type Fault, type FaultProxy } from "../../tools/harness/fault-proxy";
import { issueServerCertificate, makeRootCa, pkcs12, type Issued } from "../../tools/harness/pki";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";

// The counts include the stack itself. A test here runs the pulumi CLI several times; on a loaded machine one run can take 30 s.
jest.setTimeout(300_000);

const MACHINE = "127.0.0.1";
const SITE_PASSWORD = "cert-Engine-Pass-41";
const PFX_PASSWORD = "pfx-Engine-Secret-41";

let emu: TestEmulator;
let stack: RealStack;
let config: Record<string, ConfigValue>;
const ca = makeRootCa();
const first = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
const firstPfx = pkcs12(first, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64");

function fingerprintOf(issued: Issued | string): string {
  const pem = typeof issued === "string" ? issued : issued.certPem;
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

/** What the machine (of `on`) presents to a handshake that trusts only `trusted`. */
function presentedTo(trusted: string, on: TestEmulator = emu) {
  return presentedCertificate({
    host: MACHINE,
    port: Number(new URL(on.adminUrl).port),
    trust: { trustOnly: trusted },
  });
}

function posts(suffix: string, on: TestEmulator): number {
  return on.requestLog().filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(suffix))
    .length;
}
/** The imports and binds the machine (of `on`) received. */
const sent = (on: TestEmulator = emu) => ({
  roots: posts("/importRootOrIntermediate", on),
  servers: posts("/importExistingServerCertificate", on),
  binds: posts(`/machines/${MACHINE}/edit`, on),
});

/** A machine as the suite's emulators are: a site can be made on it, and it restarts quickly. */
function startMachine(): Promise<TestEmulator> {
  return startTestEmulator({
    serverType: "arcgis-server",
    machineName: MACHINE,
    createDelayMs: 50,
    restartDelayMs: 300,
  });
}

/**
 * Another machine behind a plain-HTTP fault proxy (its admin calls go through the proxy, as
 * through a web adaptor in front of it; its TLS check reaches the machine itself), and a stack of
 * its own in the suite's first consumer project (no second install of the package).
 */
async function machineBehindProxy(name: string) {
  const machine = await startMachine();
  const proxy = await startFaultProxy(new URL(machine.adminUrl).origin);
  const own = await RealStack.create(name, stack.consumer);
  fs.copyFileSync(path.join(__dirname, "server-certificate-program.cjs"), own.program);
  return { machine, proxy, stack: own };
}

/** Stops what {@link machineBehindProxy} started; the consumer project is the first stack's. */
async function closeMachine(started: Awaited<ReturnType<typeof machineBehindProxy>> | undefined) {
  if (started === undefined) return;
  fs.rmSync(started.stack.tmp, { recursive: true, force: true });
  await started.proxy.close();
  await started.machine.close();
}

beforeAll(async () => {
  emu = await startMachine();
  stack = await RealStack.create("server-certificate");
  fs.copyFileSync(path.join(__dirname, "server-certificate-program.cjs"), stack.program);
  config = {
    adminUrl: { value: emu.adminUrl },
    machineName: { value: MACHINE },
    // The self-signed certificate before the bind, the organisation's CA after it.
    caCert: { value: `${emu.caCert!}\n${ca.certPem}` },
    orgRootPem: { value: ca.certPem },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    pfxBase64: { value: firstPfx, secret: true },
    pfxPassword: { value: PFX_PASSWORD, secret: true },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
  await closeDispatchers();
});

it("the machine presents the declared certificate, trusted through the new CA alone", async () => {
  const up = await stack.mustRun("up", { config });
  expect(up.changeSummary).toEqual({ create: 3 });
  expect(sent()).toEqual({ roots: 1, servers: 1, binds: 1 });
  expect((await presentedTo(ca.certPem)).sha256Fingerprint).toBe(fingerprintOf(first));
  expect(up.outputs).toMatchObject({
    sha256Fingerprint: fingerprintOf(first),
    previousAlias: "SelfSignedCertificate",
    certificateAlias: `gis-${fingerprintOf(first).slice(0, 8)}`,
  });
  // Nothing the CLI printed holds the file or its password.
  for (const secret of [PFX_PASSWORD, firstPfx.slice(0, 40)]) {
    expect(up.output + up.stderr).not.toContain(secret);
  }
});

it("the state holds the PKCS #12 file and its password only as secrets, after a refresh too", async () => {
  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.changeSummary).toEqual({ same: 3 });
  const state = (await stack.mustRun("export")).state!;
  const text = JSON.stringify(state);
  for (const secret of [PFX_PASSWORD, firstPfx.slice(0, 40), SITE_PASSWORD]) {
    expect(text).not.toContain(secret);
  }
  const resource = state.deployment.resources!.find((r) => String(r.urn).endsWith("::https")) as {
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
  };
  const SECRET_SIG = "4dabf18193072939515e22adb298388d";
  for (const key of ["pkcs12", "certPassword", "password"]) {
    expect(resource.inputs[key]).toMatchObject({ [SECRET_SIG]: expect.any(String) });
    expect(resource.outputs[key]).toMatchObject({ [SECRET_SIG]: expect.any(String) });
  }
});

it("a second up changes nothing and sends nothing", async () => {
  const before = sent();
  const again = await stack.mustRun("up", { options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 3 });
  expect(sent()).toEqual(before);
});

it("a renewal is swapped in place: imported under its own alias and bound", async () => {
  const renewed = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
  const renewedPfx = pkcs12(renewed, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64");
  const before = sent();
  const up = await stack.mustRun("up", {
    config: { pfxBase64: { value: renewedPfx, secret: true } },
  });
  expect(up.changeSummary).toEqual({ update: 1, same: 2 });
  expect(sent()).toEqual({
    roots: before.roots,
    servers: before.servers + 1,
    binds: before.binds + 1,
  });
  expect((await presentedTo(ca.certPem)).sha256Fingerprint).toBe(fingerprintOf(renewed));
  expect(up.outputs?.certificateAlias).toBe(`gis-${fingerprintOf(renewed).slice(0, 8)}`);
  expect(up.output).not.toContain(renewedPfx.slice(0, 40));
});

it("destroy with rebindPreviousOnDestroy binds the previous certificate again; the server answers", async () => {
  const up = await stack.mustRun("up", { config: { rebind: { value: "true" } } });
  expect(up.changeSummary).toEqual({ update: 1, same: 2 });
  const destroyed = await stack.mustRun("destroy");
  expect(destroyed.changeSummary).toEqual({ delete: 3 });
  // The self-signed certificate again, and the admin API answers over it.
  expect((await presentedTo(emu.caCert!)).sha256Fingerprint).toBe(fingerprintOf(emu.caCert!));
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: emu.caCert! },
  });
  expect((await getMachine(session, MACHINE)).webServerCertificateAlias).toBe(
    "selfsignedcertificate",
  );
  expect(emu.stats().sitesCreated).toBe(1);
});

describe("ServerCertificate through the real engine when the answers of the imports and the bind are lost", () => {
  // The certificate's admin calls go through a plain-HTTP fault proxy in front of the TLS
  // emulator, as tests/faults/server-certificate.test.ts does; the TLS check reaches the machine
  // itself (webServerUrl), since the proxy cannot present the machine's certificate.
  const LOST = {
    root: {
      path: "/sslcertificates/importRootOrIntermediate",
      fault: { kind: "drop-answer", replaceWith: { status: 502 } },
    },
    server: {
      path: "/sslcertificates/importExistingServerCertificate",
      fault: { kind: "drop-answer" },
    },
    bind: {
      path: `/machines/${MACHINE}/edit`,
      fault: { kind: "drop-answer", replaceWith: { status: 502 } },
    },
  } satisfies Record<string, { path: string; fault: Fault }>;
  type Call = keyof typeof LOST;
  const CALLS = Object.keys(LOST) as Call[];

  let lost: Awaited<ReturnType<typeof machineBehindProxy>> | undefined;
  let lostEmu: TestEmulator;
  let proxy: FaultProxy;
  let lostStack: RealStack;
  let lostConfig: Record<string, ConfigValue>;

  const isCall = (call: Call, method: string, url: string) =>
    method === "POST" && url.split("?")[0]!.endsWith(LOST[call].path);
  /** The POSTs of each call the emulator itself received. */
  const received = () =>
    Object.fromEntries(
      CALLS.map((call) => [
        call,
        lostEmu.requestLog().filter((r) => isCall(call, r.method, r.url)).length,
      ]),
    );
  /** What the proxy did with each call's POSTs. */
  const throughProxy = (call: Call) =>
    proxy.seen.filter((s) => isCall(call, s.method, s.path)).map((s) => s.fault);

  beforeAll(async () => {
    lost = await machineBehindProxy("server-certificate-lost");
    ({ machine: lostEmu, proxy, stack: lostStack } = lost);
    // Each call's answer is lost once; anything sent again would be forwarded and counted.
    const dropped = new Set<Call>();
    proxy.setRule(({ method, path: url }) => {
      const call = CALLS.find((c) => isCall(c, method, url));
      if (call === undefined || dropped.has(call)) return undefined;
      dropped.add(call);
      return LOST[call].fault;
    });
    lostConfig = {
      ...config,
      adminUrl: { value: lostEmu.adminUrl },
      certificateAdminUrl: { value: proxy.url + new URL(lostEmu.adminUrl).pathname },
      webServerUrl: { value: new URL(lostEmu.adminUrl).origin },
      caCert: { value: `${lostEmu.caCert!}\n${ca.certPem}` },
    };
  }, 240_000);

  afterAll(() => closeMachine(lost));

  it("up sends each import and the bind once, says each answer was lost, and the machine presents the certificate", async () => {
    const up = await lostStack.mustRun("up", { config: lostConfig });
    expect(up.changeSummary).toEqual({ create: 3 });
    // Each answer really was lost, and nothing was sent a second time.
    for (const call of CALLS) expect(throughProxy(call)).toEqual(["drop-answer"]);
    expect(received()).toEqual({ root: 1, server: 1, bind: 1 });
    expect((await presentedTo(ca.certPem, lostEmu)).sha256Fingerprint).toBe(fingerprintOf(first));
    const alias = `gis-${fingerprintOf(first).slice(0, 8)}`;
    expect(up.outputs?.certificateAlias).toBe(alias);
    // The dynamic-provider host gives a step no URN: the engine files these under the stack.
    const warnings = (up.diagnostics ?? [])
      .filter((d) => d.severity === "warning")
      .map((d) => d.message);
    for (const lost of [
      /^The answer to the import of orgroot on .* was lost .*The import is not sent again\.$/,
      new RegExp(
        `^The answer to the import of ${alias} on .* was lost .*The import is not sent again\\.$`,
      ),
      new RegExp(
        `^The answer to the edit binding ${alias} on .* was lost .*The edit is not sent again\\.$`,
      ),
    ]) {
      expect(warnings.filter((w) => lost.test(w))).toHaveLength(1);
    }
    expect(up.output + up.stderr).not.toContain(PFX_PASSWORD);
  });

  it("a second up changes nothing and sends nothing", async () => {
    const seen = proxy.seen.length;
    const again = await lostStack.mustRun("up", {
      config: lostConfig,
      options: { expectNoChanges: true },
    });
    expect(again.changeSummary).toEqual({ same: 3 });
    expect(received()).toEqual({ root: 1, server: 1, bind: 1 });
    expect(proxy.seen.slice(seen).filter((s) => s.method === "POST")).toEqual([]);
  });

  it("another spelling of adminUrl is an update of state, not a replacement, and sends nothing", async () => {
    const respelled = `${proxy.url.replace("127.0.0.1", "LOCALHOST")}${new URL(lostEmu.adminUrl).pathname}/`;
    const up = await lostStack.mustRun("up", {
      config: { ...lostConfig, certificateAdminUrl: { value: respelled } },
      options: { diff: true },
    });
    expect(up.changeSummary).toEqual({ update: 1, same: 2 });
    expect(up.output).not.toMatch(/replace/i);
    expect(received()).toEqual({ root: 1, server: 1, bind: 1 });
    expect(lostEmu.stats().sitesCreated).toBe(1);
  });
});

describe("ServerCertificate through the real engine: a certificate is proven before anything is sent", () => {
  // The site's and the certificates' admin calls go through a plain-HTTP proxy in front of the
  // TLS emulator, as an administrative URL in front of the machine does (a web adaptor); the TLS
  // check reaches the machine itself (webServerUrl). So the admin calls still work once the
  // certificate the machine presents has expired, and refresh has something to read.
  const DAY = 24 * 3600 * 1000;
  /**
   * How long the certificate bound here stays valid: long enough for a preview and an up on a
   * loaded machine (the ups of the refused certificates after them need it no longer: an
   * unchanged certificate is not proven again), after which the test waits for it to expire.
   */
  const BOUND_VALID_MS = 75_000;
  const otherRoot = makeRootCa("Another Organisation Root CA");
  const issue = (names: string[], validity = {}, issuer: Issued = ca) =>
    issueServerCertificate(issuer, names, names[0] ?? "server", validity);
  const fileOf = (issued: Issued, password = PFX_PASSWORD) => ({
    pkcs12: pkcs12(issued, password, { chain: [] }).toString("base64"),
    certPassword: password,
  });
  /** Each refused certificate: its file, and what its refusal must say (input first). */
  const valid = issue([MACHINE]);
  const REFUSED = {
    "refused-expired": {
      file: fileOf(
        issue([MACHINE], {
          notBefore: new Date(Date.now() - 30 * DAY),
          notAfter: new Date(Date.now() - DAY),
        }),
      ),
      says: /pkcs12: the certificate \(CN=127\.0\.0\.1, SHA-256 [0-9A-F:]+\) expired on \d{4}-\d\d-\d\dT[\d:]+Z: give a renewed certificate\./,
    },
    "refused-host": {
      file: fileOf(issue(["gis.example.com"])),
      says: /webServerUrl: the certificate of pkcs12 names gis\.example\.com, not the IP address 127\.0\.0\.1/,
    },
    "refused-ca": {
      file: fileOf(issue([MACHINE], {}, otherRoot)),
      says: /caCertificates: the certificate of pkcs12 \(.*issued by CN=Another Organisation Root CA\) does not chain to any of caCertificates \(orgroot\)/,
    },
    "refused-password": {
      file: { ...fileOf(valid), certPassword: "pfx-Not-The-Password-9" },
      says: /certPassword: does not open the PKCS #12 file of pkcs12/,
    },
    "refused-key": {
      file: fileOf({ certPem: valid.certPem, keyPem: issue([MACHINE]).keyPem }),
      says: /pkcs12: the private key does not match the certificate \(CN=127\.0\.0\.1/,
    },
  } as const;
  const LATE_SAYS =
    /webServerUrl: the certificate of pkcs12 names gis\.example\.com, not the IP address 127\.0\.0\.1/;

  let proof: Awaited<ReturnType<typeof machineBehindProxy>> | undefined;
  let proofEmu: TestEmulator;
  let front: FaultProxy;
  let proofStack: RealStack;
  let proofConfig: Record<string, ConfigValue>;
  let bound: Issued;

  const sentToKeystoreOrMachine = () => sent(proofEmu);
  /** The errors the engine showed under the resource `name`. */
  const errorsOf = (diagnostics: RunResult["diagnostics"], name: string) =>
    (diagnostics ?? [])
      .filter((d) => d.severity === "error" && d.urn.endsWith(`::${name}`))
      .map((d) => d.message);

  beforeAll(async () => {
    proof = await machineBehindProxy("server-certificate-proof");
    ({ machine: proofEmu, proxy: front, stack: proofStack } = proof);
  }, 240_000);

  afterAll(() => closeMachine(proof));

  it("a webServerUrl from other resources' outputs is not refused while unknown at preview, and is refused at up before its import", async () => {
    // Issued now: valid through this preview and the next up, expired a little later.
    bound = issue([MACHINE], { notAfter: new Date(Date.now() + BOUND_VALID_MS) });
    proofConfig = {
      adminUrl: { value: front.url + new URL(proofEmu.adminUrl).pathname },
      webServerUrl: { value: new URL(proofEmu.adminUrl).origin },
      machineName: { value: MACHINE },
      caCert: { value: proofEmu.caCert! },
      orgRootPem: { value: ca.certPem },
      sitePassword: { value: SITE_PASSWORD, secret: true },
      certs: {
        value: JSON.stringify({
          bound: fileOf(bound),
          late: fileOf(issue(["gis.example.com"])),
          ...Object.fromEntries(Object.entries(REFUSED).map(([name, r]) => [name, r.file])),
        }),
        secret: true,
      },
      // `late` takes its webServerUrl from the outputs of the site and of `bound`: checked only
      // once both exist.
      declared: {
        value: JSON.stringify([{ name: "bound" }, { name: "late", webServerUrlAfter: true }]),
      },
    };
    const preview = await proofStack.mustRun("preview", { config: proofConfig });
    expect(preview.changeSummary).toEqual({ create: 4 });
    expect(sentToKeystoreOrMachine()).toEqual({ roots: 0, servers: 0, binds: 0 });
    const up = await proofStack.run("up", { config: proofConfig });
    expect(up.ok).toBe(false);
    expect(errorsOf(up.diagnostics, "late")).toEqual([expect.stringMatching(LATE_SAYS)]);
    // Only `bound` was imported (with its CA) and bound; nothing of `late`.
    expect(sentToKeystoreOrMachine()).toEqual({ roots: 1, servers: 1, binds: 1 });
    expect((await presentedTo(ca.certPem, proofEmu)).sha256Fingerprint).toBe(fingerprintOf(bound));
  });

  // The engine stops an up at the first refusal of check, so each certificate has an up of its own.
  it.each(Object.keys(REFUSED) as Array<keyof typeof REFUSED>)(
    "up of %s stops at check, naming the input, and imports and binds nothing",
    async (name) => {
      const before = sentToKeystoreOrMachine();
      const up = await proofStack.run("up", {
        config: {
          ...proofConfig,
          declared: { value: JSON.stringify([{ name: "bound" }, { name }]) },
        },
      });
      expect(up.ok).toBe(false);
      const errors = errorsOf(up.diagnostics, name);
      expect(errors).toEqual([expect.stringMatching(REFUSED[name].says)]);
      expect(errors[0]).toMatch(/has a problem: /);
      expect(sentToKeystoreOrMachine()).toEqual(before);
      for (const secret of [PFX_PASSWORD, "pfx-Not-The-Password-9"]) {
        expect(up.output + up.stderr).not.toContain(secret);
      }
    },
  );

  it("once the bound certificate has expired, the stack still previews and refreshes, and refresh says it expired", async () => {
    const config = { ...proofConfig, declared: { value: JSON.stringify([{ name: "bound" }]) } };
    const expiry = new X509Certificate(bound.certPem).validToDate.getTime();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiry - Date.now() + 1_000)));
    // The machine presents a certificate no client accepts now.
    await expect(presentedTo(ca.certPem, proofEmu)).rejects.toThrow(/has expired/);
    const before = sentToKeystoreOrMachine();
    const preview = await proofStack.mustRun("preview", {
      config,
      options: { expectNoChanges: true },
    });
    expect(preview.changeSummary).toEqual({ same: 3 });
    const refreshed = await proofStack.mustRun("refresh", { config });
    expect(refreshed.changeSummary).toEqual({ same: 3 });
    const warnings = (refreshed.diagnostics ?? [])
      .filter((d) => d.severity === "warning")
      .map((d) => d.message);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^The certificate bound-[0-9a-f]{8} that machine '127\.0\.0\.1' of .* presents expired on \d{4}-.*: clients refuse it\. Give pkcs12 a renewed certificate/,
      ),
    );
    expect(sentToKeystoreOrMachine()).toEqual(before);
  }, 600_000);
});
