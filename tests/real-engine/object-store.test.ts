/**
 * SiteExport to S3-compatible object storage through the real Pulumi engine, from the packed
 * package installed in a consumer project, against the emulator and a real store (SeaweedFS,
 * tools/harness/object-store.ts): `up` writes the archive to the store with its SHA-256 as the
 * output and the object's metadata, the store's secret key stays encrypted in state, `refresh`
 * after the object is deleted drops the export, and `destroy` keeps the object unless the stack
 * opted in; a SiteImport restores the uploaded object into another site, once; an export killed
 * after its archive reached its final key leaves that archive, which no stack records.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createAdminSession, editLogSettings, getLogSettings } from "../../provider/client";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startTestObjectStore, type TestObjectStore } from "../../tools/harness/object-store";
import { startS3Proxy } from "../../tools/harness/s3-proxy";
import { killedUp, recover } from "../../tools/harness/killed-run";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

// Each test runs the pulumi CLI several times; on a loaded machine one run can take 30 s.
jest.setTimeout(300_000);

const SITE_PASSWORD = "site-Object-Store-Pw-1";
const BUCKET = "backups";
let emu: TestEmulator;
let store: TestObjectStore;
const stacks: RealStack[] = [];

beforeAll(async () => {
  store = await startTestObjectStore([BUCKET]);
  emu = await startTestEmulator({ createDelayMs: 0, exportDelayMs: 0 });
  await site.create(
    (await site.check({}, siteInputs(emu, { password: SITE_PASSWORD, runAsync: false }))).inputs,
  );
}, 900_000);

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  await emu?.close();
  await store?.stop();
});

async function stackWith(name: string): Promise<RealStack> {
  const stack = await RealStack.create(name);
  stacks.push(stack);
  fs.copyFileSync(path.join(__dirname, "object-store-program.cjs"), stack.program);
  return stack;
}

function config(extra: Record<string, ConfigValue>): Record<string, ConfigValue> {
  return {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    s3Endpoint: { value: store.endpoint },
    ...extra,
  };
}

const keyOf = (objectUrl: unknown) => String(objectUrl).slice(`s3://${BUCKET}/`.length);

it("writes the archive to the store with its sha256, keeps the secret key encrypted, notices a deleted object on refresh, and keeps the object on destroy", async () => {
  const stack = await stackWith("upload");
  const settings = config({
    uploadTo: { value: `s3://${BUCKET}/real-engine/` },
    s3AccessKeyId: { value: store.accessKeyId },
  });
  // A plain value in the program (not a Pulumi secret, not in the stack's config): only the
  // resource can keep it out of the state in plain text.
  process.env.TEST_S3_SECRET_ACCESS_KEY = store.secretAccessKey;
  const up = await stack.mustRun("up", { config: settings });
  const { objectUrl, sha256, sizeBytes } = up.outputs as Record<string, unknown>;
  expect(objectUrl).toMatch(/^s3:\/\/backups\/real-engine\/\d{8}-\d{6}-UTC.*\.agssite$/);
  const object = await store.digest(BUCKET, keyOf(objectUrl));
  expect(object.sha256).toBe(sha256);
  expect(object.metadata.sha256).toBe(sha256);
  expect(object.sizeBytes).toBe(sizeBytes);

  // The store's secret key: encrypted in state, nowhere in plain text in the backend's files.
  const exported = await stack.mustRun("export");
  const backup = stateResources(exported.state).find((r) => r.urn.endsWith("::backup"))!;
  expect(backup.outputs?.objectStoreCredentials).toMatchObject({ ciphertext: expect.any(String) });
  for (const { file, text } of stack.backendFiles()) {
    if (text.includes(store.secretAccessKey)) throw new Error(`${file} holds the secret key`);
  }
  expect(up.output).not.toContain(store.secretAccessKey);

  // Unchanged: a refresh changes nothing. Deleted behind the stack's back: dropped from state.
  expect((await stack.mustRun("refresh")).changeSummary).toEqual({ same: 2 });
  await store.deleteObject(BUCKET, keyOf(objectUrl));
  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.output).toMatch(/is gone from the object store/);
  const after = await stack.mustRun("export");
  expect(stateResources(after.state).some((r) => r.urn.endsWith("::backup"))).toBe(false);

  // The next up exports again; destroy keeps that archive.
  const again = await stack.mustRun("up", { config: settings });
  const second = keyOf((again.outputs as Record<string, unknown>).objectUrl);
  await stack.mustRun("destroy");
  expect(await store.exists(BUCKET, second)).toBe(true);
  delete process.env.TEST_S3_SECRET_ACCESS_KEY;
});

it("takes credentials from the AWS environment, and deletes the object on destroy only when opted in", async () => {
  const stack = await stackWith("opted-in");
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, key: process.env.AWS_SECRET_ACCESS_KEY };
  // The CLI and the provider host inherit the environment the stack runs with.
  process.env.AWS_ACCESS_KEY_ID = store.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = store.secretAccessKey;
  try {
    const settings = config({
      uploadTo: { value: `s3://${BUCKET}/opted-in` },
      deleteBackupOnDestroy: { value: "true" },
    });
    const up = await stack.mustRun("up", { config: settings });
    const key = keyOf((up.outputs as Record<string, unknown>).objectUrl);
    expect(key).toMatch(/^opted-in\//);
    expect(await store.exists(BUCKET, key)).toBe(true);
    await stack.mustRun("destroy");
    expect(await store.exists(BUCKET, key)).toBe(false);
  } finally {
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.key === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.key;
  }
});

it("an export killed after its copy to the final key leaves that archive, recorded by no stack: the recovered up exports again, and destroy removes only its own", async () => {
  // The upload's temporary object is removed once the archive is under its final key: the proxy
  // holds that removal until the CLI has been killed there.
  let killedNow: () => void = () => undefined;
  const proxy = await startS3Proxy({
    target: store.endpoint,
    credentials: { ...store.inputs().objectStoreCredentials, region: store.region },
    writeDelayMs: 0,
    holdPartDeletes: new Promise<void>((resolve) => (killedNow = resolve)),
  });
  const stack = await stackWith("killed-export");
  process.env.TEST_S3_SECRET_ACCESS_KEY = store.secretAccessKey;
  try {
    const prefix = "killed-export/";
    const settings = config({
      uploadTo: { value: `s3://${BUCKET}/${prefix}` },
      s3Endpoint: { value: proxy.url },
      s3AccessKeyId: { value: store.accessKeyId },
      deleteBackupOnDestroy: { value: "true" },
    });
    const killed = await killedUp(stack, settings, () => proxy.partDeletes() === 1);
    killedNow();
    expect(killed.ok).toBe(false);
    const archives = async () =>
      (await store.keys(BUCKET, prefix)).filter((key) => key.endsWith(".agssite"));
    const [left, ...others] = await archives();
    expect(others).toEqual([]);
    expect((await store.digest(BUCKET, left!)).metadata.sha256).toEqual(expect.any(String));

    await recover(stack);
    const up = await stack.mustRun("up", { config: settings });
    const own = keyOf((up.outputs as Record<string, unknown>).objectUrl);
    expect(own).not.toBe(left);
    expect((await archives()).sort()).toEqual([left, own].sort());
    await stack.mustRun("destroy", { config: settings });
    expect(await archives()).toEqual([left]);
  } finally {
    delete process.env.TEST_S3_SECRET_ACCESS_KEY;
    await proxy.close();
  }
});

it("restores the uploaded object into another site with a SiteImport, once", async () => {
  const target = await startTestEmulator({ createDelayMs: 0, importDelayMs: 0 });
  try {
    await site.create(
      (await site.check({}, siteInputs(target, { password: SITE_PASSWORD, runAsync: false })))
        .inputs,
    );
    const sessionOf = (e: TestEmulator) =>
      createAdminSession({
        adminUrl: e.adminUrl,
        username: "siteadmin",
        password: SITE_PASSWORD,
        tls: { caCert: e.caCert },
      });
    // The exported site logs at WARNING, the target at DEBUG: the restore brings WARNING.
    for (const [e, logLevel] of [
      [emu, "WARNING"],
      [target, "DEBUG"],
    ] as const) {
      const s = sessionOf(e);
      await editLogSettings(s, { ...(await getLogSettings(s)), logLevel });
    }
    const stack = await stackWith("restore");
    process.env.TEST_S3_SECRET_ACCESS_KEY = store.secretAccessKey;
    const settings = config({
      uploadTo: { value: `s3://${BUCKET}/restore/` },
      s3AccessKeyId: { value: store.accessKeyId },
      restoreAdminUrl: { value: target.adminUrl },
      restoreCaCert: { value: target.caCert! },
    });
    const up = await stack.mustRun("up", { config: settings });
    const { objectUrl, sha256, fingerprint } = up.outputs as Record<string, unknown>;
    const object = await store.digest(BUCKET, keyOf(objectUrl));
    expect(object.sha256).toBe(sha256);
    expect(fingerprint).toBe(`sha256:${object.sha256}`);
    expect((await getLogSettings(sessionOf(target))).logLevel).toBe("WARNING");
    const imports = () => target.requestLog().filter((r) => r.url.includes("/importSite")).length;
    expect(imports()).toBe(1);
    // The store's secret key, a plain value in the program: encrypted in the SiteImport's state.
    const exported = await stack.mustRun("export");
    const restore = stateResources(exported.state).find((r) => r.urn.endsWith("::restore"))!;
    expect(restore.outputs?.objectStoreCredentials).toMatchObject({
      ciphertext: expect.any(String),
    });
    for (const { file, text } of stack.backendFiles()) {
      if (text.includes(store.secretAccessKey)) throw new Error(`${file} holds the secret key`);
    }
    // Nothing changed: no second export, no second import.
    const again = await stack.mustRun("up", { config: settings });
    expect(again.changeSummary).toEqual({ same: 3 });
    expect(imports()).toBe(1);
    await stack.mustRun("destroy");
  } finally {
    delete process.env.TEST_S3_SECRET_ACCESS_KEY;
    await target.close();
  }
});
