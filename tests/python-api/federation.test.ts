/**
 * Esri's ArcGIS API for Python 2.4.4 creates a site on the emulated Mission Server
 * (`arcgis.gis.server.Server._create`: createNewSite), exports it (`Server(...).site.export()`:
 * generateToken, exportSite), and federates it with the emulated portal through
 * `gis.admin.federation`: federate, servers, update, validate, validate_all, unfederate.
 */
import { ok, runScript, SCRIPT_TIMEOUT_MS, usePortal } from "../../tools/harness/python-api";

describe("ArcGIS API for Python: a site, its export and its federation", () => {
  const emu = usePortal();

  test(
    "creates the site, exports it, and federates, updates, validates and unfederates it",
    async () => {
      const run = await runScript(emu(), "federation");
      const siteUrl = emu().adminUrl.replace(/\/admin$/, "");
      expect(ok(run, "createSite")).toEqual({ status: "success" });
      const exported = ok(run, "export") as { status: string; location: string };
      expect(exported.status).toBe("success");
      expect(exported.location).toMatch(/\/arcgis\/admin\/uploads\/[0-9a-f]{32}$/);

      expect(ok(run, "federate")).toBe("success");
      const servers = ok(run, "servers") as { servers: Array<Record<string, unknown>> };
      expect(servers.servers).toEqual([
        expect.objectContaining({
          url: siteUrl,
          adminUrl: siteUrl,
          serverRole: "FEDERATED_SERVER",
          serverType: "ARCGIS_MISSION_SERVER",
        }),
      ]);
      const id = servers.servers[0]?.id;
      expect(ok(run, "update")).toEqual({ status: "success", serverId: id });
      expect(ok(run, "serversAfterUpdate")).toEqual({
        servers: [expect.objectContaining({ id, serverFunction: "MissionServer" })],
      });
      expect(ok(run, "validate")).toEqual(
        expect.objectContaining({ status: "success", serverId: id, adminUrl: siteUrl }),
      );
      expect(ok(run, "validateAll")).toEqual({
        status: "success",
        serversStatus: [expect.objectContaining({ status: "success", serverId: id })],
      });
      expect(ok(run, "unfederate")).toBe(true);
      expect(ok(run, "serversAfter")).toEqual({ servers: [] });
      expect(run.paths).toEqual(
        expect.arrayContaining([
          "POST /arcgis/admin/createNewSite",
          "POST /arcgis/admin/generateToken",
          "POST /arcgis/admin/exportSite",
          "POST /portal/portaladmin/federation/servers/federate",
          "GET /portal/portaladmin/federation/servers",
          `POST /portal/portaladmin/federation/servers/${String(id)}/update`,
          `GET /portal/portaladmin/federation/servers/${String(id)}/validate`,
          "GET /portal/portaladmin/federation/servers/validate",
          `POST /portal/portaladmin/federation/servers/${String(id)}/unfederate`,
        ]),
      );
    },
    SCRIPT_TIMEOUT_MS,
  );
});
