/**
 * ServerCertificate's rules and its implementation called directly against a real TLS emulator:
 * what check() refuses, create importing the CA and the server certificate once and binding it
 * (the machine then presents it to a handshake that trusts only the new CA), an alias holding
 * another certificate never overwritten, a second run sending nothing, a renewal in place under a
 * new alias, drift bound back, a failed bind kept as partial state, and destroy leaving the
 * server as it is or binding the previous certificate again.
 */
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  editMachine,
  getMachine,
  importExistingServerCertificate,
  importRootOrIntermediate,
  joinSite,
  presentedCertificate,
  type ServerType,
} from "../../provider/client";
import { isPartialCreate } from "../../provider/resources/common/pulumi/partial-create";
import type { ServerCertificateOutputs } from "../../provider/resources/server-certificate/generated";
import {
  implementation as serverCertificate,
  keystoreAlias,
} from "../../provider/resources/server-certificate/lifecycle";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { issueServerCertificate, makeRootCa, pkcs12, type Issued } from "../../tools/harness/pki";
import { X509Certificate } from "node:crypto";
import { closedPort } from "../../tools/harness/servers";

const ADMIN = { username: "siteadmin", password: "cert-Admin-Pass-1" };
const PFX_PASSWORD = "pfx-Secret-41-resource";
const MACHINE = "127.0.0.1";

afterAll(() => closeDispatchers());

function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

/** The requests the emulator received whose path ends with `suffix`. */
function posts(emu: TestEmulator, suffix: string): number {
  return emu
    .requestLog()
    .filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(suffix)).length;
}

const imports = (emu: TestEmulator) =>
  posts(emu, "/importRootOrIntermediate") + posts(emu, "/importExistingServerCertificate");
const edits = (emu: TestEmulator) => posts(emu, "/edit");

async function siteOn(serverType: ServerType = "arcgis-server"): Promise<TestEmulator> {
  const emu = await startTestEmulator({
    serverType,
    machineName: MACHINE,
    createDelayMs: 0,
    restartDelayMs: 200,
  });
  await createNewSite(emu.adminUrl, { serverType, ...ADMIN }, { tls: { caCert: emu.caCert! } });
  return emu;
}

function inputsFor(
  emu: TestEmulator,
  ca: Issued,
  server: Issued,
  extra: Record<string, unknown> = {},
) {
  return {
    serverType: emu.serverType,
    adminUrl: emu.adminUrl,
    ...ADMIN,
    tls: { caCert: emu.caCert! },
    machineName: MACHINE,
    caCertificates: [{ alias: "OrgRoot", pem: ca.certPem }],
    pkcs12: pkcs12(server, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64"),
    certPassword: PFX_PASSWORD,
    alias: "gis",
    timeouts: { importMs: 2_000, bindMs: 5_000 },
    ...extra,
  };
}

async function checked(raw: Record<string, unknown>) {
  const result = await serverCertificate.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

/** What the machine presents, to a handshake that trusts only `ca`. */
function presentedTo(emu: TestEmulator, ca: string) {
  return presentedCertificate({
    host: "127.0.0.1",
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: ca },
  });
}

/** Waits until `look` answers true (at most 10 s). */
async function eventually(look: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await look()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function sessionOf(emu: TestEmulator, ca: Issued) {
  return createAdminSession({
    adminUrl: emu.adminUrl,
    ...ADMIN,
    tls: { caCert: `${emu.caCert!}\n${ca.certPem}` },
  });
}

describe("ServerCertificate check()", () => {
  const ca = makeRootCa();
  const server = issueServerCertificate(ca, ["gis.example.com"]);
  const base = {
    adminUrl: "https://gis.example.com:6443/arcgis/admin",
    ...ADMIN,
    machineName: "GIS1",
    pkcs12: pkcs12(server, PFX_PASSWORD).toString("base64"),
    certPassword: PFX_PASSWORD,
    alias: "gis",
  };

  it("accepts the minimal inputs and fills the defaults", async () => {
    const inputs = await checked(base);
    expect(inputs).toMatchObject({
      caCertificates: [],
      rebindPreviousOnDestroy: false,
      timeouts: { importMs: 120_000, bindMs: 600_000 },
    });
  });

  it("needs webServerUrl when adminUrl is http, refuses a CA alias twice and a bad alias", async () => {
    const result = await serverCertificate.check(
      {},
      {
        ...base,
        adminUrl: "http://gis.example.com:6080/arcgis/admin",
        caCertificates: [
          { alias: "Root", pem: ca.certPem },
          { alias: "root", pem: ca.certPem },
        ],
        alias: "gis cert",
      },
    );
    const properties = (result.failures ?? []).map((f) => f.property).sort();
    expect(properties).toEqual(["alias", "caCertificates", "webServerUrl"]);
  });

  it("names a PKCS #12 that is not base64, without showing it", async () => {
    const result = await serverCertificate.check({}, { ...base, pkcs12: "not*base64!" });
    expect(result.failures).toEqual([
      { property: "pkcs12", reason: expect.stringContaining("base64") },
    ]);
    expect(JSON.stringify(result.failures)).not.toContain("not*base64!");
  });
});

describe.each(["arcgis-server", "mission-server", "notebook-server", "video-server"] as const)(
  "ServerCertificate on %s",
  (serverType) => {
    let emu: TestEmulator;
    const ca = makeRootCa();
    const server = issueServerCertificate(ca, ["127.0.0.1", "localhost"], "gis.example.com");
    let outs: ServerCertificateOutputs;
    let raw: Record<string, unknown>;

    beforeAll(async () => {
      emu = await siteOn(serverType);
    });
    afterAll(async () => {
      await emu.close();
    });

    it("imports the CA and the server certificate once, binds it, and the machine presents it", async () => {
      raw = await checked(inputsFor(emu, ca, server));
      const created = await serverCertificate.create(raw);
      outs = created.outs as ServerCertificateOutputs;
      const alias = keystoreAlias("gis", fingerprintOf(server.certPem));
      expect(outs).toMatchObject({
        certificateAlias: alias,
        boundAlias: alias,
        previousAlias: "SelfSignedCertificate",
        importedAliases: ["orgroot", alias],
        sha256Fingerprint: fingerprintOf(server.certPem),
      });
      expect(created.id).toBe(`${emu.adminUrl}/machines/${MACHINE}/webServerCertificate`);
      expect(imports(emu)).toBe(2);
      expect(edits(emu)).toBe(1);
      // A handshake that trusts only the organisation's CA succeeds and sees that certificate.
      const seen = await presentedTo(emu, ca.certPem);
      expect(seen.sha256Fingerprint).toBe(fingerprintOf(server.certPem));
      // The self-signed certificate is no longer what the machine presents.
      await expect(presentedTo(emu, emu.caCert!)).rejects.toMatchObject({ code: "TLS" });
    });

    it("a second run with the same inputs changes nothing and sends nothing", async () => {
      expect((await serverCertificate.diff("id", outs, raw)).changes).toBe(false);
      // Even an update (as after a state-only change) reads and finds everything done.
      const before = { imports: imports(emu), edits: edits(emu) };
      const { outs: again } = await serverCertificate.update("id", outs, {
        ...raw,
        timeouts: { importMs: 3_000, bindMs: 5_000 },
      });
      expect(again).toMatchObject({ certificateAlias: outs.certificateAlias });
      expect({ imports: imports(emu), edits: edits(emu) }).toEqual(before);
    });

    it("diff: another machine replaces, a new certificate is in place, another URL spelling is not", async () => {
      expect(await serverCertificate.diff("id", outs, { ...raw, machineName: "other" })).toEqual({
        changes: true,
        replaces: ["machineName"],
      });
      const spelled = emu.adminUrl.replace("127.0.0.1", "LOCALHOST").replace(/\/?$/, "/");
      const respelled = await serverCertificate.diff("id", outs, { ...raw, adminUrl: spelled });
      expect(respelled.replaces ?? []).toEqual([]);
      const renewed = issueServerCertificate(ca, ["127.0.0.1"]);
      const diff = await serverCertificate.diff("id", outs, {
        ...raw,
        pkcs12: pkcs12(renewed, PFX_PASSWORD).toString("base64"),
      });
      expect(diff).toEqual({ changes: true });
    });

    it("a renewal is imported under its own alias and bound in place", async () => {
      const renewed = issueServerCertificate(ca, ["127.0.0.1", "localhost"], "gis.example.com");
      const news = await checked(
        inputsFor(emu, ca, renewed, { pkcs12: pkcs12(renewed, PFX_PASSWORD).toString("base64") }),
      );
      const before = { imports: imports(emu), edits: edits(emu) };
      const { outs: renewedOuts } = await serverCertificate.update("id", outs, news);
      const alias = keystoreAlias("gis", fingerprintOf(renewed.certPem));
      expect(alias).not.toBe(outs.certificateAlias);
      expect(renewedOuts).toMatchObject({
        certificateAlias: alias,
        boundAlias: alias,
        previousAlias: "SelfSignedCertificate",
        importedAliases: ["orgroot", outs.certificateAlias, alias],
      });
      // Only the new server certificate: the CA is there already.
      expect({ imports: imports(emu), edits: edits(emu) }).toEqual({
        imports: before.imports + 1,
        edits: before.edits + 1,
      });
      expect((await presentedTo(emu, ca.certPem)).sha256Fingerprint).toBe(
        fingerprintOf(renewed.certPem),
      );
      outs = renewedOuts as ServerCertificateOutputs;
      raw = news;
    });

    it("refresh records another bound certificate; the next update binds it back", async () => {
      const session = sessionOf(emu, ca);
      await editMachine(session, await getMachine(session, MACHINE), {
        webServerCertificateAlias: "selfsignedcertificate",
      });
      // Its restart done: the emulator presents, after its delay, the alias each edit named.
      await eventually(() =>
        presentedTo(emu, emu.caCert!).then(
          () => true,
          () => false,
        ),
      );
      const refreshed = await serverCertificate.read("id", outs);
      const props = refreshed.props as ServerCertificateOutputs;
      expect(props.boundAlias).toBe("selfsignedcertificate");
      expect((await serverCertificate.diff("id", props, raw)).changes).toBe(true);
      const { outs: fixed } = await serverCertificate.update("id", props, raw);
      expect(fixed).toMatchObject({ boundAlias: outs.certificateAlias });
      expect((await presentedTo(emu, ca.certPem)).sha256Fingerprint).toBe(outs.sha256Fingerprint);
    });

    it("destroy leaves the server as it is by default", async () => {
      const before = edits(emu);
      await serverCertificate.delete("id", outs);
      expect(edits(emu)).toBe(before);
      expect((await presentedTo(emu, ca.certPem)).sha256Fingerprint).toBe(outs.sha256Fingerprint);
    });

    it("with rebindPreviousOnDestroy, destroy binds the previous certificate again", async () => {
      await serverCertificate.delete("id", { ...outs, rebindPreviousOnDestroy: true });
      const machine = await getMachine(sessionOf(emu, ca), MACHINE);
      expect(machine.webServerCertificateAlias?.toLowerCase()).toBe("selfsignedcertificate");
      expect((await presentedTo(emu, emu.caCert!)).sha256Fingerprint).toBe(
        fingerprintOf(emu.caCert!),
      );
    });
  },
);

describe("ServerCertificate guards", () => {
  let emu: TestEmulator;
  const ca = makeRootCa();
  const server = issueServerCertificate(ca, ["127.0.0.1"]);

  beforeEach(async () => {
    emu = await siteOn();
  });
  afterEach(async () => {
    await emu.close();
  });

  it("never overwrites another certificate under a CA alias, and sends nothing", async () => {
    const other = makeRootCa("Another Root CA");
    await importRootOrIntermediate(sessionOf(emu, ca), {
      machineName: MACHINE,
      alias: "orgroot",
      certificate: other.certPem,
    });
    const before = imports(emu);
    const error = await serverCertificate.create(await checked(inputsFor(emu, ca, server))).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/holds another certificate under the alias orgroot/);
    expect(isPartialCreate(error)).toBe(false);
    expect(imports(emu)).toBe(before);
    expect(edits(emu)).toBe(0);
  });

  it("an operator's certificate bound since, then a refresh: destroy with rebindPreviousOnDestroy leaves it bound", async () => {
    const raw = await checked(inputsFor(emu, ca, server, { rebindPreviousOnDestroy: true }));
    const { outs } = await serverCertificate.create(raw);
    // An operator imports and binds a certificate of their own.
    const session = sessionOf(emu, ca);
    const theirs = issueServerCertificate(ca, ["127.0.0.1"]);
    await importExistingServerCertificate(session, {
      machineName: MACHINE,
      alias: "operator",
      pkcs12: pkcs12(theirs, PFX_PASSWORD),
      certPassword: PFX_PASSWORD,
    });
    await editMachine(session, await getMachine(session, MACHINE), {
      webServerCertificateAlias: "operator",
    });
    const refreshed = await serverCertificate.read("id", outs as ServerCertificateOutputs);
    const props = refreshed.props as ServerCertificateOutputs;
    // The refresh records what the machine is bound to, never as the certificate the stack bound.
    expect(props).toMatchObject({
      boundAlias: "operator",
      certificateAlias: outs.certificateAlias,
    });
    const before = edits(emu);
    await serverCertificate.delete("id", props);
    expect(edits(emu)).toBe(before);
    expect((await getMachine(session, MACHINE)).webServerCertificateAlias).toBe("operator");
  });

  it("adopts the same CA certificate under its alias instead of importing it", async () => {
    await importRootOrIntermediate(sessionOf(emu, ca), {
      machineName: MACHINE,
      alias: "orgroot",
      certificate: ca.certPem,
    });
    const { outs } = await serverCertificate.create(await checked(inputsFor(emu, ca, server)));
    expect((outs as ServerCertificateOutputs).importedAliases).toEqual([
      keystoreAlias("gis", fingerprintOf(server.certPem)),
    ]);
    expect(posts(emu, "/importRootOrIntermediate")).toBe(1);
  });

  it("a create after a killed run adopts what it finds and sends nothing twice; destroy then binds nothing back", async () => {
    const raw = await checked(inputsFor(emu, ca, server, { rebindPreviousOnDestroy: true }));
    await serverCertificate.create(raw);
    const before = { imports: imports(emu), edits: edits(emu) };
    // The killed run's create is lost from state: the next run creates again.
    const { outs } = await serverCertificate.create(raw);
    const alias = keystoreAlias("gis", fingerprintOf(server.certPem));
    expect(outs).toMatchObject({ importedAliases: [], previousAlias: alias, boundAlias: alias });
    expect({ imports: imports(emu), edits: edits(emu) }).toEqual(before);
    await serverCertificate.delete("id", outs as ServerCertificateOutputs);
    expect(edits(emu)).toBe(before.edits);
    expect((await presentedTo(emu, ca.certPem)).sha256Fingerprint).toBe(
      fingerprintOf(server.certPem),
    );
  });

  it("refuses a certPassword that does not open the file, naming it, never showing it", async () => {
    // check() refuses it too (server-certificate-proof.test.ts); create refuses it on its own.
    const error = await serverCertificate
      .create(inputsFor(emu, ca, server, { certPassword: "wrong-Secret-99" }))
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(/^certPassword: does not open/);
    expect(error?.message).not.toContain("wrong-Secret-99");
    expect(error?.message).not.toContain(PFX_PASSWORD);
    expect(imports(emu) + edits(emu)).toBe(0);
  });

  it("a bind whose check fails keeps what it did as Pulumi's partial state", async () => {
    // Nothing listens where the machine's web server is said to be: the check never succeeds.
    const webServerUrl = `https://127.0.0.1:${await closedPort()}`;
    const raw = await checked(
      inputsFor(emu, ca, server, { webServerUrl, timeouts: { importMs: 1_000, bindMs: 1_000 } }),
    );
    const error = await serverCertificate.create(raw).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPartialCreate(error)).toBe(true);
    const alias = keystoreAlias("gis", fingerprintOf(server.certPem));
    const partial = error as { id: string; properties: Record<string, unknown>; message: string };
    expect(partial.properties).toMatchObject({
      certificateAlias: alias,
      boundAlias: alias,
      previousAlias: "SelfSignedCertificate",
      importedAliases: ["orgroot", alias],
    });
    expect(partial.message).toMatch(/did not present .* run `pulumi up` again to finish/);
    expect(partial.message).not.toContain(PFX_PASSWORD);
    // The next run's update finishes without importing or binding again.
    const before = { imports: imports(emu), edits: edits(emu) };
    const { outs } = await serverCertificate.update(partial.id, partial.properties, {
      ...raw,
      webServerUrl: undefined,
    });
    expect(outs).toMatchObject({ boundAlias: alias });
    expect({ imports: imports(emu), edits: edits(emu) }).toEqual(before);
  });
});

describe("ServerCertificate per machine of a site", () => {
  let a: TestEmulator;
  let b: TestEmulator;
  const ca = makeRootCa();
  const server = issueServerCertificate(ca, ["127.0.0.1"]);

  beforeAll(async () => {
    const options = { serverType: "arcgis-server" as const, createDelayMs: 0, restartDelayMs: 200 };
    a = await startTestEmulator({ ...options, machineName: "cert-machine-a" });
    b = await startTestEmulator({ ...options, machineName: "cert-machine-b", joinDelayMs: 0 });
    await createNewSite(
      a.adminUrl,
      { serverType: "arcgis-server", ...ADMIN },
      { tls: { caCert: a.caCert! } },
    );
    await joinSite(
      b.adminUrl,
      { serverType: "arcgis-server", siteAdminUrl: a.adminUrl, ...ADMIN },
      // Each emulator's self-signed certificate has the same subject: trust one at a time.
      { tls: { caCert: b.caCert! } },
    );
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("binds the second machine's certificate through the site's adminUrl; the first keeps its own", async () => {
    const raw = await checked({
      ...inputsFor(a, ca, server),
      machineName: "cert-machine-b",
      webServerUrl: new URL(b.adminUrl).origin,
    });
    const { outs } = await serverCertificate.create(raw);
    expect(outs).toMatchObject({ boundAlias: keystoreAlias("gis", fingerprintOf(server.certPem)) });
    // The second machine presents it; the first one, its own self-signed certificate still.
    expect((await presentedTo(b, ca.certPem)).sha256Fingerprint).toBe(
      fingerprintOf(server.certPem),
    );
    expect((await presentedTo(a, a.caCert!)).sha256Fingerprint).toBe(fingerprintOf(a.caCert!));
  });
});

describe("ServerCertificate with its CA named by stack config (tls.caCertConfig)", () => {
  let emu: TestEmulator;
  const ca = makeRootCa();
  const server = issueServerCertificate(ca, ["127.0.0.1", "localhost"], "gis.example.com");
  beforeAll(async () => {
    emu = await siteOn();
    const config = new Map([["proj:serverCa", emu.caCert!]]);
    serverCertificate.configure({
      get: (key) => config.get(key),
      require: (key) => config.get(key) ?? "",
    });
  });
  afterAll(() => emu.close());

  it("trusts the certificate the key names and caCertificates: binds, then reads the bound certificate back", async () => {
    const raw = await checked(
      inputsFor(emu, ca, server, { tls: { caCertConfig: "proj:serverCa" } }),
    );
    expect(raw["tls"]).toEqual({
      caCertConfig: "proj:serverCa",
      caCertSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { id, outs } = await serverCertificate.create(raw);
    const bound = keystoreAlias("gis", fingerprintOf(server.certPem));
    expect(outs).toMatchObject({ boundAlias: bound });
    const read = await serverCertificate.read(id, outs);
    expect(read.props).toMatchObject({ boundAlias: bound });
  });
});
