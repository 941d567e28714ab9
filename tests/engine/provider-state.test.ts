/**
 * What each resource's state holds of its provider, as a user's program writes it: the package
 * installed in the consumer project's node_modules (as `npm install` leaves it), a program
 * declaring one resource of each kind the registry lists, under Pulumi's mocks. Each `__provider`
 * (stored in the resource's inputs and again in its outputs) is one `require` of the resource's
 * own provider module, not the provider's methods, and Pulumi's real dynamic-provider host runs
 * it: its check reaches the resource's implementation.
 */
import { RESOURCES } from "../../provider/resources/registry";
import { closeAll, consumerWithHost, type Consumer } from "../../tools/harness/consumer";
import { urn, type PropertyMap } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";

/** Room for a `require` of the module; the methods serialized by value would not fit. */
const MOST_BYTES = 512;

jest.setTimeout(120_000);

let consumer: Consumer;
let host: Host;

beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 180_000);

afterAll(() => closeAll(host, consumer));

/** The inputs the program registers for one resource of each kind, by class name. */
async function registeredAll(): Promise<Map<string, PropertyMap>> {
  const types = RESOURCES.map((r) => r.type);
  // Every connection kind's URLs and account: what one kind does not read is left to check.
  const args = {
    adminUrl: "https://gis.example.com:6443/arcgis/admin",
    siteAdminUrl: "https://gis.example.com:6443/arcgis/admin",
    sharingUrl: "https://gis.example.com/portal/sharing/rest",
    username: "siteadmin",
    password: "state-Size-Pw-57",
  };
  const registrations = await consumer.runProgram(`
    const arcgis = require("pulumi-arcgis-admin");
    for (const type of ${JSON.stringify(types)}) new arcgis[type](type, ${JSON.stringify(args)});
  `);
  return new Map(registrations.map((r) => [r.name, r.inputs]));
}

/** The serialized provider a resource of this type registered. */
function textOf(registered: Map<string, PropertyMap>, type: string): string {
  return registered.get(type)?.__provider as string;
}

it("records each resource's provider as a require of its module in the installed package", async () => {
  const registered = await registeredAll();
  const texts = RESOURCES.map(({ type }) => [type, textOf(registered, type)] as const);
  expect(texts.filter(([, text]) => Buffer.byteLength(text) > MOST_BYTES)).toEqual([]);
  for (const { type, folder } of RESOURCES) {
    expect(textOf(registered, type)).toContain(
      `require("pulumi-arcgis-admin/dist/provider/resources/${folder}/provider.js")`,
    );
  }
});

it("runs that provider in the real dynamic-provider host: check answers the resource's own failures", async () => {
  const registered = await registeredAll();
  for (const { type } of RESOURCES) {
    // No inputs at all: the resource's own check names what is missing.
    const result = await host.check(urn(type), {}, { __provider: textOf(registered, type) });
    expect({ type, failed: (result.failures ?? []).length > 0 }).toEqual({ type, failed: true });
  }
});
