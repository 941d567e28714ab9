/**
 * Esri's ArcGIS API for Python 2.4.4 administers a Mission Server federated with the emulated
 * portal through `arcgis.gis.mission.MissionServer(url, gis)`: it finds the server in the portal's
 * list (`portals/self/servers`, serverType ARCGIS_MISSION_SERVER) and sends the portal's own token
 * to the server's administrative API, which a federated server accepts (emulator/admin/federated.ts).
 * Signed in both ways (default login, `use_gen_token=True`); refused once unfederated.
 */
import {
  failure,
  ok,
  runScript,
  SCRIPT_TIMEOUT_MS,
  usePortal,
} from "../../tools/harness/python-api";

describe("ArcGIS API for Python: MissionServer(url, gis) on a federated Mission Server", () => {
  const emu = usePortal();

  test(
    "reads log settings, machines and the security configuration with the portal's token",
    async () => {
      const run = await runScript(emu(), "mission_server");
      const siteUrl = emu().adminUrl.replace(/\/admin$/, "");
      const portalUrl = emu().sharingUrl.replace(/\/sharing\/rest$/, "");
      expect(ok(run, "createSite")).toEqual({ status: "success" });
      expect(ok(run, "federate")).toBe("success");
      const servers = ok(run, "servers") as { servers: Array<{ id: string }> };
      const id = servers.servers[0]?.id;

      for (const suffix of ["", "GenToken"]) {
        expect(ok(run, `logSettings${suffix}`)).toEqual(
          expect.objectContaining({
            logLevel: expect.any(String),
            maxLogFileAge: expect.any(Number),
          }),
        );
        const machines = ok(run, `machines${suffix}`) as string[];
        expect(machines).toHaveLength(1);
      }
      expect(ok(run, "securityConfig")).toEqual(
        expect.objectContaining({
          authenticationTier: "ARCGIS_PORTAL",
          portalProperties: expect.objectContaining({
            portalUrl,
            portalMode: "ARCGIS_PORTAL_FEDERATION",
            serverId: id,
            serverUrl: siteUrl,
          }),
        }),
      );
      // Unfederated, the server no longer takes the portal's token.
      expect(ok(run, "unfederate")).toBe(true);
      expect(failure(run, "logSettingsAfterUnfederate")).toMatch(/no log settings/);

      expect(run.paths).toEqual(
        expect.arrayContaining([
          "GET /portal/sharing/rest/portals/self/servers",
          "GET /arcgis/admin/logs/settings",
          "GET /arcgis/admin/machines",
          "GET /arcgis/admin/security/config",
        ]),
      );
      // Never a token of the server's own: everything went with the portal's.
      expect(run.paths).not.toContain("POST /arcgis/admin/generateToken");
    },
    SCRIPT_TIMEOUT_MS,
  );
});
