/**
 * System properties through the client, over the network against the emulator: read, and an
 * update that replaces the whole set (what is left out is gone), on ArcGIS Server and Mission
 * Server; the update is sent once, as a JSON object, in the body.
 */
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  getSystemProperties,
  updateSystemProperties,
  type AdminSession,
  type ServerType,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const ADMIN = { username: "siteadmin", password: "props-Admin-Pass-1" };

afterAll(() => closeDispatchers());

describe.each(["arcgis-server", "mission-server"] as const)(
  "system properties on %s",
  (serverType: ServerType) => {
    let emu: TestEmulator;
    let session: AdminSession;

    beforeAll(async () => {
      emu = await startTestEmulator({ serverType, createDelayMs: 0 });
      const tls = { caCert: emu.caCert! };
      await createNewSite(emu.adminUrl, { serverType, ...ADMIN }, { tls });
      session = createAdminSession({ adminUrl: emu.adminUrl, ...ADMIN, tls });
    });
    afterAll(() => emu.close());

    it("reads none on a new site, and the whole set after an update", async () => {
      expect(await getSystemProperties(session)).toEqual({});
      const before = emu.requestLog().length;
      await updateSystemProperties(session, {
        WebContextURL: "https://gis.example.com/server",
        PushIdentityToDatabase: true,
      });
      const sent = emu.requestLog().slice(before);
      expect(sent.filter((e) => e.url.includes("system/properties/update"))).toHaveLength(1);
      // The properties travel in the body, never in the URL.
      expect(sent.every((e) => !e.url.includes("WebContextURL"))).toBe(true);
      expect(await getSystemProperties(session)).toEqual({
        WebContextURL: "https://gis.example.com/server",
        PushIdentityToDatabase: true,
      });
    });

    it("replaces the set: a property left out of the update is gone", async () => {
      const current = await getSystemProperties(session);
      await updateSystemProperties(session, {
        ...current,
        WebSocketContextURL: "wss://gis.example.com/server",
      });
      expect(Object.keys(await getSystemProperties(session)).sort()).toEqual([
        "PushIdentityToDatabase",
        "WebContextURL",
        "WebSocketContextURL",
      ]);
      await updateSystemProperties(session, { WebContextURL: "https://gis.example.com/server" });
      expect(await getSystemProperties(session)).toEqual({
        WebContextURL: "https://gis.example.com/server",
      });
    });
  },
);
