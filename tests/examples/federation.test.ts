/**
 * examples/federation through the real dynamic-provider host: its Site and Federation take both
 * connections from stack config `arcgis-admin:*`, the site is created, and its server federated
 * with the portal as a Mission Server; destroy unfederates it and leaves the site.
 */
import * as path from "node:path";
import { createPortalSession, federatedServers } from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startHost } from "../../tools/harness/host";
import { unwrapSecrets } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { checkAndCreate, runProgram } from "../../tools/harness/example-programs";
import * as selfLink from "../../scripts/self-link.cjs";

const PORTAL_ADMIN = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;
let host: Host;

beforeAll(async () => {
  selfLink.ensureSelfLink();
  emu = await startTestEmulator({ createDelayMs: 50 });
  host = await startHost(REPO_ROOT);
}, 60_000);

afterAll(async () => {
  await host?.close();
  await emu?.close();
});

it("creates the site from arcgis-admin:* config and federates it as a Mission Server; destroy unfederates it", async () => {
  const programDir = path.join(REPO_ROOT, "examples", "federation");
  const program = await runProgram({
    programDir,
    entry: "index.ts",
    pulumiYaml: path.join(programDir, "Pulumi.yaml"),
    stack: "dev",
    config: {
      "arcgis-admin:adminUrl": emu.adminUrl,
      "arcgis-admin:username": "siteadmin",
      "arcgis-admin:caCert": emu.caCert!,
      "arcgis-admin:sharingUrl": emu.sharingUrl,
      "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
    },
    secrets: {
      "arcgis-admin:password": "example-Fed-Site-1",
      "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
    },
    typeCheck: false,
  });
  // As the engine configures the default provider: with the stack's config.
  await host.configure(program.stackConfig);
  const site = await checkAndCreate(host, program.urn("mission"), program.byName("mission"));
  expect(unwrapSecrets(site.properties)).toMatchObject({ state: "created" });
  const federation = await checkAndCreate(
    host,
    program.urn("mission-federation"),
    program.byName("mission-federation"),
  );
  expect(unwrapSecrets(federation.properties)).toMatchObject({
    state: "federated",
    serverType: "mission-server",
  });
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL_ADMIN,
    tls: { caCert: emu.caCert! },
  });
  expect(await federatedServers(portal)).toEqual([
    expect.objectContaining({ id: federation.id, serverFunction: "MissionServer" }),
  ]);
  await host.delete(federation.id, program.urn("mission-federation"), federation.properties);
  expect(await federatedServers(portal)).toEqual([]);
  expect(emu.stats().sitesCreated).toBe(1);
});
