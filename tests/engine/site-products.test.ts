/**
 * Site creates a site on the emulator in each server product through Pulumi's real
 * dynamic-provider host (the packed package in a consumer project's node_modules), and the
 * createNewSite request it sends, captured at a recording proxy, conforms to the corpus case of
 * that product's Esri tool (the same comparison as tests/conformance/client.test.ts).
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { CASES } from "../conformance/index";
import { requestDifferences } from "../conformance/match";
import { unwrapSecrets, urn } from "../../tools/harness/property-values";
import { type Consumer, consumerWithHost, closeAll } from "../../tools/harness/consumer";
import type { Host } from "../../tools/harness/host-types";

let consumer: Consumer;
let host: Host;

beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 180_000);

afterAll(() => closeAll(host, consumer));

const createCases = CASES.filter((c) => c.client.operation === "createNewSite");

it("covers every product", () => {
  expect(new Set(createCases.map((c) => c.serverType))).toEqual(
    new Set(["mission-server", "arcgis-server", "notebook-server", "video-server"]),
  );
});

describe.each(createCases.map((c) => [c.name, c] as const))("Site as %s", (_name, c) => {
  let emu: TestEmulator;
  let proxy: FaultProxy;
  const sent: Array<{ method: string; path: string; body: string }> = [];

  beforeAll(async () => {
    emu = await startTestEmulator({
      tls: false,
      createDelayMs: 100,
      serverType: c.serverType,
      ...(c.version === undefined ? {} : { serverVersion: c.version }),
    });
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    proxy.observe((x) => {
      if (x.path.startsWith("/arcgis/admin/createNewSite")) {
        sent.push({ method: x.method, path: x.path, body: x.requestBody.toString("utf8") });
      }
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await emu?.close();
  });

  it("creates the site and sends the product's createNewSite as the case records it", async () => {
    if (c.client.operation !== "createNewSite") throw new Error("not a createNewSite case");
    const adminUrl = `${proxy.url}/arcgis/admin`;
    const args = { ...c.client.input, serverType: c.serverType, adminUrl };
    const [registration] = await consumer.runProgram(`
      const { Site } = require("pulumi-arcgis-admin");
      new Site("site", ${JSON.stringify(args)});
    `);
    const checked = await host.check(urn("site"), {}, registration!.inputs);
    expect(checked.failures).toEqual([]);
    const created = await host.create(urn("site"), checked.inputs, {
      additionalSecretOutputs: ["password"],
    });
    expect(unwrapSecrets(created.properties)).toMatchObject({
      state: "created",
      serverType: c.serverType,
      serverVersion: emu.serverVersion,
    });
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });

    expect(sent).toHaveLength(1);
    const [request] = sent;
    const received = {
      method: request!.method,
      path: request!.path.replace(/^\/arcgis/, ""),
      params: Object.fromEntries(new URLSearchParams(request!.body)),
    };
    expect(requestDifferences(c, received)).toEqual([]);
  });
});
