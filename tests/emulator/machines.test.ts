/**
 * The emulator's machines of one site: joinSite's refusals (a machine already in a site, a site
 * URL that names no machine of this process, wrong credentials, a name the site has already, a
 * join while one runs), a slow join, and unregister's refusals (the only machine, an unknown one,
 * while an export runs). Plain-HTTP emulators of this process on 127.0.0.1.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const ADMIN = { username: "siteadmin", password: "machines-Pass-1" };

async function post(emu: TestEmulator, op: string, form: Record<string, string> = {}) {
  const res = await fetch(`${emu.adminUrl}/${op}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...form, f: "json" }).toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function token(emu: TestEmulator): Promise<string> {
  const answer = await post(emu, "generateToken", { ...ADMIN, client: "requestip" });
  return answer.json.token as string;
}

async function machineNames(emu: TestEmulator): Promise<string[]> {
  const answer = await post(emu, "machines", { token: await token(emu) });
  return (answer.json.machines as Array<{ machineName: string }>).map((m) => m.machineName);
}

function join(emu: TestEmulator, site: TestEmulator, extra: Record<string, string> = {}) {
  return post(emu, "joinSite", { adminURL: site.adminUrl, ...ADMIN, ...extra });
}

describe("emulated machines of one site", () => {
  const started: TestEmulator[] = [];
  let a: TestEmulator;
  let b: TestEmulator;

  async function machine(name: string, options = {}): Promise<TestEmulator> {
    const emu = await startTestEmulator({
      tls: false,
      machineName: name,
      createDelayMs: 20,
      joinDelayMs: 20,
      ...options,
    });
    started.push(emu);
    return emu;
  }

  beforeEach(async () => {
    a = await machine("machine-a", { exportDelayMs: 3_000 });
    b = await machine("machine-b", { joinDelayMs: 500 });
    expect((await post(a, "createNewSite", ADMIN)).json).toEqual({ status: "success" });
  });

  afterEach(async () => {
    for (const emu of started.splice(0)) await emu.close();
  });

  it("joins a machine after the join delay, and lists it on every member", async () => {
    const before = Date.now();
    expect((await join(b, a)).json).toEqual({ status: "success", pollAfter: 0 });
    expect(Date.now() - before).toBeGreaterThanOrEqual(450);
    expect(await machineNames(a)).toEqual(["machine-a", "machine-b"]);
    expect(await machineNames(b)).toEqual(["machine-a", "machine-b"]);
  });

  it("refuses joinSite on a machine in a site: 499 without a token", async () => {
    await join(b, a);
    expect((await join(b, a)).json).toMatchObject({ error: { code: 499 } });
    expect((await join(a, a)).json).toMatchObject({ error: { code: 499 } });
  });

  it("refuses a site URL that names no machine of the process, wrong credentials, a missing field", async () => {
    const nowhere = await join(b, a, { adminURL: "https://127.0.0.1:1/arcgis/admin" });
    expect(nowhere.json).toMatchObject({ error: { code: 500 } });
    expect(JSON.stringify(nowhere.json)).toContain("Could not connect to the site");
    const wrong = await join(b, a, { password: "not-the-password" });
    expect(wrong.json).toMatchObject({ error: { code: 400 } });
    const missing = await post(b, "joinSite", { adminURL: a.adminUrl, username: "siteadmin" });
    expect(JSON.stringify(missing.json)).toContain("'password' is required");
    expect(await machineNames(a)).toEqual(["machine-a"]);
  });

  it("refuses a machine whose name the site has already, and a second join while one runs", async () => {
    const twin = await machine("machine-a");
    expect(JSON.stringify((await join(twin, a)).json)).toContain(
      "A machine named 'machine-a' already participates",
    );
    const [first, second] = await Promise.all([join(b, a), join(b, a)]);
    expect([first.json, second.json]).toContainEqual({ status: "success", pollAfter: 0 });
    expect(JSON.stringify([first.json, second.json])).toContain("already joining a site");
    expect(await machineNames(a)).toEqual(["machine-a", "machine-b"]);
  });

  it("lets a createNewSite that completes during a join win: the join fails, nothing is overwritten", async () => {
    const joining = join(b, a);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await post(b, "createNewSite", ADMIN)).json).toEqual({ status: "success" });
    expect(JSON.stringify((await joining).json)).toContain("already participates in a site");
    expect(await machineNames(a)).toEqual(["machine-a"]);
    expect(await machineNames(b)).toEqual(["machine-b"]);
  });

  it("unregisters a machine (then in no site), never the only one, never during an export", async () => {
    await join(b, a);
    const auth = { token: await token(a) };
    const exporting = post(a, "exportSite", auth);
    // Once the export has reached the machine (how soon depends on the machine's load); it then
    // runs for exportDelayMs.
    while (!a.requestLog().some((r) => r.url.split("?")[0]!.endsWith("/exportSite"))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await post(a, "machines/machine-b/unregister", auth)).json).toMatchObject({
      error: { code: 409 },
    });
    await exporting;
    expect((await post(a, "machines/machine-x/unregister", auth)).json).toMatchObject({
      error: { code: 404 },
    });
    expect((await post(a, "machines/machine-b/unregister", auth)).json).toEqual({
      success: "true",
    });
    expect(await machineNames(a)).toEqual(["machine-a"]);
    expect((await post(b, "")).json).toMatchObject({ error: { code: 500 } });
    expect((await post(a, "machines/machine-a/unregister", auth)).json).toMatchObject({
      error: { code: 400 },
    });
  });
});
