/**
 * The harness's build lock (tools/harness/pack.ts): suites that start at once build the packed
 * tarball once; the others wait for it, and a lock left by a killed process is taken over.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildLock } from "../../tools/harness/pack";
import { runTempDir } from "../../tools/harness/temp";

let dir: string;
let tarball: string;
beforeEach(() => {
  dir = runTempDir("pack-lock-");
  tarball = path.join(dir, "package.tgz");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it("lets one holder build at a time: the second waits until the first releases", async () => {
  const events: string[] = [];
  const release = await buildLock(tarball);
  const second = buildLock(tarball).then((releaseSecond) => {
    events.push("second holds");
    return releaseSecond;
  });
  await new Promise((r) => setTimeout(r, 600));
  events.push("first releases");
  await release();
  await (
    await second
  )();
  expect(events).toEqual(["first releases", "second holds"]);
  expect(fs.existsSync(`${tarball}.lock`)).toBe(false);
});

it("a waiter returns once the tarball exists, without the lock", async () => {
  const release = await buildLock(tarball);
  const waiting = buildLock(tarball);
  fs.writeFileSync(tarball, "built");
  await (
    await waiting
  )();
  // The builder's lock is still its own.
  expect(fs.readFileSync(path.join(`${tarball}.lock`, "pid"), "utf8")).toBe(String(process.pid));
  await release();
});

it("takes over a lock whose process has ended", async () => {
  const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  fs.mkdirSync(`${tarball}.lock`);
  fs.writeFileSync(path.join(`${tarball}.lock`, "pid"), ended.stdout.toString());
  const release = await buildLock(tarball);
  expect(fs.readFileSync(path.join(`${tarball}.lock`, "pid"), "utf8")).toBe(String(process.pid));
  await release();
});
