/**
 * A resource's registration in the user's program records no stack frames for the SDK's
 * promise-leak report (four promises per property, each with a stack that the program runner's
 * source-map-support maps), unless PULUMI_DEBUG_PROMISE_LEAKS asks for that report; the
 * program's own limit is restored after it. Checked on the built entry in a fresh Node process
 * under Pulumi's mocks, counting the stacks formatted with frames while a Site is constructed.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

const ENTRY = path.join(REPO_ROOT, "dist", "provider", "index.js");

let script: string;
let dir: string;
beforeAll(() => {
  dir = runTempDir("promise-traces-");
  script = path.join(dir, "program.cjs");
  fs.writeFileSync(
    script,
    `
const pulumi = require(${JSON.stringify(require.resolve("@pulumi/pulumi"))});
pulumi.runtime.setMocks(
  { newResource: (a) => ({ id: a.name + "-id", state: a.inputs }), call: (a) => a.inputs },
  "project", "stack", false,
);
const { Site } = require(${JSON.stringify(ENTRY)});
const limit = Error.stackTraceLimit;
const original = Error.prepareStackTrace;
let stacks = 0;
Error.prepareStackTrace = (error, frames) => {
  if (frames.length > 0) stacks++;
  return original === undefined ? String(error) : original(error, frames);
};
const site = new Site("site", {
  adminUrl: "https://gis.example.com:6443/arcgis/admin",
  username: "siteadmin",
  password: "site-Traces-Pw-1",
});
Error.prepareStackTrace = original;
const restored = Error.stackTraceLimit === limit;
site.urn.apply(() => console.log(JSON.stringify({ stacks, restored })));
`,
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function construct(env: NodeJS.ProcessEnv): { stacks: number; restored: boolean } {
  const { PULUMI_DEBUG_PROMISE_LEAKS: _unset, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [script], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...inherited, ...env },
  });
  if (result.status !== 0) throw new Error(`node ${script} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as {
    stacks: number;
    restored: boolean;
  };
}

it("formats no stack per property promise while a resource registers, and restores the limit", () => {
  const { stacks, restored } = construct({});
  // The SDK's own capture of the resource's source position (at an unlimited depth) is left.
  expect(stacks).toBeLessThanOrEqual(2);
  expect(restored).toBe(true);
});

it("keeps the promise-leak report's stacks when PULUMI_DEBUG_PROMISE_LEAKS is set", () => {
  // Four promises for each of a Site's nineteen properties.
  expect(construct({ PULUMI_DEBUG_PROMISE_LEAKS: "1" }).stacks).toBeGreaterThan(4 * 19);
});
