/**
 * What is SystemProperties' own, its implementation called directly against a real emulator:
 * what check() refuses; every property it does not declare sent back as read (one that is not a
 * plain value too), since the server's update replaces the whole set; a declared property the
 * server did not have, recorded as added and removed on restore; and one the server no longer
 * has, leaving the recorded inputs at a refresh. The rule it keeps its properties by (write what
 * differs, refresh, update, restore on destroy, the wait while an export holds the site, a lost
 * answer of the update), with LogSettings: kept-settings.test.ts.
 */
import {
  type AdminSession,
  closeDispatchers,
  getSystemProperties,
  updateSystemProperties,
} from "../../provider/client";
import { implementation as systemProperties } from "../../provider/resources/system-properties/lifecycle";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";

const PASSWORD = "site-Password-1";
/** What another client set before the stack: a plain value and one that is not. */
const OTHERS = {
  localTempFolder: "/tmp/arcgis",
  javaExtsBeginPort: 11000,
  PortalConfiguration: { privatePortalURL: "https://portal.example.com/portal", nested: [1, 2] },
};

afterAll(() => closeDispatchers());

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
});

describe.each(["mission-server", "arcgis-server"] as const)(
  "SystemProperties on %s",
  (serverType) => {
    let emu: TestEmulator;
    let session: AdminSession;
    beforeEach(async () => {
      ({ emu, session } = await startTestSite(PASSWORD, { serverType }));
      // Another client's properties, there before the stack.
      await updateSystemProperties(session, { ...OTHERS, WebContextURL: "https://old/s" });
    });
    afterEach(async () => {
      await emu.close();
    });

    it("sends every other property back as read, records one the server did not have as added, and restore removes it", async () => {
      const inputs = await checked(
        inputsFor(emu, {
          properties: { WebContextURL: "https://gis.example.com/server", disableIPv6: true },
          restoreOnDestroy: true,
        }),
      );
      const created = await systemProperties.create(inputs);
      expect(created.id).toBe(`${emu.adminUrl}/system/properties`);
      expect(await getSystemProperties(session)).toEqual({
        ...OTHERS,
        WebContextURL: "https://gis.example.com/server",
        disableIPv6: true,
      });
      expect(created.outs).toMatchObject({
        previousProperties: { WebContextURL: "https://old/s" },
        addedProperties: ["disableIPv6"],
        serverProperties: { WebContextURL: "https://gis.example.com/server", disableIPv6: true },
      });
      // After the stack: another client adds a property of its own.
      await updateSystemProperties(session, { ...(await getSystemProperties(session)), later: 1 });
      await systemProperties.delete(created.id, created.outs as never);
      expect(await getSystemProperties(session)).toEqual({
        ...OTHERS,
        WebContextURL: "https://old/s",
        later: 1,
      });
    });

    it("a declared property the server no longer has leaves the recorded inputs at a refresh", async () => {
      const inputs = await checked(
        inputsFor(emu, { properties: { WebContextURL: "https://a/server", newKey: "x" } }),
      );
      const created = await systemProperties.create(inputs);
      const { newKey: _gone, ...rest } = await getSystemProperties(session);
      await updateSystemProperties(session, rest);
      const refreshed = await systemProperties.read(created.id, created.outs as never);
      expect(refreshed.inputs).toMatchObject({
        properties: { WebContextURL: "https://a/server" },
      });
      expect((refreshed.inputs as { properties: object }).properties).not.toHaveProperty("newKey");
      expect(await systemProperties.diff(created.id, refreshed.props as never, inputs)).toEqual({
        changes: true,
      });
    });
  },
);
