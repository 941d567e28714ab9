/**
 * Esri's ArcGIS API for Python 2.4.4 signs in to the emulated portal: `GIS(url, user, password)`
 * through the portal's built-in OAuth2 sign-in (its default: oauth2/authorize, the sign-in form's
 * post, the token in the redirect's fragment), and with `use_gen_token=True` through
 * generateToken; then reads portals/self, community/users/<name> and the portaladmin root
 * (`gis.admin`). A wrong password is refused in both.
 */
import {
  failure,
  ok,
  PORTAL_ADMIN,
  runScript,
  SCRIPT_TIMEOUT_MS,
  usePortal,
} from "../../tools/harness/python-api";

describe("ArcGIS API for Python: signing in to the emulated portal", () => {
  const emu = usePortal();

  const signedIn = {
    username: PORTAL_ADMIN.username,
    role: "org_admin",
    portalName: "Portal for ArcGIS",
    portalId: "PYAPIPORTAL1",
    isAdmin: true,
  };

  test(
    "GIS(url, user, password) signs in through the portal's OAuth2 sign-in by default",
    async () => {
      const run = await runScript(emu(), "sign_in");
      expect(ok(run, "signIn")).toEqual({ ...signedIn, auth: "EsriBuiltInAuth" });
      expect(run.paths).toEqual(
        expect.arrayContaining([
          "GET /portal/sharing/rest/info",
          "GET /portal/sharing/rest/oauth2/authorize",
          "POST /portal/sharing/oauth2/signin",
          "GET /portal/sharing/rest/portals/self",
          `GET /portal/sharing/rest/community/users/${PORTAL_ADMIN.username}`,
          "GET /portal/portaladmin",
        ]),
      );
      // The library falls back to the code grant, whose sign-in page refuses it too.
      expect(failure(run, "wrongPassword")).toMatch(/Invalid username or password/);
      // The code grant itself: the code on the out-of-band page, exchanged and refreshed.
      expect(ok(run, "codeGrant")).toEqual({
        tokenIssued: true,
        refreshed: true,
        hasRefreshToken: true,
      });
      expect(run.paths).toContain("POST /portal/sharing/rest/oauth2/token");
    },
    SCRIPT_TIMEOUT_MS,
  );

  test(
    "GIS(..., use_gen_token=True) signs in with generateToken",
    async () => {
      const run = await runScript(emu(), "sign_in", ["--gen-token"]);
      expect(ok(run, "signIn")).toEqual({ ...signedIn, auth: "EsriGenTokenAuth" });
      expect(run.paths).toEqual(
        expect.arrayContaining([
          "GET /portal/sharing/rest/info",
          "POST /portal/sharing/rest/generateToken",
          "GET /portal/sharing/rest/portals/self",
          `GET /portal/sharing/rest/community/users/${PORTAL_ADMIN.username}`,
        ]),
      );
      expect(run.paths).not.toContain("GET /portal/sharing/rest/oauth2/authorize");
      expect(failure(run, "wrongPassword")).toMatch(/Invalid username or password/);
    },
    SCRIPT_TIMEOUT_MS,
  );
});
