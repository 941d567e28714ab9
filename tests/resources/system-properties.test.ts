/**
 * SystemProperties' rules, its implementation called directly against a real emulator: what
 * check() refuses, create keeping the declared properties and sending every other one back as
 * read, diff naming only real changes, update in place, refresh reporting drift, destroy leaving
 * or restoring only its own, and a lost answer of the update settled by reading, never by sending
 * it again.
 */
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  getSystemProperties,
  updateSystemProperties,
  type ServerType,
} from "../../provider/client";
import { implementation as systemProperties } from "../../provider/resources/system-properties/lifecycle";
import type { SystemPropertiesOutputs } from "../../provider/resources/system-properties/inputs";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";

const PASSWORD = "site-Password-1";
/** What another client set before the stack: a plain value and one that is not. */
const OTHERS = {
  localTempFolder: "/tmp/arcgis",
  javaExtsBeginPort: 11000,
  PortalConfiguration: { privatePortalURL: "https://portal.example.com/portal", nested: [1, 2] },
};

afterAll(() => closeDispatchers());

async function siteOn(serverType: ServerType, tls = true): Promise<TestEmulator> {
  const emu = await startTestEmulator({
    serverType,
    createDelayMs: 0,
    exportDelayMs: 600,
    ...(tls ? {} : { tls: false as const }),
  });
  await createNewSite(
    emu.adminUrl,
    { serverType, username: "siteadmin", password: PASSWORD },
    emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } },
  );
  return emu;
}

function sessionOf(emu: TestEmulator, adminUrl = emu.adminUrl) {
  return createAdminSession({
    adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    ...(emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } }),
  });
}

function inputsFor(emu: TestEmulator, extra: Record<string, unknown> = {}) {
  return {
    serverType: emu.serverType,
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    ...(emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } }),
    ...extra,
  };
}

async function checked(raw: Record<string, unknown>) {
  const result = await systemProperties.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

const updates = (emu: TestEmulator) =>
  emu.requestLog().filter((r) => r.method === "POST" && r.url.includes("/system/properties/update"))
    .length;

describe("SystemProperties check()", () => {
  const base = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: PASSWORD,
  };

  it("refuses a missing properties map and a value that is not plain, naming it", async () => {
    const missing = await systemProperties.check({}, base);
    expect(missing.failures).toEqual([expect.objectContaining({ property: "properties" })]);
    const nested = await systemProperties.check({}, { ...base, properties: { a: { b: 1 } } });
    expect(nested.failures).toEqual([
      expect.objectContaining({
        property: "properties.a",
        reason: expect.stringMatching(/string, a number or a boolean/),
      }),
    ]);
  });

  it("fills in restoreOnDestroy false and the default time limit", async () => {
    const inputs = await checked({ ...base, properties: { WebContextURL: "https://x/server" } });
    expect(inputs).toMatchObject({
      serverType: "mission-server",
      restoreOnDestroy: false,
      timeouts: { changeMs: 600_000 },
    });
  });
});

describe("SystemProperties diff()", () => {
  const olds = {
    serverType: "mission-server",
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: PASSWORD,
    properties: { WebContextURL: "https://gis.example.com/server" },
    restoreOnDestroy: false,
    timeouts: { changeMs: 600_000 },
    previousProperties: {},
    addedProperties: ["WebContextURL"],
    serverProperties: { WebContextURL: "https://gis.example.com/server" },
  } as SystemPropertiesOutputs;
  const news = () => {
    const { previousProperties: _p, addedProperties: _a, serverProperties: _s, ...inputs } = olds;
    return inputs as Record<string, unknown>;
  };

  it("finds nothing to do when the declared properties and the rest are unchanged", async () => {
    expect(await systemProperties.diff("id", olds, news())).toEqual({ changes: false });
  });

  it("updates in place when a property changes, and replaces only for another server", async () => {
    expect(
      await systemProperties.diff("id", olds, {
        ...news(),
        properties: { WebContextURL: "https://other/server" },
      }),
    ).toEqual({ changes: true });
    expect(
      await systemProperties.diff("id", olds, {
        ...news(),
        adminUrl: "https://GIS.example.com:20443/arcgis/admin/",
      }),
    ).toEqual({ changes: true });
    expect(
      await systemProperties.diff("id", olds, {
        ...news(),
        adminUrl: "https://other:20443/arcgis/admin",
      }),
    ).toEqual({ changes: true, replaces: ["adminUrl"], deleteBeforeReplace: true });
  });
});

describe.each(["mission-server", "arcgis-server"] as const)(
  "SystemProperties on %s",
  (serverType) => {
    let emu: TestEmulator;
    beforeEach(async () => {
      emu = await siteOn(serverType);
      // Another client's properties, there before the stack.
      await updateSystemProperties(sessionOf(emu), { ...OTHERS, WebContextURL: "https://old/s" });
    });
    afterEach(async () => {
      await emu.close();
    });

    it("create writes the declared properties and sends every other one back as read", async () => {
      const inputs = await checked(
        inputsFor(emu, {
          properties: { WebContextURL: "https://gis.example.com/server", disableIPv6: true },
        }),
      );
      const before = updates(emu);
      const created = await systemProperties.create(inputs);
      expect(created.id).toBe(`${emu.adminUrl}/system/properties`);
      expect(updates(emu) - before).toBe(1);
      expect(await getSystemProperties(sessionOf(emu))).toEqual({
        ...OTHERS,
        WebContextURL: "https://gis.example.com/server",
        disableIPv6: true,
      });
      expect(created.outs).toMatchObject({
        previousProperties: { WebContextURL: "https://old/s" },
        addedProperties: ["disableIPv6"],
        serverProperties: { WebContextURL: "https://gis.example.com/server", disableIPv6: true },
      });
      // The same declaration again: nothing differs, nothing is sent.
      const again = await systemProperties.update(created.id, created.outs, inputs);
      expect(updates(emu) - before).toBe(1);
      expect(again.outs).toMatchObject({ previousProperties: { WebContextURL: "https://old/s" } });
    });

    it("update writes a changed property in place; refresh reports drift as the server's value", async () => {
      const inputs = await checked(
        inputsFor(emu, { properties: { WebContextURL: "https://a/server" } }),
      );
      const created = await systemProperties.create(inputs);
      const changed = await checked(
        inputsFor(emu, { properties: { WebContextURL: "https://b/server", newKey: "x" } }),
      );
      const updated = await systemProperties.update(created.id, created.outs as never, changed);
      expect(updated.outs).toMatchObject({
        previousProperties: { WebContextURL: "https://old/s" },
        addedProperties: ["newKey"],
      });
      expect(await getSystemProperties(sessionOf(emu))).toEqual({
        ...OTHERS,
        WebContextURL: "https://b/server",
        newKey: "x",
      });

      // Behind the stack's back: one declared property changed, the other removed.
      const session = sessionOf(emu);
      const { newKey: _gone, ...rest } = await getSystemProperties(session);
      await updateSystemProperties(session, { ...rest, WebContextURL: "https://drift/server" });
      const refreshed = await systemProperties.read(created.id, updated.outs as never);
      expect(refreshed.props).toMatchObject({
        properties: { WebContextURL: "https://drift/server" },
        serverProperties: { WebContextURL: "https://drift/server" },
      });
      expect(refreshed.inputs).toMatchObject({
        properties: { WebContextURL: "https://drift/server" },
      });
      expect((refreshed.inputs as { properties: object }).properties).not.toHaveProperty("newKey");
      expect(refreshed.inputs).not.toHaveProperty("previousProperties");
      // The program's declaration differs from what refresh recorded: an in-place update.
      expect(await systemProperties.diff(created.id, refreshed.props as never, changed)).toEqual({
        changes: true,
      });
    });

    it("restoreOnDestroy puts back only its own properties, and only where the server still holds its value", async () => {
      const inputs = await checked(
        inputsFor(emu, {
          properties: { WebContextURL: "https://a/server", added: "mine", changedSince: "mine" },
          restoreOnDestroy: true,
        }),
      );
      const created = await systemProperties.create(inputs);
      const session = sessionOf(emu);
      // After the stack: another client changes one of its properties and adds one of its own.
      await updateSystemProperties(session, {
        ...(await getSystemProperties(session)),
        changedSince: "theirs",
        later: 1,
      });
      const before = updates(emu);
      await systemProperties.delete(created.id, created.outs as never);
      expect(updates(emu) - before).toBe(1);
      expect(await getSystemProperties(session)).toEqual({
        ...OTHERS,
        WebContextURL: "https://old/s",
        changedSince: "theirs",
        later: 1,
      });
    });

    it("restoreOnDestroy after a create that found its values set already (a killed run's write) sends nothing", async () => {
      const session = sessionOf(emu);
      const declared = { WebContextURL: "https://killed/server" };
      await updateSystemProperties(session, {
        ...(await getSystemProperties(session)),
        ...declared,
      });
      const inputs = await checked(
        inputsFor(emu, { properties: declared, restoreOnDestroy: true }),
      );
      const before = updates(emu);
      const created = await systemProperties.create(inputs);
      await systemProperties.delete(created.id, created.outs as never);
      expect(updates(emu)).toBe(before);
      expect(await getSystemProperties(session)).toMatchObject(declared);
    });

    it("destroy without restoreOnDestroy sends nothing and leaves the properties", async () => {
      const inputs = await checked(
        inputsFor(emu, { properties: { WebContextURL: "https://a/s" } }),
      );
      const created = await systemProperties.create(inputs);
      const before = updates(emu);
      await systemProperties.delete(created.id, created.outs as never);
      expect(updates(emu)).toBe(before);
      expect(await getSystemProperties(sessionOf(emu))).toMatchObject({
        WebContextURL: "https://a/s",
      });
    });
  },
);

describe("SystemProperties and a lost answer of system/properties/update", () => {
  let emu: TestEmulator;
  let proxy: FaultProxy;
  let adminUrl: string;
  beforeEach(async () => {
    emu = await siteOn("mission-server", false);
    await updateSystemProperties(sessionOf(emu), OTHERS);
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
  });
  afterEach(async () => {
    await proxy.close();
    await emu.close();
  });
  const updatePosts = () =>
    proxy.seen.filter((r) => r.method === "POST" && r.path.includes("/system/properties/update"))
      .length;

  it("an answer lost after the server acted: read, found done, never sent again", async () => {
    proxy.setRule(({ method, path }) =>
      method === "POST" && path.includes("/system/properties/update")
        ? { kind: "drop-answer" }
        : undefined,
    );
    const inputs = await checked({
      ...inputsFor(emu, { properties: { WebContextURL: "https://a/s" } }),
      adminUrl,
    });
    const created = await systemProperties.create(inputs);
    expect(updatePosts()).toBe(1);
    expect(updates(emu)).toBe(2);
    expect(created.outs).toMatchObject({ serverProperties: { WebContextURL: "https://a/s" } });
    expect(await getSystemProperties(sessionOf(emu))).toEqual({
      ...OTHERS,
      WebContextURL: "https://a/s",
    });
  });

  it("an answer lost before the server acted: an error that says so, and nothing sent again", async () => {
    proxy.setRule(({ method, path }) =>
      method === "POST" && path.includes("/system/properties/update")
        ? { kind: "status", status: 502 }
        : undefined,
    );
    const inputs = await checked({
      ...inputsFor(emu, { properties: { WebContextURL: "https://a/s" } }),
      adminUrl,
    });
    await expect(systemProperties.create(inputs)).rejects.toThrow(
      /was lost .*WebContextURL absent \(wanted "https:\/\/a\/s"\)\. It was not sent again/s,
    );
    expect(updatePosts()).toBe(1);
    expect(await getSystemProperties(sessionOf(emu))).toEqual(OTHERS);
  });
});
