/**
 * examples/team through the real engine from the packed package, with the stack's state in an
 * S3-compatible store (SeaweedFS, the tests' object store) as a team keeps it: two pipelines that
 * start `pulumi up` of one stack at once, from two checkouts (two "runners"), end with one
 * createNewSite and a consistent stack (the second waits for nothing: the backend's lock refuses
 * it, or it finds the work done; when the lock refuses both, running one again creates the site);
 * two stacks deploy in parallel on one backend; each backup is in the store.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startTestObjectStore, type TestObjectStore } from "../../tools/harness/object-store";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";

// Several CLI runs at once; on a loaded machine one can take 30 s or more.
jest.setTimeout(600_000);

const EXAMPLE = { dir: path.join(REPO_ROOT, "examples", "team"), entry: "index.ts" };
const SITE = { username: "siteadmin", password: "team-Site-Pass-4" };

let store: TestObjectStore;
const emulators: TestEmulator[] = [];
const stacks: RealStack[] = [];

beforeAll(async () => {
  store = await startTestObjectStore(["pulumi-state", "backups"]);
}, 600_000);
afterAll(async () => {
  for (const s of stacks) await s.cleanup();
  for (const e of emulators) await e.close();
  await store?.stop();
});

/** The DIY backend URL of the store's state bucket (Pulumi's gocloud s3 URL options). */
function backendUrl(): string {
  const endpoint = new URL(store.endpoint);
  return (
    `s3://pulumi-state?endpoint=${endpoint.host}&disableSSL=true&s3ForcePathStyle=true` +
    `&region=${store.region}`
  );
}

/**
 * A runner: its own checkout of the example (a consumer project) on the shared backend, or the
 * checkout of an earlier runner (`like`), for another stack.
 */
async function runner(stack: string, like?: RealStack): Promise<RealStack> {
  // The passphrase, as the example's README: a second checkout finds it in the environment.
  const s = (await RealStack.create(stack, like?.consumer, EXAMPLE))
    .useBackend(backendUrl(), {
      AWS_ACCESS_KEY_ID: store.accessKeyId,
      AWS_SECRET_ACCESS_KEY: store.secretAccessKey,
      AWS_REGION: store.region,
    })
    .usePassphrase();
  stacks.push(s);
  return s;
}

async function emulator(createDelayMs: number): Promise<TestEmulator> {
  const emu = await startTestEmulator({ createDelayMs, exportDelayMs: 200 });
  emulators.push(emu);
  return emu;
}

function configFor(emu: TestEmulator, prefix: string): Record<string, ConfigValue> {
  return {
    "arcgis-admin:adminUrl": { value: emu.adminUrl },
    "arcgis-admin:username": { value: SITE.username },
    "arcgis-admin:password": { value: SITE.password, secret: true },
    "arcgis-admin:caCert": { value: emu.caCert! },
    backupUrl: { value: `s3://backups/${prefix}/` },
    objectStoreEndpoint: { value: store.endpoint },
  };
}

it("two pipelines that start one stack at once end with one createNewSite and a consistent stack", async () => {
  const emu = await emulator(5_000);
  const config = configFor(emu, "prod");
  const [first, second] = [await runner("prod"), await runner("prod")];
  // The team made the stack once (`pulumi stack init prod`); a preview sends nothing to the server.
  await first.mustRun("preview", { config });
  expect(emu.stats().createNewSiteRequests).toBe(0);
  const runs = await Promise.all([
    first.run("up", { config, timeoutMs: 300_000 }),
    second.run("up", { config, timeoutMs: 300_000 }),
  ]);
  const failed = runs.filter((r) => !r.ok);
  // A refused run is refused by the backend's lock, never by a second createNewSite. Both can be:
  // Pulumi's file-like backends write their lock, then look for another's, so two takers at one
  // moment can each find the other's and both back off (`Lock`, pkg/backend/diy/lock.go).
  for (const r of failed) expect(`${r.output}${r.error ?? ""}`).toMatch(/currently locked/);
  expect(emu.stats().createNewSiteRequests).toBe(failed.length === 2 ? 0 : 1);
  // Both refused: the team runs a pipeline again.
  if (failed.length === 2) await first.mustRun("up", { config, timeoutMs: 300_000 });
  expect(emu.stats().createNewSiteRequests).toBe(1);
  // The stack is consistent: either runner's next `up` finds nothing to do.
  const again = await second.mustRun("up", { config, options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 3 });
  expect(emu.stats().createNewSiteRequests).toBe(1);
  expect(await store.keys("backups", "prod/")).toHaveLength(1);
});

it("two stacks deploy in parallel on one backend, each with its site and its backup", async () => {
  const [emuA, emuB] = [await emulator(1_000), await emulator(1_000)];
  // The two checkouts of the first test, one stack each.
  const [a, b] = [await runner("site-a", stacks[0]), await runner("site-b", stacks[1])];
  const [upA, upB] = await Promise.all([
    a.mustRun("up", { config: configFor(emuA, "site-a"), timeoutMs: 300_000 }),
    b.mustRun("up", { config: configFor(emuB, "site-b"), timeoutMs: 300_000 }),
  ]);
  expect(upA.changeSummary).toEqual({ create: 3 });
  expect(upB.changeSummary).toEqual({ create: 3 });
  expect(emuA.stats().createNewSiteRequests).toBe(1);
  expect(emuB.stats().createNewSiteRequests).toBe(1);
  for (const [stack, up] of [
    ["site-a", upA],
    ["site-b", upB],
  ] as const) {
    const keys = await store.keys("backups", `${stack}/`);
    expect(keys).toHaveLength(1);
    const { sha256 } = await store.digest("backups", keys[0]!);
    expect(up.outputs?.backupSha256).toBe(sha256);
  }
});
