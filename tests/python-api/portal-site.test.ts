/**
 * Esri's ArcGIS API for Python 2.4.4 creates the site of an emulated portal started in no site
 * (`portalNoSite`): `Site.create` (arcgis/gis/admin/_site.py) posts `portaladmin/createNewSite`
 * and returns the answer; `GIS(url, user, password)` then signs in as the initial administrator,
 * which it cannot before; a second `Site.create` raises the portal's refusal.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  failure,
  INSTALL_TIMEOUT_MS,
  ok,
  PORTAL_ADMIN,
  pythonApi,
  runScript,
  SCRIPT_TIMEOUT_MS,
} from "../../tools/harness/python-api";

describe("ArcGIS API for Python: creating the site of a portal in no site", () => {
  let emu: TestEmulator | undefined;
  beforeAll(async () => {
    await pythonApi();
    emu = await startTestEmulator({ portalNoSite: true, portalCreateDelayMs: 0 });
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => emu?.close());

  test(
    "Site.create makes the initial administrator, who then signs in; a second create is refused",
    async () => {
      const run = await runScript(emu!, "portal_site");
      expect(failure(run, "signInBefore")).toEqual(expect.any(String));
      expect(ok(run, "createSite")).toEqual({ status: "success" });
      expect(ok(run, "signIn")).toEqual({
        username: PORTAL_ADMIN.username,
        role: "org_admin",
        isAdmin: true,
      });
      expect(failure(run, "createAgain")).toMatch(/already/);
      expect(run.paths).toContain("POST /portal/portaladmin/createNewSite");
    },
    SCRIPT_TIMEOUT_MS,
  );
});
