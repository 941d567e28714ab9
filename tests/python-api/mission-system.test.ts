/**
 * Esri's ArcGIS API for Python 2.4.4 reads and changes a federated Mission Server's system
 * resources through `MissionServer(url, gis)`, with the portal's token: `system.properties` (read
 * and update), `system.config_store`, `system.licenses`, `system.web_adaptors` (register, list),
 * `machine.list()`, `logs.settings` and `security.configuration` (read and update), each answered
 * as its source reads it (emulator/admin/system.ts, web-adaptors.ts, security.ts).
 */
import { ok, runScript, SCRIPT_TIMEOUT_MS, usePortal } from "../../tools/harness/python-api";

describe("ArcGIS API for Python: a federated Mission Server's system resources", () => {
  const emu = usePortal();

  test(
    "reads and updates them through MissionServer(url, gis)",
    async () => {
      const run = await runScript(emu(), "mission_system");
      expect(ok(run, "createSite")).toEqual({ status: "success" });
      expect(ok(run, "federate")).toBe("success");

      expect(ok(run, "propertiesNew")).toEqual({});
      expect(ok(run, "seedProperties")).toEqual({ status: "success" });
      expect(ok(run, "propertiesSeeded")).toEqual({
        WebContextURL: "https://first.example.com/mission",
      });
      expect(ok(run, "updateProperties")).toBe(true);
      expect(ok(run, "propertiesUpdated")).toEqual({
        WebContextURL: "https://second.example.com/mission",
      });

      expect(ok(run, "configStore")).toMatchObject({
        configPersistenceType: "FILESYSTEM",
        connectionString: "/arcgis/config-store",
        status: "Ready",
      });
      expect(ok(run, "licenses")).toEqual({
        features: [expect.objectContaining({ name: expect.any(String), canExpire: true })],
      });
      expect(ok(run, "webAdaptors")).toEqual({
        registered: true,
        urls: ["https://webadaptor.example.com/mission"],
      });
      expect(ok(run, "machines")).toHaveLength(1);
      expect(ok(run, "logSettings")).toMatchObject({ logLevel: expect.any(String) });

      expect(ok(run, "securityConfig")).toMatchObject({
        authenticationTier: "ARCGIS_PORTAL",
        HSTSEnabled: false,
        httpsProtocols: "TLSv1.2",
        cipherSuites: expect.any(String),
        allowedAdminAccessIPs: "",
      });
      // The setter posts every field it read, the portal's properties included, flat.
      expect(ok(run, "updateSecurity")).toBe(true);
      expect(ok(run, "securityConfigUpdated")).toMatchObject({
        authenticationTier: "ARCGIS_PORTAL",
        allowedAdminAccessIPs: "10.0.0.1",
      });

      expect(run.paths).toEqual(
        expect.arrayContaining([
          "GET /arcgis/admin/system/properties",
          "POST /arcgis/admin/system/properties/update",
          "GET /arcgis/admin/system/configStore",
          "GET /arcgis/admin/system/licenses",
          "POST /arcgis/admin/system/webadaptors/register",
          "GET /arcgis/admin/system/webadaptors",
          "GET /arcgis/admin/machines",
          "GET /arcgis/admin/logs/settings",
          "GET /arcgis/admin/security/config",
          "POST /arcgis/admin/security/config/update",
        ]),
      );
      // Never a token of the server's own: everything went with the portal's.
      expect(run.paths).not.toContain("POST /arcgis/admin/generateToken");
    },
    SCRIPT_TIMEOUT_MS,
  );
});
