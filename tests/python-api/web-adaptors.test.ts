/**
 * Esri's ArcGIS API for Python 2.4.4 lists and unregisters the Web Adaptor an emulated Web
 * Adaptor registered with the portal (`gis.admin.system.web_adaptors`,
 * arcgis/gis/admin/_system.py): the list names its URL, `unregister` answers success, and the
 * Web Adaptor then refuses what it forwarded (emulator/web-adaptor/web-adaptor.ts).
 */
import { Agent, request } from "undici";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  INSTALL_TIMEOUT_MS,
  ok,
  PORTAL_ADMIN,
  pythonApi,
  runScript,
  SCRIPT_TIMEOUT_MS,
} from "../../tools/harness/python-api";

describe("ArcGIS API for Python: the portal's Web Adaptors", () => {
  let emu: TestEmulator | undefined;
  let agent: Agent | undefined;
  const seed = {
    portal: {
      id: "PYWAPORTAL01",
      users: [{ ...PORTAL_ADMIN, role: "org_admin" as const }],
      collaborations: [],
    },
  };
  beforeAll(async () => {
    await pythonApi();
    emu = await startTestEmulator({ seed, webAdaptor: { context: "portal" } });
    agent = new Agent({ connect: { ca: emu.caCert } });
  }, INSTALL_TIMEOUT_MS);
  afterAll(async () => {
    await agent?.close();
    await emu?.close();
  });

  const get = async (url: string): Promise<number> =>
    (await request(url, { dispatcher: agent! })).statusCode;

  test(
    "list() names the Web Adaptor the configuration page registered; unregister() ends its forwarding",
    async () => {
      const wa = emu!.webAdaptorUrl!;
      const configured = await request(`${wa}/webadaptor`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          mode: "portal",
          serverUrl: new URL(emu!.adminUrl).origin,
          ...PORTAL_ADMIN,
        }).toString(),
        dispatcher: agent!,
      });
      expect(await configured.body.json()).toEqual({ status: "success" });
      expect(await get(`${wa}/sharing/rest/info?f=json`)).toBe(200);

      const run = await runScript(emu!, "portal_web_adaptors");
      expect(ok(run, "list")).toEqual([wa]);
      expect(ok(run, "unregister")).toEqual([{ status: "success" }]);
      expect(ok(run, "listAfter")).toEqual([]);
      expect(run.paths).toContain("GET /portal/portaladmin/system/webadaptors");
      expect(await get(`${wa}/sharing/rest/info?f=json`)).toBeGreaterThanOrEqual(400);
    },
    SCRIPT_TIMEOUT_MS,
  );
});
