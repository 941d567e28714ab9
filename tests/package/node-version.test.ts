/**
 * The refusal of an unsupported Node.js at import: the version logic as a unit, and the built
 * package loaded by this machine's real Node 20 (`/usr/bin/node`), where undici would otherwise
 * crash with "Cannot read properties of undefined (reading 'bind')".
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { SUPPORTED_NODE as EMULATOR_SUPPORTED_NODE } from "../../emulator/core/node-version";
import { SUPPORTED_NODE, unsupportedNodeMessage } from "../../provider/node-version";

const ROOT = path.join(__dirname, "..", "..");
const SYSTEM_NODE = "/usr/bin/node";

describe("unsupportedNodeMessage()", () => {
  it("accepts 22.19 and later, and Node 24", () => {
    expect(unsupportedNodeMessage("22.19.0")).toBeUndefined();
    expect(unsupportedNodeMessage("22.22.1")).toBeUndefined();
    expect(unsupportedNodeMessage("24.21.0")).toBeUndefined();
  });

  it("refuses Node 20 and 22.18, naming the version required and the one found", () => {
    expect(unsupportedNodeMessage("20.20.2")).toBe(
      'pulumi-arcgis-admin requires Node.js >=22.19.0 (package.json "engines"), but this is ' +
        "Node.js 20.20.2. Install a supported Node.js (e.g. the current LTS) and run again.",
    );
    expect(unsupportedNodeMessage("22.18.0")).toContain("but this is Node.js 22.18.0");
  });

  it("checks against package.json's engines.node", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    expect(SUPPORTED_NODE).toBe(manifest.engines.node);
    // The emulator keeps its own check (it imports nothing from provider/): the same range.
    expect(EMULATOR_SUPPORTED_NODE).toBe(manifest.engines.node);
  });
});

describe("the built package on the system's Node 20", () => {
  function load(entry: string, args: string[] = []) {
    return spawnSync(SYSTEM_NODE, [entry, ...args], { cwd: ROOT, encoding: "utf8" });
  }

  it("is Node 20 (the version this test is about)", () => {
    expect(spawnSync(SYSTEM_NODE, ["--version"], { encoding: "utf8" }).stdout).toMatch(/^v20\./);
  });

  it("refuses at import of the package with the versions, not undici's crash", () => {
    const result = spawnSync(SYSTEM_NODE, ["-e", 'require("./dist/provider/index.js")'], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      `pulumi-arcgis-admin requires Node.js >=22.19.0 (package.json "engines"), but this is Node.js ${/v(\S+)/.exec(spawnSync(SYSTEM_NODE, ["--version"], { encoding: "utf8" }).stdout)![1]!}.`,
    );
    expect(result.stderr).not.toContain("reading 'bind'");
  });

  it("refuses in a resource module loaded by the provider host, and in the emulator's CLI", () => {
    for (const entry of ["dist/provider/resources/site.js", "dist/emulator/cli.js"]) {
      const result = load(entry, ["--help"]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("requires Node.js >=22.19.0");
      expect(result.stderr).not.toContain("reading 'bind'");
    }
  });

  it("refuses in the emulator's CLI with one sentence and exit code 1, no stack trace", () => {
    const result = load("dist/emulator/cli.js", ["--port", "0"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^arcgis-admin-emulator: The pulumi-arcgis-admin emulator requires Node\.js >=22\.19\.0 .* Install a supported Node\.js .* and run again\.\n$/,
    );
  });
});
