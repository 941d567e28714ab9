/**
 * What the conformance corpus cannot replay in one exchange: a Web Adaptor unregistered by the id
 * the list gives (Chef's `unregister_web_adaptors`, the ArcGIS API for Python's
 * `WebAdaptor.unregister`), and the refusals of the system resources (docs/emulator.md).
 */
import os from "node:os";
import { Harness } from "../../tools/harness/emulator-http";

describe("system resources", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await Harness.start({ serverType: "mission-server" });
    await h.createSite();
    token = await h.adminToken();
  });
  afterAll(async () => {
    await h.close();
  });

  it("unregisters a Web Adaptor by the id the list gives; an unknown id is code 404", async () => {
    const registered = await h.admin("system/webadaptors/register", {
      token,
      machineName: "wa.example.com",
      machineIP: "10.0.0.9",
      webAdaptorURL: "https://gis.example.com/mission",
      httpPort: "80",
      httpsPort: "443",
    });
    expect(registered.json).toEqual({ status: "success" });
    const listed = await h.admin("system/webadaptors", { token });
    const [adaptor] = listed.json.webAdaptors as Array<{ id: string }>;
    const gone = await h.admin(`system/webadaptors/${adaptor!.id}/unregister`, { token });
    expect(gone.json).toEqual({ status: "success" });
    expect((await h.admin("system/webadaptors", { token })).json).toEqual({ webAdaptors: [] });
    const again = await h.admin(`system/webadaptors/${adaptor!.id}/unregister`, { token });
    expect(again.json).toMatchObject({ error: { code: 404 } });
  });

  it("refuses a properties update without a JSON object, naming the parameter", async () => {
    for (const properties of [undefined, "[1]", "{not json"]) {
      const answer = await h.admin(
        "system/properties/update",
        properties === undefined ? { token } : { token, properties },
      );
      expect(answer.json).toMatchObject({ error: { code: 400 } });
      expect(answer.json.error.message).toContain("'properties'");
    }
  });

  it("serves ArcGIS Server's services directory, local, machine state and cluster removal only on ArcGIS Server", async () => {
    // The emulator's default machine name is the host's (emulator/core/options.ts).
    const machine = `machines/${os.hostname()}`;
    for (const resource of [
      "local",
      "system/handlers/rest/servicesdirectory",
      `${machine}/status`,
      `${machine}/stop`,
      `${machine}/start`,
      "clusters/default/machines/remove",
    ]) {
      const answer = await h.admin(resource, { token });
      expect(answer.json).toMatchObject({ error: { code: 404 } });
    }
  });
});
