/**
 * Esri's ArcGIS API for Python 2.4.4 administers a federated Mission Server through its own class
 * for it, `arcgis.gis.mission.MissionServer(url, gis)`, which sends the portal's token to the
 * server: log settings, machines and the security configuration (which names the portal). Once
 * unfederated, the server no longer takes the portal's token.
 */
import type { TestEmulator } from "../helpers/emulator";
import {
  INSTALL_TIMEOUT_MS,
  ok,
  pythonApi,
  runScript,
  SCRIPT_TIMEOUT_MS,
  startPortal,
} from "./support";

describe("ArcGIS API for Python: MissionServer(url, gis) on a federated Mission Server", () => {
  let emu: TestEmulator;

  beforeAll(async () => {
    await pythonApi();
    emu = await startPortal();
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => emu?.close());

  test(
    "reads log settings, machines and the security configuration with the portal's token",
    async () => {
      const run = await runScript(emu, "mission_server");
      expect(ok(run, "createSite")).toEqual({ status: "success" });
      expect(ok(run, "federate")).toBe("success");
      expect(ok(run, "logSettings")).toEqual(
        expect.objectContaining({
          logLevel: expect.any(String),
          maxLogFileAge: expect.any(Number),
        }),
      );
      const machines = ok(run, "machines") as Array<Record<string, unknown>>;
      expect(machines).toEqual([expect.objectContaining({ machineName: expect.any(String) })]);
      expect(ok(run, "securityConfig")).toEqual(
        expect.objectContaining({
          authenticationTier: "ARCGIS_PORTAL",
          portalProperties: expect.objectContaining({ portalId: "PYAPIPORTAL1" }),
        }),
      );
      // The server's own admin token was never asked for: only the portal's.
      expect(run.paths).not.toContain("POST /arcgis/admin/generateToken");
      expect(run.paths).toEqual(
        expect.arrayContaining([
          "GET /arcgis/admin/logs/settings",
          "GET /arcgis/admin/machines",
          "GET /arcgis/admin/security/config",
        ]),
      );
      expect(ok(run, "unfederate")).toBe(true);
      expect(run.results.newMissionServerAfter).toEqual({
        error: expect.stringContaining("No registered mission server found"),
      });
      // Refused (498); the library then tries once without a token (its handle_401): 499.
      expect(run.results.securityConfigAfter).toEqual({
        error: expect.stringMatching(/Token not found|Invalid token/),
      });
    },
    SCRIPT_TIMEOUT_MS,
  );
});
