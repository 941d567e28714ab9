/**
 * From the built client (dist/, as the provider host loads it): an export streamed to object
 * storage runs in a worker thread of its own (provider/client/transfer/off-thread.ts: a small heap, so
 * that the server's answer piles up less garbage; bench figure 9 measures the memory), and what
 * it answers or throws comes back as from the calling thread: the same result, the error classes
 * the callers match on (an expired token is renewed, a store's refusal names the fix), an abort
 * aborts it. Each case runs in a fresh Node process (Jest's sandbox does not see the process's
 * "worker" events), against a real emulator over TLS and a real store (SeaweedFS).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startTestObjectStore, type TestObjectStore } from "../../tools/harness/object-store";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { runTempDir } from "../../tools/harness/temp";

/** One case in a fresh process: counts the worker threads it starts, prints what came back. */
const CASE = `
const client = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider", "client"))});
const c = JSON.parse(process.env.OFF_THREAD_CASE);
let workers = 0;
process.on("worker", () => { workers += 1; });
const store = { ...c.store, ...(c.credentials ? { credentials: c.credentials } : {}) };
const session = client.createAdminSession({
  adminUrl: c.adminUrl, username: "siteadmin", password: "site-Password-1", tls: { caCert: c.caCert },
});
(async () => {
  const { location } = await client.exportSite(session);
  const controller = new AbortController();
  if (c.expireTokens) {
    const { request, Agent } = require(require.resolve("undici", { paths: [${JSON.stringify(REPO_ROOT)}] }));
    const dispatcher = new Agent({ connect: { ca: c.caCert } });
    const answer = await request(c.controlUrl + "/expire-tokens", { method: "POST", dispatcher });
    await answer.body.text();
    await dispatcher.close();
  }
  if (c.abortAfterMs !== undefined) setTimeout(() => controller.abort(), c.abortAfterMs);
  try {
    const result = await client.uploadExport(session, location, c.destination, store, { signal: controller.signal });
    return { workers, result };
  } catch (e) {
    return { workers, error: {
      objectStoreError: e instanceof client.ObjectStoreError,
      arcgisError: client.isArcGISRequestError(e),
      code: e.code, message: e.message,
    } };
  } finally {
    await client.closeDispatchers();
  }
})().then((r) => process.stdout.write(JSON.stringify(r) + "\\n"), (e) => { console.error(e); process.exit(1); });
`;

interface CaseAnswer {
  workers: number;
  result?: { key: string; sha256: string; sizeBytes: number };
  error?: { objectStoreError: boolean; arcgisError: boolean; code?: string; message: string };
}

let dir: string;
let caseFile: string;

/** Runs one case (asynchronously: the emulator answers from this process meanwhile). */
function runCase(options: Record<string, unknown>): Promise<CaseAnswer> {
  const config = {
    adminUrl: emu.adminUrl,
    controlUrl: emu.controlUrl,
    caCert: emu.caCert,
    store: storeSettings().objectStore,
    credentials: storeSettings().credentials,
    ...options,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [caseFile], {
      cwd: REPO_ROOT,
      env: { ...process.env, OFF_THREAD_CASE: JSON.stringify(config) },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`the case exited ${code}:\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as CaseAnswer);
    });
  });
}

const BUCKET = "worker-backups";
let store: TestObjectStore;
let emu: TestEmulator;

beforeAll(async () => {
  dir = runTempDir("off-thread-");
  caseFile = path.join(dir, "case.cjs");
  fs.writeFileSync(caseFile, CASE);
  store = await startTestObjectStore([BUCKET]);
  // 12 MiB of padding: a multipart upload, and a transfer long enough to abort midway.
  emu = await startTestEmulator({ exportDelayMs: 0, exportPaddingBytes: 12 * 1024 * 1024 });
  await site.create((await site.check({}, siteInputs(emu))).inputs);
}, 900_000);
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await emu?.close();
  await store?.stop();
});

it("streams the export in a worker thread, to an object that hashes to the reported sha256", async () => {
  const answer = await runCase({ destination: `s3://${BUCKET}/a/` });
  expect(answer.error).toBeUndefined();
  expect(answer.workers).toBe(1);
  const result = answer.result!;
  const object = await store.digest(BUCKET, result.key);
  expect(result.sha256).toBe(object.sha256);
  expect(object.metadata.sha256).toBe(result.sha256);
  expect(result.sizeBytes).toBe(object.sizeBytes);
  expect(result.sizeBytes).toBeGreaterThan(12 * 1024 * 1024);
  expect(await store.keys(BUCKET, "a/")).toEqual([result.key]);
}, 120_000);

it("renews an expired token when the worker's download is refused with 498, and streams again", async () => {
  const tokensBefore = generateTokens();
  const answer = await runCase({ destination: `s3://${BUCKET}/b/`, expireTokens: true });
  expect(answer.error).toBeUndefined();
  // The 498 crossed back as an ArcGISRequestError: the session renewed its token and tried again.
  expect(answer.workers).toBe(2);
  expect(generateTokens()).toBe(tokensBefore + 2);
  const result = answer.result!;
  expect((await store.digest(BUCKET, result.key)).sha256).toBe(result.sha256);
}, 120_000);

it("brings the store's refusal back as an ObjectStoreError that names the fix, without the secret", async () => {
  const secretAccessKey = "wrong-secret-key-for-the-worker-test";
  const answer = await runCase({
    destination: `s3://${BUCKET}/c/`,
    credentials: { accessKeyId: "nobody", secretAccessKey },
  });
  expect(answer.workers).toBe(1);
  expect(answer.error).toMatchObject({ objectStoreError: true, arcgisError: false });
  expect(answer.error!.code).toEqual(expect.any(String));
  expect(answer.error!.message).toMatch(/access denied \(\w+\): check objectStoreCredentials/);
  expect(answer.error!.message).not.toContain(secretAccessKey);
  expect(await store.keys(BUCKET, "c/")).toEqual([]);
}, 120_000);

it("aborts the worker's transfer when the caller's signal aborts, leaving no object", async () => {
  const answer = await runCase({ destination: `s3://${BUCKET}/d/`, abortAfterMs: 20 });
  expect(answer.workers).toBe(1);
  expect(answer.error).toBeDefined();
  expect(await store.keys(BUCKET, "d/")).toEqual([]);
}, 120_000);

/** generateToken requests the emulator has received so far. */
function generateTokens(): number {
  return emu.requestLog().filter((r) => r.url.includes("/generateToken")).length;
}

function storeSettings() {
  const { objectStore, objectStoreCredentials } = store.inputs();
  return { objectStore, credentials: objectStoreCredentials };
}
