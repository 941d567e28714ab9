/**
 * toolchain/local-kms.cjs, the KMS the engine suites' stacks keep their secrets with: its failure
 * without Go, and a started local-kms that holds the key its URL names (AWS KMS's DescribeKey
 * and an Encrypt/Decrypt round trip over its API) and is gone once stopped.
 * (The build runs before Jest in `npm test`; here it is found in the cache.)
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { request } from "undici";
import { REPO_ROOT } from "../../tools/harness/project";
import { SHARED_KMS_ENV } from "../../tools/harness/kms";
import { runTempDir } from "../../tools/harness/temp";
import * as script from "../../toolchain/local-kms.cjs";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = runTempDir("local-kms-test-");
  dirs.push(dir);
  return dir;
}

/** One call of AWS KMS's JSON API (local-kms checks no signature). */
async function kms(
  endpoint: string,
  action: string,
  body: object,
): Promise<Record<string, unknown>> {
  const answer = await request(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": `TrentService.${action}`,
    },
    body: JSON.stringify(body),
  });
  const parsed = (await answer.body.json()) as Record<string, unknown>;
  if (answer.statusCode !== 200) throw new Error(`${action}: ${JSON.stringify(parsed)}`);
  return parsed;
}

it("says what to install when there is no Go", async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CACHE_HOME: tempDir(),
    PATH: "/nonexistent",
  };
  delete env.GOROOT;
  await expect(script.ensureLocalKms({ env, log: () => undefined })).rejects.toThrow(
    /Building local-kms .* needs Go, and there is no `go` on PATH[\s\S]*Install Go 1\.21 or later \(https:\/\/go\.dev\/doc\/install\)/,
  );
});

it("starts with the key its URL names and is gone once stopped", async () => {
  const bin = await script.ensureLocalKms({ log: () => undefined });
  const started = await script.startLocalKms(bin, tempDir());
  try {
    const url = new URL(started.url);
    expect(url.protocol).toBe("awskms:");
    expect(url.searchParams.get("anonymous")).toBe("true");
    const endpoint = url.searchParams.get("endpoint")!;
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const keyId = `${url.host}${url.pathname}`;
    expect(keyId).toMatch(/^alias\//);
    const described = await kms(endpoint, "DescribeKey", { KeyId: keyId });
    expect(described).toMatchObject({
      KeyMetadata: { Enabled: true, KeyUsage: "ENCRYPT_DECRYPT" },
    });
    const plain = Buffer.from("a data key").toString("base64");
    const { CiphertextBlob } = await kms(endpoint, "Encrypt", { KeyId: keyId, Plaintext: plain });
    expect(await kms(endpoint, "Decrypt", { CiphertextBlob })).toMatchObject({ Plaintext: plain });
  } finally {
    await started.stop();
  }
  expect(() => process.kill(started.pid, 0)).toThrow();
});

it("is started for a run by the global set-up and stopped by the teardown, which removes its folder", () => {
  const runDir = path.join(tempDir(), "run");
  // In a process of its own, as Jest's parent: nothing else keeps it alive while the teardown waits.
  const script = [
    `const setup = require(${JSON.stringify(path.join(REPO_ROOT, "tests", "global-setup.cjs"))});`,
    `const teardown = require(${JSON.stringify(path.join(REPO_ROOT, "tests", "global-teardown.cjs"))});`,
    "(async () => {",
    "  await setup();",
    `  console.log(process.env.${SHARED_KMS_ENV});`,
    "  await teardown();",
    "  console.log('torn down');",
    "})();",
  ].join("\n");
  const env: NodeJS.ProcessEnv = { ...process.env, ARCGIS_ADMIN_TEST_TMP: runDir };
  delete env[SHARED_KMS_ENV];
  delete env.ARCGIS_ADMIN_PRUNE_CACHE;
  const run = spawnSync(process.execPath, ["-e", script], {
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  const [url, done] = run.stdout.trim().split("\n");
  expect({ status: run.status, done }).toEqual({ status: 0, done: "torn down" });
  expect(url).toMatch(/^awskms:\/\/alias\//);
  expect(fs.existsSync(runDir)).toBe(false);
});
