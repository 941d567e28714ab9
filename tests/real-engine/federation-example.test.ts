/**
 * examples/federation with the Pulumi CLI in its own folder of the repository, as its README runs
 * it on a fresh clone: `pulumi stack init`, `pulumi config set` (passwords on stdin), `pulumi up`
 * (the Node.js language host runs index.ts, which imports the package by name), an unchanged
 * `pulumi up`, and `pulumi destroy`, which unfederates the server and leaves the site.
 */
import * as path from "node:path";
import { createPortalSession, federatedServers } from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";

jest.setTimeout(300_000);

const PORTAL_ADMIN = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;
let project: CliProject;

beforeAll(async () => {
  [emu, project] = await Promise.all([
    startTestEmulator({ createDelayMs: 50 }),
    CliProject.inRepo(path.join(REPO_ROOT, "examples", "federation")),
  ]);
}, 240_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
});

it("federates the site's server with pulumi up, changes nothing the second time, and unfederates on destroy", async () => {
  // A stack name of its own: its config file in the repository's folder is removed afterwards.
  await project.mustCli(["stack", "init", "federation-example-test"]);
  for (const [key, value] of Object.entries({
    "arcgis-admin:adminUrl": emu.adminUrl,
    "arcgis-admin:username": "siteadmin",
    "arcgis-admin:sharingUrl": emu.sharingUrl,
    "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
  })) {
    await project.mustCli(["config", "set", key, value]);
  }
  await project.mustCli(["config", "set", "arcgis-admin:caCert", "--", emu.caCert!]);
  await project.mustCli(
    ["config", "set", "--secret", "arcgis-admin:password"],
    undefined,
    "fed-Site-1",
  );
  await project.mustCli(
    ["config", "set", "--secret", "arcgis-admin:portalPassword"],
    undefined,
    PORTAL_ADMIN.password,
  );

  const up = await project.deploy("up");
  expect(up.changeSummary).toEqual({ create: 3 });
  const outputs = up.outputs!;
  expect(outputs.federationState).toBe("federated");
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL_ADMIN,
    tls: { caCert: emu.caCert! },
  });
  expect(await federatedServers(portal)).toEqual([
    expect.objectContaining({ id: outputs.serverId, serverFunction: "MissionServer" }),
  ]);

  // The second run and destroy skip their preview: only the first `up` is the README's command.
  const again = await project.deploy("up", [], { skipPreview: true });
  expect(again.changeSummary).toEqual({ same: 3 });

  const destroyed = await project.deploy("destroy", [], { skipPreview: true });
  expect(destroyed.changeSummary).toEqual({ delete: 3 });
  expect(await federatedServers(portal)).toEqual([]);
  expect(emu.stats().sitesCreated).toBe(1);
});
