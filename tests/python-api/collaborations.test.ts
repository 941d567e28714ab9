/**
 * Esri's ArcGIS API for Python 2.4.4 manages the emulated portal's distributed collaborations
 * (`gis.admin.collaborations`): list (paged `collaborations`), get (a collaboration's resource),
 * delete as the host, delete as a guest (refused), removeParticipation as a guest.
 */
import { portalSeed } from "../../tools/harness/emulator";
import {
  failure,
  ok,
  PORTAL_ADMIN,
  runScript,
  SCRIPT_TIMEOUT_MS,
  usePortal,
} from "../../tools/harness/python-api";

describe("ArcGIS API for Python: collaborations of the emulated portal", () => {
  const emu = usePortal(portalSeed([{ ...PORTAL_ADMIN, role: "org_admin" }], "PYAPIPORTAL1"));

  test(
    "lists, reads, deletes and leaves collaborations",
    async () => {
      const run = await runScript(emu(), "collaborations");
      expect(ok(run, "list")).toEqual([
        ["hosted1", "Regional partners"],
        ["hosted2", "Second"],
        ["joined1", "State data hub"],
      ]);
      expect(ok(run, "get")).toEqual({
        id: "hosted1",
        name: "Regional partners",
        host: "PYAPIPORTAL1",
      });
      expect(failure(run, "getUnknown")).toMatch(
        /Collaboration with id 'no-such-collaboration' does not exist/,
      );
      expect(ok(run, "deleteHosted")).toBe(true);
      expect(failure(run, "deleteAsGuest")).toMatch(/removeParticipation/);
      expect(ok(run, "removeParticipation")).toEqual({ success: true });
      expect(ok(run, "listAfter")).toEqual(["hosted1"]);
      expect(run.paths).toEqual(
        expect.arrayContaining([
          "GET /portal/sharing/rest/portals/PYAPIPORTAL1/collaborations",
          "POST /portal/sharing/rest/portals/PYAPIPORTAL1/collaborations/hosted1",
          "POST /portal/sharing/rest/portals/PYAPIPORTAL1/collaborations/hosted2/delete",
          "POST /portal/sharing/rest/portals/PYAPIPORTAL1/collaborations/joined1/removeParticipation",
        ]),
      );
    },
    SCRIPT_TIMEOUT_MS,
  );
});
