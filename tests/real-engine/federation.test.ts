/**
 * Federation through the real Pulumi engine, from the packed package: a Mission, a Notebook and a
 * Video Server site, each federated with one portal. Create, refresh after an out-of-band
 * unfederate (and up federating it again), a role and function changed in place, destroy (unfederating,
 * leaving the sites), destroy again.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createPortalSession,
  federatedServers,
  unfederateServer,
  type ServerType,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";

// A test here runs the pulumi CLI several times; on a loaded machine one run can take 30 s.
jest.setTimeout(300_000);

const PRODUCTS: Array<{ name: string; serverType: ServerType; fn: string }> = [
  { name: "mission", serverType: "mission-server", fn: "MissionServer" },
  { name: "notebook", serverType: "notebook-server", fn: "NotebookServer" },
  { name: "video", serverType: "video-server", fn: "VideoServer" },
];
const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };

const emulators: TestEmulator[] = [];
let stack: RealStack;
let config: Record<string, ConfigValue>;

/** The portal is the Mission Server emulator's. */
const portalEmu = () => emulators[0]!;
const portal = () =>
  createPortalSession({
    sharingUrl: portalEmu().sharingUrl,
    ...PORTAL,
    tls: { caCert: portalEmu().caCert! },
  });
const federates = () =>
  portalEmu()
    .requestLog()
    .filter((r) => r.url.endsWith("/federation/servers/federate")).length;

beforeAll(async () => {
  for (const p of PRODUCTS) {
    emulators.push(await startTestEmulator({ serverType: p.serverType, createDelayMs: 50 }));
  }
  stack = await RealStack.create("federation");
  fs.copyFileSync(path.join(__dirname, "federation-program.cjs"), stack.program);
  config = {
    servers: {
      value: JSON.stringify(
        PRODUCTS.map((p, i) => ({
          name: p.name,
          serverType: p.serverType,
          adminUrl: emulators[i]!.adminUrl,
          caCert: emulators[i]!.caCert,
        })),
      ),
    },
    sharingUrl: { value: portalEmu().sharingUrl },
    portalCaCert: { value: portalEmu().caCert! },
    portalUsername: { value: PORTAL.username },
    portalPassword: { value: PORTAL.password, secret: true },
    sitePassword: { value: "fed-Engine-Pass-8", secret: true },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  for (const emu of emulators) await emu.close();
  await closeDispatchers();
});

it("creates three sites and federates each once, with its product's function", async () => {
  const up = await stack.mustRun("up", { config });
  expect(up.changeSummary).toEqual({ create: 7 });
  expect(federates()).toBe(3);
  const servers = await federatedServers(portal());
  for (const [i, p] of PRODUCTS.entries()) {
    expect(servers).toContainEqual(
      expect.objectContaining({
        id: up.outputs?.[`${p.name}ServerId`],
        adminUrl: emulators[i]!.adminUrl.replace(/\/admin$/, ""),
        serverRole: "FEDERATED_SERVER",
        serverFunction: p.fn,
      }),
    );
    expect(up.outputs?.[`${p.name}State`]).toBe("federated");
  }
  const again = await stack.mustRun("up", { options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 7 });
});

it("refresh drops a federation undone out of band; up federates that server again, once", async () => {
  const outputs = (await stack.mustRun("outputs")).outputs!;
  await unfederateServer(portal(), String(outputs.missionServerId), true);
  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.changeSummary).toMatchObject({ delete: 1 });
  const up = await stack.mustRun("up");
  expect(up.changeSummary).toMatchObject({ create: 1 });
  expect(federates()).toBe(4);
  expect((await federatedServers(portal())).map((s) => s.id)).toContain(
    up.outputs?.missionServerId,
  );
});

it("a changed role and function are an update in place, sent as update, not a new federation", async () => {
  const preview = await stack.mustRun("preview", {
    config: {
      notebookFunction: { value: "NotebookServer,Extra" },
      notebookRole: { value: "FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING" },
    },
  });
  expect(preview.changeSummary).toEqual({ update: 1, same: 6 });
  const up = await stack.mustRun("up");
  expect(up.changeSummary).toEqual({ update: 1, same: 6 });
  const notebook = (await federatedServers(portal())).find(
    (s) => s.id === up.outputs?.notebookServerId,
  );
  expect(notebook).toMatchObject({
    serverFunction: "NotebookServer,Extra",
    serverRole: "FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING",
  });
  expect(federates()).toBe(4);
});

it("destroy unfederates every server and leaves the sites; destroy again finds nothing", async () => {
  const destroyed = await stack.mustRun("destroy");
  expect(destroyed.changeSummary).toEqual({ delete: 7 });
  expect(await federatedServers(portal())).toEqual([]);
  for (const emu of emulators) expect(emu.stats().sitesCreated).toBe(1);
  const again = await stack.mustRun("destroy");
  expect(again.changeSummary ?? {}).toEqual({});
});
