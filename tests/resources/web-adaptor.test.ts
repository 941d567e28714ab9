/**
 * WebAdaptor's lifecycle (`implementation` called directly) against the emulator and its Web
 * Adaptor: check (the mode and `adminUrl` agree), create, read and delete in front of a portal
 * (the portal's `portaladmin/system/webadaptors`), another `adminAccess` configured again in place
 * (the list shows it), and a refused configuration.
 */
import * as client from "../../provider/client";
import { implementation as webAdaptor } from "../../provider/resources/web-adaptor/lifecycle";
import type { WebAdaptorOutputs } from "../../provider/resources/web-adaptor/generated";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";
import { send } from "../../tools/harness/emulator-http";
import { Agent } from "undici";

const SITE_PASSWORD = "wa-Res-Pass-3";
const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;
beforeAll(async () => {
  ({ emu } = await startTestSite(SITE_PASSWORD, {
    serverType: "arcgis-server",
    webAdaptor: { context: "portal" },
  }));
});
afterAll(async () => {
  await emu.close();
  await client.closeDispatchers();
});

const portalAdminUrl = () => emu.sharingUrl.replace(/\/sharing\/rest$/, "/portaladmin");
const portalList = (): Promise<client.RegisteredWebAdaptor[]> =>
  client.listWebAdaptors(
    client.createPortalSession({
      sharingUrl: emu.sharingUrl,
      ...PORTAL,
      tls: { caCert: emu.caCert! },
    }),
  );

function inputs(extra: Record<string, unknown> = {}) {
  return {
    mode: "portal",
    webAdaptorUrl: emu.webAdaptorUrl!,
    adminUrl: portalAdminUrl(),
    ...PORTAL,
    tls: { caCert: emu.caCert! },
    ...extra,
  };
}

async function checked(extra: Record<string, unknown> = {}) {
  const result = await webAdaptor.check({}, inputs(extra));
  expect(result.failures ?? []).toEqual([]);
  return result.inputs;
}

it("refuses at check a mode that does not match adminUrl, naming the input", async () => {
  const portalInServerMode = await webAdaptor.check({}, inputs({ mode: "server" }));
  expect(portalInServerMode.failures).toEqual([
    expect.objectContaining({ property: "mode", reason: expect.stringContaining("portal") }),
  ]);
  const serverInPortalMode = await webAdaptor.check({}, inputs({ adminUrl: emu.adminUrl }));
  expect(serverInPortalMode.failures).toEqual([
    expect.objectContaining({
      property: "adminUrl",
      reason: expect.stringContaining("/portaladmin"),
    }),
  ]);
});

it("registers with a portal: the portal lists it, requests through it reach the portal, refresh reads it, destroy unregisters it", async () => {
  const created = await webAdaptor.create(await checked());
  const outs = created.outs as WebAdaptorOutputs;
  expect(outs.state).toBe("registered");
  expect((await portalList()).map((w) => w.id)).toEqual([created.id]);
  const agent = new Agent({ connect: { ca: emu.caCert! } });
  const self = await send(agent, "GET", `${emu.webAdaptorUrl!}/sharing/rest/info?f=json`);
  await agent.close();
  expect(self.status).toBe(200);
  const read = await webAdaptor.read(created.id, outs);
  expect(read.id).toBe(created.id);
  await webAdaptor.delete(created.id, outs);
  expect(await portalList()).toEqual([]);
  expect(await webAdaptor.read(created.id, outs)).toEqual({});
});

it("another adminAccess configures it again in place; the list shows it", async () => {
  const server = {
    mode: "server",
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
  };
  const created = await webAdaptor.create(await checked(server));
  const outs = created.outs as WebAdaptorOutputs;
  expect(outs.isAdminEnabled).toBe(true);
  const news = await checked({ ...server, adminAccess: false });
  const diff = await webAdaptor.diff(created.id, outs, news);
  expect(diff.changes).toBe(true);
  expect(diff.replaces ?? []).toEqual([]);
  const updated = await webAdaptor.update(created.id, outs, news);
  expect(updated.outs).toMatchObject({ adminAccess: false, isAdminEnabled: false });
  await webAdaptor.delete(created.id, updated.outs as WebAdaptorOutputs);
});

it("a refused configuration names the Web Adaptor, shows no password, and registers nothing", async () => {
  const wrong = "not-The-Password-7";
  const failure = await webAdaptor.create(await checked({ password: wrong })).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  expect(failure?.message).toContain(emu.webAdaptorUrl!);
  expect(failure?.message).not.toContain(wrong);
  expect(await portalList()).toEqual([]);
});
