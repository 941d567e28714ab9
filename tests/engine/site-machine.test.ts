/**
 * SiteMachine's whole lifecycle in every server product, through Pulumi's real dynamic-provider
 * host from the packed package in a consumer project's node_modules: check (also with the site's
 * URL still unknown, as in a preview), create (joinSite in the product's form), a no-op diff,
 * refresh (kept while listed, gone after an unregister done out of band), create again, delete
 * (unregister), delete again. Two plain-HTTP emulators of the product are the machines.
 */
import {
  createAdminSession,
  createNewSite,
  listMachines,
  SERVER_TYPES,
  unregisterMachine,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  isSecret,
  UNKNOWN,
  unwrapSecrets,
  urn,
  type PropertyMap,
} from "../../tools/harness/property-values";
import { type Consumer, consumerWithHost, closeAll } from "../../tools/harness/consumer";
import type { Host } from "../../tools/harness/host-types";

const SITE_ADMIN = { username: "siteadmin", password: "machine-Engine-Pw-41c9" };
const URN = urn("second");

let consumer: Consumer;
let host: Host;

beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 180_000);

afterAll(() => closeAll(host, consumer));

describe.each(SERVER_TYPES.map((t) => [t]))("SiteMachine on %s", (serverType) => {
  let first: TestEmulator;
  let second: TestEmulator;
  let inputs: PropertyMap;

  const siteSession = () => createAdminSession({ adminUrl: first.adminUrl, ...SITE_ADMIN });

  beforeAll(async () => {
    first = await startTestEmulator({
      tls: false,
      serverType,
      machineName: "machine-a",
      createDelayMs: 50,
    });
    second = await startTestEmulator({
      tls: false,
      serverType,
      machineName: "machine-b",
      joinDelayMs: 100,
      joinPollAfterSeconds: 1,
    });
    await createNewSite(first.adminUrl, { serverType, ...SITE_ADMIN });
    const [registration] = await consumer.runProgram(`
      const { SiteMachine } = require("pulumi-arcgis-admin");
      new SiteMachine("second", ${JSON.stringify({
        serverType,
        adminUrl: second.adminUrl,
        siteAdminUrl: first.adminUrl,
        machineName: "machine-b",
        ...SITE_ADMIN,
        timeouts: { serverReadyMs: 10_000, joinMs: 20_000 },
      })});
    `);
    inputs = registration!.inputs;
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("goes through check, preview, create, no-op diff, refresh with drift, delete and delete again", async () => {
    // Preview: the site's URL is not known yet (a Site created in the same run).
    const preview = await host.check(URN, {}, { ...inputs, siteAdminUrl: UNKNOWN });
    expect(preview.failures).toEqual([]);

    const checked = await host.check(URN, {}, inputs);
    expect(checked.failures).toEqual([]);
    const created = await host.create(URN, checked.inputs, {
      additionalSecretOutputs: ["password"],
    });
    expect(created.id).toBe(second.adminUrl);
    expect(isSecret(created.properties.password)).toBe(true);
    expect(unwrapSecrets(created.properties)).toMatchObject({
      state: "joined",
      registeredName: "machine-b",
      machines: ["machine-a", "machine-b"],
      serverType,
    });
    expect(await listMachines(siteSession())).toEqual(["machine-a", "machine-b"]);

    const diff = await host.diff(created.id, URN, created.properties, checked.inputs);
    expect(diff.changes).toBe("DIFF_NONE");

    const kept = await host.read(created.id, URN, created.properties, checked.inputs);
    expect(kept.id).toBe(created.id);

    // Drift: someone unregisters the machine out of band; refresh drops it.
    await unregisterMachine(siteSession(), "machine-b");
    const gone = await host.read(created.id, URN, created.properties, checked.inputs);
    expect(gone.id).toBe("");

    // The next `pulumi up` joins it again.
    const again = await host.create(URN, checked.inputs, {
      additionalSecretOutputs: ["password"],
    });
    expect(unwrapSecrets(again.properties)).toMatchObject({ state: "joined" });

    await host.delete(again.id, URN, again.properties);
    expect(await listMachines(siteSession())).toEqual(["machine-a"]);
    const unregisters = () =>
      first.requestLog().filter((r) => r.url.endsWith("/machines/machine-b/unregister")).length;
    expect(unregisters()).toBe(2);
    await host.delete(again.id, URN, again.properties);
    expect(unregisters()).toBe(2);
    // joinSite in this product's form reached the machine twice (create, create again).
    expect(
      second.requestLog().filter((r) => r.url.startsWith("/arcgis/admin/joinSite")),
    ).toHaveLength(2);
  });
});
