/**
 * ArcGIS Server's machine settings and clusters across the machines of one site (emulated in this
 * process): an edit made on one machine shows on the other's read, DSC's form of the edit (every
 * field of the read sent back) is taken, bad values are refused naming the field, and the
 * refusals of `clusters/<c>/machines/add` and `services/federate`, a machine stopped and started
 * (its status seen from the other machine, and out of and back into its cluster), and each
 * machine's keystore reached through the other (docs/emulator.md).
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { makeRootCa } from "../../tools/harness/pki";

const ADMIN = { username: "siteadmin", password: "settings-Pass-1" };

async function post(emu: TestEmulator, op: string, form: Record<string, string> = {}) {
  const res = await fetch(`${emu.adminUrl}/${op}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...form, f: "json" }).toString(),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function token(emu: TestEmulator): Promise<string> {
  const answer = await post(emu, "generateToken", { ...ADMIN, client: "requestip" });
  return answer.token as string;
}

describe("machine settings and clusters of an ArcGIS Server site", () => {
  const started: TestEmulator[] = [];
  let a: TestEmulator;
  let b: TestEmulator;

  beforeAll(async () => {
    for (const name of ["settings-a", "settings-b"]) {
      started.push(
        await startTestEmulator({
          tls: false,
          machineName: name,
          serverType: "arcgis-server",
          createDelayMs: 0,
          joinDelayMs: 0,
        }),
      );
    }
    [a, b] = started as [TestEmulator, TestEmulator];
    expect(await post(a, "createNewSite", ADMIN)).toEqual({ status: "success" });
    expect(await post(b, "joinSite", { adminURL: a.adminUrl, ...ADMIN })).toMatchObject({
      status: "success",
    });
  });
  afterAll(async () => {
    for (const emu of started) await emu.close();
  });

  it("keeps an edit made on one machine, shown by the other machine's read", async () => {
    const before = await post(a, "machines/settings-b", { token: await token(a) });
    // DSC's Update-SSLCertificate: every field of the read sent back, one changed, ports empty.
    const form: Record<string, string> = { token: await token(a), ports: "" };
    for (const [key, value] of Object.entries(before)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        form[key] = String(value);
      }
    }
    // A new certificate alias must be imported first (tests/emulator/certificates.test.ts).
    form.adminURL = "https://settings-b.example.com:6443/arcgis/admin";
    form.JMXPort = "4100";
    expect(await post(a, "machines/settings-b/edit", form)).toEqual({ status: "success" });
    const read = await post(b, "machines/settings-b", { token: await token(b) });
    expect(read).toMatchObject({
      adminURL: "https://settings-b.example.com:6443/arcgis/admin",
      webServerCertificateAlias: "SelfSignedCertificate",
      socMaxHeapSize: before.socMaxHeapSize,
      ports: { ...(before.ports as object), JMXPort: 4100 },
    });
  });

  it("refuses a value that is not a whole number, naming the field", async () => {
    const answer = await post(a, "machines/settings-a/edit", {
      token: await token(a),
      socMaxHeapSize: "lots",
    });
    expect(answer).toMatchObject({ status: "error", code: 400 });
    expect(String(answer.messages)).toContain("'socMaxHeapSize'");
  });

  it("adds a joined machine to a cluster once, and refuses what the site cannot do", async () => {
    const t = await token(a);
    for (let i = 0; i < 2; i++) {
      expect(
        await post(a, "clusters/default/machines/add", { token: t, machineNames: "settings-b" }),
      ).toEqual({ status: "success" });
    }
    expect(await post(b, "clusters/default", { token: await token(b) })).toEqual({
      clusterName: "default",
      machineNames: ["settings-a", "settings-b"],
    });
    const unknown = await post(a, "clusters/maps/machines/add", {
      token: t,
      machineNames: "settings-b",
    });
    expect(unknown).toMatchObject({ status: "error", code: 404 });
    const stranger = await post(a, "clusters/default/machines/add", {
      token: t,
      machineNames: "nowhere.example.com",
    });
    expect(stranger).toMatchObject({ status: "error", code: 400 });
  });

  it("stops a machine and takes it out of its cluster as Chef's stop_machine does; start undoes the stop", async () => {
    const t = await token(b);
    // Chef's :stop_machine runs on the machine it stops: stop, then remove from 'default'.
    expect(await post(b, "machines/settings-b/stop", { token: t })).toEqual({ status: "success" });
    expect(
      await post(b, "clusters/default/machines/remove", { token: t, machineNames: "settings-b" }),
    ).toEqual({ status: "success" });
    // The other machine of the site sees it (Chef's unregister_stopped_machines asks any machine).
    const ta = await token(a);
    expect(await post(a, "machines/settings-b/status", { token: ta })).toEqual({
      configuredState: "STOPPED",
      realTimeState: "STOPPED",
    });
    expect(await post(a, "machines/settings-b", { token: ta })).toMatchObject({
      configuredState: "STOPPED",
    });
    expect(await post(a, "clusters/default", { token: ta })).toEqual({
      clusterName: "default",
      machineNames: ["settings-a"],
    });
    // Stopping again, and removing a machine the cluster no longer holds, are no errors.
    expect(await post(a, "machines/settings-b/stop", { token: ta })).toEqual({ status: "success" });
    expect(
      await post(a, "clusters/default/machines/remove", { token: ta, machineNames: "settings-b" }),
    ).toEqual({ status: "success" });
    expect(
      await post(a, "clusters/default/machines/remove", { token: ta, machineNames: "nowhere" }),
    ).toMatchObject({ status: "error", code: 400 });
    expect(await post(a, "machines/nowhere/status", { token: ta })).toMatchObject({
      status: "error",
      code: 404,
    });
    // A GET is refused for the operations, not for the status resource (the Python API GETs it).
    const get = await fetch(`${a.adminUrl}/machines/settings-b/stop?f=json&token=${ta}`);
    expect(await get.json()).toMatchObject({ status: "error", code: 405 });
    expect(await post(a, "machines/settings-b/start", { token: ta })).toEqual({
      status: "success",
    });
    const status = await fetch(`${b.adminUrl}/machines/settings-b/status?f=json&token=${t}`);
    expect(await status.json()).toEqual({ configuredState: "STARTED", realTimeState: "STARTED" });
    // Back in the cluster for the tests that follow.
    expect(
      await post(a, "clusters/default/machines/add", { token: ta, machineNames: "settings-b" }),
    ).toEqual({ status: "success" });
  });

  it("imports a certificate into the machine a request names: its own keystore", async () => {
    const form = new FormData();
    form.append("alias", "OrgRoot");
    form.append("token", await token(a));
    form.append("f", "json");
    form.append("rootCACertificate", new Blob([makeRootCa().certPem]), "root.cer");
    const res = await fetch(
      `${a.adminUrl}/machines/settings-b/sslcertificates/importRootOrIntermediate`,
      {
        method: "POST",
        body: form,
      },
    );
    expect(await res.json()).toEqual({ status: "success" });
    // Without TLS a machine has no self-signed certificate: only what was imported is listed.
    expect(await post(b, "machines/settings-b/sslcertificates", { token: await token(b) })).toEqual(
      {
        certificates: ["orgroot"],
      },
    );
    expect(await post(b, "machines/settings-a/sslcertificates", { token: await token(b) })).toEqual(
      {
        certificates: [],
      },
    );
  });

  it("refuses services/federate on a site no portal federated", async () => {
    const answer = await post(a, "services/federate", { token: await token(a) });
    expect(answer).toMatchObject({ status: "error", code: 400 });
  });
});
