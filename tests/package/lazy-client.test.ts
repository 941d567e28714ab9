/**
 * The package entry loads the REST client (and with it undici and zod) only when one of the
 * client's exports is first read, and the AWS SDK only when object storage is used: a Pulumi
 * program that imports the package for its resource classes does not pay for them. Checked on the
 * built entry in fresh Node processes, as a program loads it, from CommonJS and from an ES module.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

const ENTRY = path.join(REPO_ROOT, "dist", "provider", "index.js");

/** Runs a script in a new Node process from the repository; its stdout parsed as JSON. */
function runNode(file: string): unknown {
  const result = spawnSync(process.execPath, [file], { cwd: REPO_ROOT, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`node ${file} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!);
}

let dir: string;
beforeAll(() => {
  dir = runTempDir("lazy-client-");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The modules of undici, zod and the client that are loaded, as counts. */
const COUNT = `
const loaded = () => {
  const files = Object.keys(require.cache);
  return {
    undici: files.filter((f) => f.includes("/node_modules/undici/")).length,
    zod: files.filter((f) => f.includes("/node_modules/zod/")).length,
    client: files.filter((f) => f.includes("/dist/provider/client/")).length,
    aws: files.filter((f) => f.includes("/@aws-sdk/") || f.includes("/@smithy/")).length,
  };
};`;

it("loads the resource classes without the client, undici or zod, and the client on first use", () => {
  const file = path.join(dir, "cjs.cjs");
  fs.writeFileSync(
    file,
    `${COUNT}
const pkg = require(${JSON.stringify(ENTRY)});
const classes = typeof pkg.Site === "function" && typeof pkg.Federation === "function";
const before = loaded();
const createNewSite = pkg.createNewSite;
const after = loaded();
const client = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider", "client"))});
console.log(JSON.stringify({
  classes, before, after,
  same: createNewSite === client.createNewSite && pkg.ArcGISRequestError === client.ArcGISRequestError,
}));`,
  );
  const result = runNode(file) as {
    classes: boolean;
    before: Record<string, number>;
    after: Record<string, number>;
    same: boolean;
  };
  expect(result.classes).toBe(true);
  expect(result.before).toEqual({ undici: 0, zod: 0, client: 0, aws: 0 });
  expect(result.after.undici).toBeGreaterThan(0);
  expect(result.after.zod).toBeGreaterThan(0);
  // The AWS SDK waits for a SiteExport with uploadTo: the REST client does not load it either.
  expect(result.after.aws).toBe(0);
  // The export is the client's own value (a class stays the class: instanceof works).
  expect(result.same).toBe(true);
});

it("gives an ES module the client's exports by name", () => {
  const file = path.join(dir, "esm.mjs");
  fs.writeFileSync(
    file,
    `import { Site, createNewSite, ArcGISRequestError, isAuthError, SERVER_TYPES } from ${JSON.stringify(ENTRY)};
console.log(JSON.stringify([typeof Site, typeof createNewSite, typeof ArcGISRequestError, typeof isAuthError, Array.isArray(SERVER_TYPES)]));`,
  );
  expect(runNode(file)).toEqual(["function", "function", "function", "function", true]);
});

it("sends a request with the client without loading undici's entry point (all of undici)", () => {
  const file = path.join(dir, "send.cjs");
  fs.writeFileSync(
    file,
    `const http = require("node:http");
const { sendRequest } = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider", "client", "request.js"))});
const server = http.createServer((req, res) => res.end(JSON.stringify({ method: req.method, url: req.url })));
server.listen(0, "127.0.0.1", async () => {
  const url = "http://127.0.0.1:" + server.address().port + "/arcgis/admin/?f=json";
  const res = await sendRequest({ url, method: "GET", headers: {} }, {}, { operation: "t", url });
  const answer = await res.body.json();
  server.close();
  const files = Object.keys(require.cache);
  console.log(JSON.stringify({
    answer,
    undici: files.some((f) => f.includes("/node_modules/undici/lib/")),
    entry: files.some((f) => f.endsWith("/node_modules/undici/index.js")),
  }));
});`,
  );
  expect(runNode(file)).toEqual({
    answer: { method: "GET", url: "/arcgis/admin/?f=json" },
    undici: true,
    entry: false,
  });
});
