/**
 * Replays each flow (tests/conformance/flows/) against the emulator with a plain HTTP client, as
 * its source sends it: the emulator's answers must lead the tool down the path a real server
 * would, request by request.
 */
import * as fs from "node:fs";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { replayFlow } from "./flow";
import { ansibleArcgisServerCreateSiteFlow as flow } from "./flows/ansible-arcgis-server-create-site";

describe(`${flow.name} (Ansible arcgis.server.create_site)`, () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ serverType: flow.serverType });
  });
  afterAll(async () => {
    await emu.close();
    fs.rmSync(emu.dataDir, { recursive: true, force: true });
  });

  const serverUrl = (): string => emu.adminUrl.replace(/\/admin$/, "");
  const creations = (): number =>
    emu.requestLog().filter((r) => r.url.includes("/admin/createNewSite")).length;

  it("on a machine in no site, goes through every step to createNewSite, which creates the site", async () => {
    const replay = await replayFlow(flow, serverUrl(), emu.caCert);
    expect(replay.sent).toEqual([
      "GET /admin/",
      "GET /admin/upgrade",
      "GET /admin/",
      "POST /admin/createNewSite",
    ]);
    expect(replay.endedAt).toBeUndefined();
    expect(creations()).toBe(1);
  });

  it("once the site exists, stops at site_exists without a second createNewSite", async () => {
    const replay = await replayFlow(flow, serverUrl(), emu.caCert);
    expect(replay.sent).toEqual(["GET /admin/", "GET /admin/upgrade", "GET /admin/"]);
    expect(replay.endedAt).toBe(3);
    expect(creations()).toBe(1);
  });

  it("names its source files at one commit", () => {
    const commits = new Set(flow.sources.map((s) => ("commit" in s ? s.commit : undefined)));
    expect(commits.size).toBe(1);
    expect([...commits][0]).toMatch(/^[0-9a-f]{40}$/);
  });
});
