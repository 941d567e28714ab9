/**
 * SystemProperties and SiteUpgrade through Pulumi's real dynamic-provider host from the packed
 * package (the engine's own calls: check, diff, create, delete; the providers the classes register
 * load `dist/provider/resources/system-properties.js` and `site-upgrade.js`), against plain-HTTP
 * emulators: the properties another client set are sent back unchanged and restored only where
 * the stack set them; a due upgrade is sent once, and none afterwards, the diff then finding
 * nothing to do.
 */
import {
  createAdminSession,
  createNewSite,
  getSystemProperties,
  updateSystemProperties,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { closeAll, consumerWithHost, type Consumer } from "../../tools/harness/consumer";
import { unwrapSecrets, urn, type PropertyMap } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";

const SITE_ADMIN = { username: "siteadmin", password: "props-Host-Pw-41" };
const SECRET = { additionalSecretOutputs: ["password"] };
const OTHERS = { localTempFolder: "/tmp/arcgis", PortalConfiguration: { url: "https://p/p" } };

jest.setTimeout(120_000);

let consumer: Consumer;
let host: Host;

beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 180_000);

afterAll(() => closeAll(host, consumer));

const started: TestEmulator[] = [];
afterEach(async () => {
  for (const emu of started.splice(0)) await emu.close();
});

const session = (emu: TestEmulator) =>
  createAdminSession({ adminUrl: emu.adminUrl, ...SITE_ADMIN });

/** The inputs the program registers for one resource of the package, `__provider` included. */
async function registered(type: string, args: Record<string, unknown>): Promise<PropertyMap> {
  const [registration] = await consumer.runProgram(`
    const { ${type} } = require("pulumi-arcgis-admin");
    new ${type}("it", ${JSON.stringify(args)});
  `);
  return registration!.inputs;
}

async function checked(type: string, args: Record<string, unknown>): Promise<PropertyMap> {
  const result = await host.check(urn("it"), {}, await registered(type, args));
  expect(result.failures).toEqual([]);
  return result.inputs;
}

it("SystemProperties sends back what another client set, and restores only its own on destroy", async () => {
  const emu = await startTestEmulator({ tls: false, createDelayMs: 0 });
  started.push(emu);
  await createNewSite(emu.adminUrl, { ...SITE_ADMIN, runAsync: false });
  await updateSystemProperties(session(emu), { ...OTHERS, WebContextURL: "https://old/s" });
  const inputs = await checked("SystemProperties", {
    adminUrl: emu.adminUrl,
    ...SITE_ADMIN,
    properties: { WebContextURL: "https://gis.example.com/server", added: 1 },
    restoreOnDestroy: true,
  });
  const created = await host.create(urn("it"), inputs, SECRET);
  expect(unwrapSecrets(created.properties)).toMatchObject({
    previousProperties: { WebContextURL: "https://old/s" },
    addedProperties: ["added"],
  });
  expect(await getSystemProperties(session(emu))).toEqual({
    ...OTHERS,
    WebContextURL: "https://gis.example.com/server",
    added: 1,
  });
  const diff = await host.diff(created.id, urn("it"), created.properties, inputs);
  expect(diff.changes).toBe("DIFF_NONE");

  await host.delete(created.id, urn("it"), created.properties);
  expect(await getSystemProperties(session(emu))).toEqual({
    ...OTHERS,
    WebContextURL: "https://old/s",
  });
});

it("SiteUpgrade sends a due upgrade once; afterwards the diff finds nothing and destroy sends nothing", async () => {
  const old = await startTestEmulator({
    tls: false,
    createDelayMs: 0,
    serverType: "arcgis-server",
    serverVersion: "11.1",
  });
  await createNewSite(old.adminUrl, { ...SITE_ADMIN, serverType: "arcgis-server" });
  await old.close();
  const emu = await startTestEmulator({
    tls: false,
    serverType: "arcgis-server",
    serverVersion: "11.3",
    upgradeFrom: "11.1",
    upgradeDelayMs: 200,
    dataDir: old.dataDir,
  });
  started.push(emu);
  const posts = () =>
    emu.requestLog().filter((e) => e.method === "POST" && /\/admin\/upgrade(\?|$)/.test(e.url))
      .length;
  const inputs = await checked("SiteUpgrade", {
    serverType: "arcgis-server",
    adminUrl: emu.adminUrl,
    ...SITE_ADMIN,
  });
  const created = await host.create(urn("it"), inputs, SECRET);
  expect(unwrapSecrets(created.properties)).toMatchObject({
    outcome: "upgraded",
    upgradesSent: 1,
    fromVersion: "11.1.0",
    toVersion: "11.3.0",
  });
  expect(posts()).toBe(1);
  const diff = await host.diff(created.id, urn("it"), created.properties, inputs);
  expect(diff.changes).toBe("DIFF_NONE");
  await host.delete(created.id, urn("it"), created.properties);
  expect(posts()).toBe(1);
});
