/**
 * examples/multi-machine run as `pulumi up` would run it (in its folder, under mocks, see
 * tools/harness/example-programs.ts), its resources replayed through Pulumi's real
 * dynamic-provider host against two emulated machines of one process: the site is created on the
 * first, the second joins it, a refresh keeps both, and destroy unregisters the second machine and
 * leaves the site running.
 */
import * as path from "node:path";
import { createAdminSession, listMachines } from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startHost } from "../../tools/harness/host";
import { unwrapSecrets } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { checkAndCreate, runProgram } from "../../tools/harness/example-programs";
import * as selfLink from "../../scripts/self-link.cjs";

const SITE_ADMIN = { username: "siteadmin", password: "example-Site-1" };

let first: TestEmulator;
let second: TestEmulator;
let host: Host;

beforeAll(async () => {
  selfLink.ensureSelfLink();
  first = await startTestEmulator({ machineName: "gis1", createDelayMs: 200 });
  // One CA for both machines, so that the example's single caCert trusts both.
  const certFile = first.caCertFile!;
  second = await startTestEmulator({
    machineName: "gis2",
    joinDelayMs: 200,
    joinPollAfterSeconds: 1,
    tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") },
  });
  host = await startHost(REPO_ROOT);
}, 60_000);

afterAll(async () => {
  await host?.close();
  await second?.close();
  await first?.close();
});

describe("examples/multi-machine", () => {
  it("creates the site on the first machine, joins the second, and unregisters it on destroy", async () => {
    const programDir = path.join(REPO_ROOT, "examples", "multi-machine");
    const program = await runProgram({
      programDir,
      entry: "index.ts",
      pulumiYaml: path.join(programDir, "Pulumi.yaml"),
      stack: "dev",
      config: {
        "arcgis-admin:adminUrl": first.adminUrl,
        "arcgis-admin:username": SITE_ADMIN.username,
        "arcgis-admin:caCert": first.caCert!,
        secondMachineAdminUrl: second.adminUrl,
        secondMachineName: "gis2",
      },
      secrets: { "arcgis-admin:password": SITE_ADMIN.password },
      typeCheck: false,
    });
    expect(program.registrations.map((r) => r.name)).toEqual(["site", "second"]);
    // As the engine configures the default provider: with the stack's config.
    await host.configure(program.stackConfig);

    const site = await checkAndCreate(host, program.urn("site"), program.byName("site"));
    expect(unwrapSecrets(site.properties)).toMatchObject({ state: "created" });
    const joined = await checkAndCreate(host, program.urn("second"), program.byName("second"));
    expect(unwrapSecrets(joined.properties)).toMatchObject({
      state: "joined",
      machines: ["gis1", "gis2"],
    });

    const refreshed = await host.read(
      joined.id,
      program.urn("second"),
      joined.properties,
      joined.inputs,
    );
    expect(refreshed.id).toBe(joined.id);

    // Destroy in dependency order: the machine first, then the site (left running).
    await host.delete(joined.id, program.urn("second"), joined.properties);
    await host.delete(site.id, program.urn("site"), site.properties);
    const session = createAdminSession({
      adminUrl: first.adminUrl,
      ...SITE_ADMIN,
      tls: { caCert: first.caCert! },
    });
    expect(await listMachines(session)).toEqual(["gis1"]);
  });
});
