/**
 * PortalSite's check() against the in-process emulator: every bad field named at once (the
 * content store's rules, the security question without its answer, a URL that is no sharing
 * root), and the refusal of a portal that has its site, naming adoptExisting, before anything is
 * sent. The lifecycle's depth (lost answer, killed run, URL spelling, drift, adoption) is in
 * tests/real-engine/portal-site.test.ts, through the Pulumi CLI.
 */
import { closeDispatchers } from "../../provider/client";
import { implementation as portalSite } from "../../provider/resources/portal-site/lifecycle";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const ADMINISTRATOR = {
  username: "portaladmin",
  password: "check-Portal-Pass-5",
  fullName: "Portal Administrator",
  email: "gis-admins@example.com",
};

let emu: TestEmulator | undefined;

afterEach(async () => {
  await emu?.close();
  emu = undefined;
});
afterAll(() => closeDispatchers());

const creates = (e: TestEmulator) =>
  e.requestLog().filter((r) => r.url.endsWith("/portaladmin/createNewSite")).length;

describe("PortalSite check()", () => {
  it("names every bad field at once: the sharing root, a token, the content store's provider and directory, the security answer", async () => {
    const result = await portalSite.check(
      {},
      {
        sharingUrl: "https://portal.example.com/arcgis/portaladmin",
        ...ADMINISTRATOR,
        token: "a-token",
        securityQuestionIdx: 2,
        contentStore: { type: "fileStore", provider: "Amazon", connectionString: { a: "b" } },
      },
    );
    expect(result.failures?.map((f) => f.property).sort()).toEqual([
      "contentStore.connectionString",
      "contentStore.provider",
      "securityAnswer",
      "sharingUrl",
      "token",
    ]);
  });

  it("refuses a portal that has its site, naming adoptExisting, and sends nothing; with adoptExisting it passes", async () => {
    emu = await startTestEmulator({ tls: false });
    const inputs = {
      sharingUrl: emu.sharingUrl,
      ...ADMINISTRATOR,
      contentStore: { connectionString: "/arcgis/content" },
    };
    const refused = await portalSite.check({}, inputs);
    expect(refused.failures).toEqual([
      {
        property: "adoptExisting",
        reason: expect.stringMatching(/has its site already[\s\S]*set adoptExisting: true/),
      },
    ]);
    const adopting = await portalSite.check({}, { ...inputs, adoptExisting: true });
    expect(adopting.failures ?? []).toEqual([]);
    expect(creates(emu)).toBe(0);
  });

  it("lets a portal in no site through, with the content store's defaults filled in", async () => {
    emu = await startTestEmulator({ tls: false, portalNoSite: true });
    const result = await portalSite.check(
      {},
      { sharingUrl: emu.sharingUrl, ...ADMINISTRATOR, contentStore: { connectionString: "/c" } },
    );
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toMatchObject({
      contentStore: { type: "fileStore", provider: "FileSystem", connectionString: "/c" },
      adoptExisting: false,
    });
    expect(creates(emu)).toBe(0);
  });
});
