/**
 * SiteMachine's rules, each against real emulators on 127.0.0.1 (one per machine, in this
 * process, so that joinSite finds the site's machine): join, follow pollAfter, adopt a machine of
 * this site, refuse one of another site, refresh notices an out-of-band unregister, destroy
 * unregisters (and again is a no-op), diff replaces for another machine or site.
 */
import * as path from "node:path";
import {
  createAdminSession,
  joinSite,
  listMachines,
  unregisterMachine,
} from "../../provider/client";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { implementation as siteMachine } from "../../provider/resources/site-machine/lifecycle";
import type { SiteMachineOutputs } from "../../provider/resources/site-machine/generated";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { until } from "../../tools/harness/until";

const SITE_ADMIN = { username: "siteadmin", password: "site-Password-1" };

async function checkedSite(emu: TestEmulator): Promise<Record<string, unknown>> {
  const result = await site.check({}, siteInputs(emu));
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

async function createSite(emu: TestEmulator): Promise<void> {
  await site.create(await checkedSite(emu));
}

function machineInputs(machine: Machine, siteEmu: Machine, extra = {}) {
  return {
    adminUrl: machine.adminUrl,
    siteAdminUrl: siteEmu.adminUrl,
    machineName: machine.machineName,
    ...SITE_ADMIN,
    tls: { caCert: siteEmu.caCert! },
    timeouts: { serverReadyMs: 5_000, joinMs: 10_000 },
    ...extra,
  };
}

async function checked(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await siteMachine.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

async function siteMachineNames(siteEmu: TestEmulator): Promise<string[]> {
  return listMachines(
    createAdminSession({
      adminUrl: siteEmu.adminUrl,
      ...SITE_ADMIN,
      tls: { caCert: siteEmu.caCert! },
    }),
  );
}

function joinRequests(emu: TestEmulator): number {
  return emu.requestLog().filter((r) => r.url.startsWith("/arcgis/admin/joinSite")).length;
}

type Machine = TestEmulator & { machineName: string };

/** The certificate and key another emulator generated, so that one CA certificate trusts both. */
function sharedTls(emu: TestEmulator): { certFile: string; keyFile: string } {
  const certFile = emu.caCertFile!;
  return { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") };
}

/** An emulated machine named `name`; with `tlsOf`, it serves that machine's certificate. */
async function machine(
  name: string,
  options: Record<string, unknown> = {},
  tlsOf?: TestEmulator,
): Promise<Machine> {
  const emu = await startTestEmulator({
    ...(tlsOf === undefined ? {} : { tls: sharedTls(tlsOf) }),
    machineName: name,
    createDelayMs: 50,
    joinDelayMs: 50,
    ...options,
  });
  return Object.assign(emu, { machineName: name });
}

describe("SiteMachine check()", () => {
  const base = {
    adminUrl: "https://gis2.example.com:20443/arcgis/admin",
    siteAdminUrl: "https://gis1.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: "site-Password-1",
  };

  it("fills in the defaults", async () => {
    expect(await checked(base)).toMatchObject({
      serverType: "mission-server",
      timeouts: { serverReadyMs: 15 * 60_000, joinMs: 30 * 60_000 },
    });
  });

  it("names every bad field at once, and refuses a machine joining through itself", async () => {
    const result = await siteMachine.check(
      {},
      { ...base, siteAdminUrl: base.adminUrl, password: "", serverType: "portal" },
    );
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual([
      "password",
      "serverType",
      "siteAdminUrl",
    ]);
  });

  it("accepts a site URL that is still unknown (preview)", async () => {
    const result = await siteMachine.check(
      {},
      { ...base, siteAdminUrl: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
    );
    expect(result.failures ?? []).toEqual([]);
  });
});

/** A joined machine's state, and the inputs it was created with. */
const DIFF_OLDS = {
  serverType: "mission-server",
  adminUrl: "https://gis2.example.com:20443/arcgis/admin",
  siteAdminUrl: "https://gis1.example.com:20443/arcgis/admin",
  username: "siteadmin",
  password: "site-Password-1",
  timeouts: { serverReadyMs: 1000, joinMs: 1000 },
  state: "joined",
  registeredName: "gis2.example.com",
  machines: ["gis1.example.com", "gis2.example.com"],
  joinedAt: "2026-11-23T09:00:00.000Z",
} as SiteMachineOutputs;
const DIFF_INPUTS = {
  serverType: DIFF_OLDS.serverType,
  adminUrl: DIFF_OLDS.adminUrl,
  siteAdminUrl: DIFF_OLDS.siteAdminUrl,
  username: DIFF_OLDS.username,
  password: DIFF_OLDS.password,
  timeouts: DIFF_OLDS.timeouts,
};

describe("SiteMachine diff()", () => {
  const olds = DIFF_OLDS;
  const inputs = DIFF_INPUTS;

  it("changes nothing for the same inputs", async () => {
    expect(await siteMachine.diff("id", olds, inputs)).toEqual({ changes: false });
  });

  it("unregisters and joins anew for another site, first leaving the old one", async () => {
    const result = await siteMachine.diff("id", olds, {
      ...inputs,
      siteAdminUrl: "https://other.example.com:20443/arcgis/admin",
    });
    expect(result).toEqual({
      changes: true,
      replaces: ["siteAdminUrl"],
      deleteBeforeReplace: true,
    });
  });

  it("only updates state for a new password", async () => {
    const news = { ...inputs, password: "new-Password-2" };
    expect(await siteMachine.diff("id", olds, news)).toEqual({ changes: true });
  });
});

describe("SiteMachine against emulated machines", () => {
  let first: Machine;
  let second: Machine;

  beforeEach(async () => {
    first = await machine("machine-a");
    second = await machine("machine-b", { joinPollAfterSeconds: 2 }, first);
    await createSite(first);
  });

  afterEach(async () => {
    await second?.close();
    await first?.close();
  });

  it("joins the machine, following pollAfter before it looks again", async () => {
    const inputs = await checked(machineInputs(second, first));
    const { id, outs } = await siteMachine.create(inputs);
    expect(id).toBe(second.adminUrl);
    expect(outs).toMatchObject({
      state: "joined",
      registeredName: "machine-b",
      machines: ["machine-a", "machine-b"],
    });
    expect(await siteMachineNames(first)).toEqual(["machine-a", "machine-b"]);
    expect(joinRequests(second)).toBe(1);

    // joinSite answered pollAfter 2: nothing looked at either machine within those 2 s.
    const joinedAt = Date.parse(
      second.requestLog().find((r) => r.url.startsWith("/arcgis/admin/joinSite"))!.at,
    );
    const looks = [...first.requestLog(), ...second.requestLog()]
      .map((r) => Date.parse(r.at))
      .filter((at) => at > joinedAt);
    expect(looks.length).toBeGreaterThan(0);
    expect(Math.min(...looks) - joinedAt).toBeGreaterThanOrEqual(2_000);
  });

  it("adopts a machine that is in this site already, without a second joinSite", async () => {
    const inputs = await checked(machineInputs(second, first));
    await siteMachine.create(inputs);
    const { outs } = await siteMachine.create(inputs);
    expect(outs).toMatchObject({ state: "adopted", registeredName: "machine-b" });
    expect(joinRequests(second)).toBe(1);
  });

  /**
   * A machine "machine-c" whose join another client (an interrupted run) sent to the first
   * machine's site and that takes `joinDelayMs`; resolves once the site lists it, with that join.
   */
  async function joiningMachine(joinDelayMs: number) {
    const third = await machine("machine-c", { joinDelayMs }, first);
    const earlier = joinSite(
      third.adminUrl,
      { siteAdminUrl: first.adminUrl, ...SITE_ADMIN },
      { tls: { caCert: first.caCert! } },
    );
    await until(
      async () => (await siteMachineNames(first)).includes("machine-c"),
      "the site to list the joining machine",
    );
    return { third, earlier };
  }

  it("watches a join already under way (an interrupted run's) to its end, sends no second joinSite, and records the machine as adopted", async () => {
    const { third, earlier } = await joiningMachine(1_500);
    try {
      const inputs = await checked(machineInputs(third, first));
      const { outs } = await siteMachine.create(inputs);
      expect(outs).toMatchObject({ state: "adopted", registeredName: "machine-c" });
      expect(await earlier).toMatchObject({ status: "success" });
      expect(joinRequests(third)).toBe(1);
      expect(await siteMachineNames(first)).toEqual(["machine-a", "machine-c"]);
    } finally {
      await third.close();
    }
  });

  it("a join under way that outlasts joinMs: an error that says what to check, and still no second joinSite", async () => {
    const { third, earlier } = await joiningMachine(4_000);
    try {
      const timeouts = { serverReadyMs: 5_000, joinMs: 1_000 };
      const inputs = await checked(machineInputs(third, first, { timeouts }));
      await expect(siteMachine.create(inputs)).rejects.toThrow(
        /which the site lists as joining, did not finish joining the site .* within timeouts\.joinMs .*do not run `pulumi up` again before checking/,
      );
      expect(joinRequests(third)).toBe(1);
      await earlier;
    } finally {
      await third.close();
    }
  });

  it("refuses a machine that is in another site, sending no joinSite", async () => {
    await createSite(second);
    const inputs = await checked(machineInputs(second, first));
    await expect(siteMachine.create(inputs)).rejects.toThrow(
      /already participates in a site, but the site at .* lists no machine named 'machine-b' .*another site/,
    );
    expect(joinRequests(second)).toBe(0);
    expect(await siteMachineNames(first)).toEqual(["machine-a"]);
  });

  it("reports a join the site refuses (wrong password) naming joinSite, never the password", async () => {
    const inputs = await checked(machineInputs(second, first, { password: "wrong-Password-9" }));
    const error = await siteMachine.create(inputs).then(
      () => new Error("created"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/joinSite on .* failed/);
    expect(error.message).not.toContain("wrong-Password-9");
  });

  it("records new credentials only once the site gives them a token", async () => {
    const inputs = await checked(machineInputs(second, first));
    const { outs } = await siteMachine.create(inputs);
    await expect(
      siteMachine.update(second.adminUrl, outs, { ...inputs, password: "not-the-Password-3" }),
    ).rejects.toThrow(/were not recorded: the site at .* does not give them a token/);
    const timeouts = { serverReadyMs: 6_000, joinMs: 12_000 };
    const updated = await siteMachine.update(second.adminUrl, outs, { ...inputs, timeouts });
    expect(updated.outs).toMatchObject({
      password: SITE_ADMIN.password,
      timeouts,
      state: "joined",
    });
  });

  it("refresh keeps a listed machine and drops one unregistered out of band", async () => {
    const inputs = await checked(machineInputs(second, first));
    const { id, outs } = await siteMachine.create(inputs);
    const kept = await siteMachine.read(id, outs);
    expect(kept).toMatchObject({ id, props: { machines: ["machine-a", "machine-b"] } });

    const session = createAdminSession({
      adminUrl: first.adminUrl,
      ...SITE_ADMIN,
      tls: { caCert: first.caCert! },
    });
    await unregisterMachine(session, "machine-b");
    const gone = await siteMachine.read(id, outs);
    expect(gone.id).toBeUndefined();
  });

  it("destroy unregisters the machine, which is then in no site; destroying again sends nothing", async () => {
    const inputs = await checked(machineInputs(second, first));
    const { id, outs } = await siteMachine.create(inputs);
    await siteMachine.delete(id, outs);
    expect(await siteMachineNames(first)).toEqual(["machine-a"]);
    const unregisters = () =>
      first.requestLog().filter((r) => r.url.includes("/unregister")).length;
    expect(unregisters()).toBe(1);

    await siteMachine.delete(id, outs);
    expect(unregisters()).toBe(1);
    // The machine left the site: it can join again.
    const again = await siteMachine.create(inputs);
    expect(again.outs).toMatchObject({ state: "joined" });
  });
});

describe("SiteMachine ownership and harmless edits", () => {
  const olds = { ...DIFF_OLDS, unregisterAdoptedOnDestroy: false } as SiteMachineOutputs;
  const inputs = { ...DIFF_INPUTS, unregisterAdoptedOnDestroy: false };

  it("refuses the site's own machine under another spelling of its URL", async () => {
    for (const adminUrl of [
      "https://LOCALHOST:20443/arcgis/admin",
      "https://localhost:20443/arcgis/admin/",
      "https://[::1]:20443/arcgis/admin",
    ]) {
      const result = await siteMachine.check(
        {},
        { ...inputs, adminUrl, siteAdminUrl: "https://127.0.0.1:20443/arcgis/admin" },
      );
      expect(result.failures?.map((f) => f.property)).toEqual(["siteAdminUrl"]);
    }
  });

  it("does not leave and rejoin for a trailing slash, a default port or the default name written out", async () => {
    for (const news of [
      { ...inputs, siteAdminUrl: `${olds.siteAdminUrl}/` },
      { ...inputs, adminUrl: "https://GIS2.example.com:20443/arcgis/admin" },
      { ...inputs, machineName: "gis2.example.com" },
      { ...inputs, machineName: "GIS2.EXAMPLE.COM" },
    ]) {
      expect(await siteMachine.diff("id", olds, news)).toEqual({ changes: false });
    }
    expect(
      await siteMachine.diff(
        "id",
        { ...olds, siteAdminUrl: "https://gis1.example.com:443/arcgis/admin" },
        { ...inputs, siteAdminUrl: "https://gis1.example.com/arcgis/admin" },
      ),
    ).toEqual({ changes: false });
  });

  it("still replaces for another machine name", async () => {
    expect(await siteMachine.diff("id", olds, { ...inputs, machineName: "gis3" })).toMatchObject({
      replaces: ["machineName"],
      deleteBeforeReplace: true,
    });
  });

  describe("against emulated machines", () => {
    let first: Machine;
    let second: Machine;

    beforeEach(async () => {
      first = await machine("machine-a");
      second = await machine("machine-b", {}, first);
      await createSite(first);
    });

    afterEach(async () => {
      await second?.close();
      await first?.close();
    });

    it("destroy leaves an adopted machine in the site; with unregisterAdoptedOnDestroy it unregisters it", async () => {
      // Joined by someone else before the stack took it on.
      await siteMachine.create(await checked(machineInputs(second, first)));
      const adopted = await siteMachine.create(await checked(machineInputs(second, first)));
      expect(adopted.outs).toMatchObject({ state: "adopted" });

      await siteMachine.delete(adopted.id, adopted.outs as SiteMachineOutputs);
      expect(await siteMachineNames(first)).toEqual(["machine-a", "machine-b"]);
      expect(first.requestLog().filter((r) => r.url.includes("/unregister"))).toHaveLength(0);

      const optedIn = await siteMachine.create(
        await checked(machineInputs(second, first, { unregisterAdoptedOnDestroy: true })),
      );
      expect(optedIn.outs).toMatchObject({ state: "adopted" });
      await siteMachine.delete(optedIn.id, optedIn.outs as SiteMachineOutputs);
      expect(await siteMachineNames(first)).toEqual(["machine-a"]);
    });
  });
});

describe("a portal URL given where an admin root belongs", () => {
  it("is refused at check(), naming the field and what to give instead", async () => {
    const result = await siteMachine.check(
      {},
      {
        adminUrl: "https://gis2.example.com:20443/arcgis/admin",
        siteAdminUrl: "https://gis.example.com/portal/sharing/rest",
        username: "siteadmin",
        password: "site-Password-1",
      },
    );
    expect(result.failures).toHaveLength(1);
    expect(result.failures![0]!.property).toBe("siteAdminUrl");
    expect(result.failures![0]!.reason).toContain("is a portal's URL");
  });
});
