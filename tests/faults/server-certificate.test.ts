/**
 * ServerCertificate under lost answers: the TLS emulator sits behind the fault proxy, which
 * forwards an import (of the CA's root, of the server certificate) or the bind
 * (`machines/<m>/edit`) and then replaces the answer by a load balancer's 502 or cuts the
 * connection after the server has acted, or answers 502 without forwarding at all. None of them is
 * ever sent a second time: the keystore or the machine is read instead. The machine's web server
 * is checked directly (webServerUrl), as the provider host's lifecycle does it.
 */
import { X509Certificate } from "node:crypto";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  getMachine,
  listSslCertificates,
  presentedCertificate,
} from "../../provider/client";
import { isPartialCreate } from "../../provider/resources/common/pulumi/partial-create";
import type { ServerCertificateOutputs } from "../../provider/resources/server-certificate/generated";
import {
  implementation as serverCertificate,
  keystoreAlias,
} from "../../provider/resources/server-certificate/lifecycle";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  startFaultProxy,
  type Fault,
  type FaultProxy,
  faultsSeen,
  proxiedAdminUrl,
} from "../../tools/harness/fault-proxy";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";

const figures = new SuiteFigures("faults-server-certificate");
afterAll(() => figures.write());
afterAll(() => closeDispatchers());

const ADMIN = { username: "siteadmin", password: "cert-Fault-Pass-1" };
const PFX_PASSWORD = "pfx-Fault-Secret-41";
const MACHINE = "127.0.0.1";

const ca = makeRootCa();
const server = issueServerCertificate(ca, ["127.0.0.1"]);
const fingerprint = new X509Certificate(server.certPem).fingerprint256
  .replaceAll(":", "")
  .toLowerCase();
const ALIAS = keystoreAlias("gis", fingerprint);

/** The three one-shot calls, by the end of their path. */
const CALLS = {
  root: "/sslcertificates/importRootOrIntermediate",
  server: "/sslcertificates/importExistingServerCertificate",
  bind: `/machines/${MACHINE}/edit`,
} as const;
type Call = keyof typeof CALLS;

let emu: TestEmulator;
let proxy: FaultProxy;

afterEach(async () => {
  await proxy?.close();
  await emu?.close();
});

/** Requests the emulator itself received for `call`. */
function received(call: Call): number {
  return emu
    .requestLog()
    .filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(CALLS[call])).length;
}

function sentThroughProxy(call: Call) {
  return proxy.seen.filter((s) => s.path.split("?")[0]!.endsWith(CALLS[call]));
}

function directSession() {
  return createAdminSession({
    adminUrl: emu.adminUrl,
    ...ADMIN,
    tls: { caCert: `${emu.caCert!}\n${ca.certPem}` },
  });
}

async function start(call: Call, fault: Fault) {
  emu = await startTestEmulator({
    serverType: "arcgis-server",
    machineName: MACHINE,
    createDelayMs: 0,
    restartDelayMs: 200,
  });
  await createNewSite(
    emu.adminUrl,
    { serverType: "arcgis-server", ...ADMIN },
    { tls: { caCert: emu.caCert! } },
  );
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  proxy.setRule(({ method, path }) =>
    method === "POST" && path.split("?")[0]!.endsWith(CALLS[call]) ? fault : undefined,
  );
  const checked = await serverCertificate.check(
    {},
    {
      serverType: "arcgis-server",
      adminUrl: proxiedAdminUrl(proxy, emu),
      webServerUrl: new URL(emu.adminUrl).origin,
      ...ADMIN,
      machineName: MACHINE,
      caCertificates: [{ alias: "orgroot", pem: ca.certPem }],
      pkcs12: pkcs12(server, PFX_PASSWORD).toString("base64"),
      certPassword: PFX_PASSWORD,
      alias: "gis",
      timeouts: { importMs: 2_000, bindMs: 4_000 },
    },
  );
  expect(checked.failures ?? []).toEqual([]);
  return checked.inputs!;
}

/** The machine is bound to the certificate and presents it to a handshake trusting only the CA. */
async function expectServing(): Promise<void> {
  expect((await getMachine(directSession(), MACHINE)).webServerCertificateAlias).toBe(ALIAS);
  const seen = await presentedCertificate({
    host: MACHINE,
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: ca.certPem },
  });
  expect(seen.sha256Fingerprint).toBe(fingerprint);
}

const lost: Array<{ name: string; fault: Fault }> = [
  {
    name: "a load balancer's 502 after the server acted",
    fault: { kind: "drop-answer", replaceWith: { status: 502 } },
  },
  { name: "the connection cut after the server acted", fault: { kind: "drop-answer" } },
];

describe.each(Object.keys(CALLS) as Call[])("ServerCertificate: a lost answer of %s", (call) => {
  it.each(lost)(
    "ends serving the certificate, the call sent once ($name)",
    async ({ name, fault }) => {
      const inputs = await start(call, fault);
      const outcome = await measure(serverCertificate.create(inputs));
      const { outs } = valueOf(outcome);
      expect(outs as ServerCertificateOutputs).toMatchObject({
        certificateAlias: ALIAS,
        boundAlias: ALIAS,
        importedAliases: ["orgroot", ALIAS],
      });
      // The answer really was lost, and nothing was sent twice.
      expect(sentThroughProxy(call)).toEqual([
        expect.objectContaining({ method: "POST", fault: "drop-answer" }),
      ]);
      for (const each of Object.keys(CALLS) as Call[]) expect(received(each)).toBe(1);
      await expectServing();
      figures.record(
        `lost ${call} answer: ${name}`,
        { faultsInjected: faultsSeen(proxy), faultsSurvived: faultsSeen(proxy), dataLost: 0 },
        { tookMs: outcome.ms, requests: received(call) },
      );
    },
  );

  it("a call that never arrived: read until the limit, never sent again, what was done kept", async () => {
    // The gateway answers 502 without forwarding: the server never sees the request.
    const inputs = await start(call, { kind: "status", status: 502 });
    const outcome = await measure(serverCertificate.create(inputs));
    const error = errorOf(outcome);
    expect(error.message).toMatch(/was lost .* not sent again/);
    expect(error.message).not.toContain(PFX_PASSWORD);
    expect(sentThroughProxy(call)).toHaveLength(1);
    expect(received(call)).toBe(0);
    // What was imported before the lost call stays recorded (Pulumi's partial state).
    expect(isPartialCreate(error)).toBe(call !== "root");
    const aliases = await listSslCertificates(directSession(), MACHINE);
    expect(aliases.includes("orgroot")).toBe(call !== "root");
    // The next run sends the missing call once, and nothing already done again.
    proxy.setRule(() => undefined);
    const next = isPartialCreate(error)
      ? serverCertificate.update(error.id, error.properties, inputs)
      : serverCertificate.create(inputs);
    await next;
    for (const each of Object.keys(CALLS) as Call[]) expect(received(each)).toBe(1);
    await expectServing();
    figures.record(
      `${call} never arrived (502 without forwarding), then the next run`,
      { faultsInjected: faultsSeen(proxy), faultsSurvived: faultsSeen(proxy), dataLost: 0 },
      { tookMs: outcome.ms, requests: received(call) },
    );
  });
});
