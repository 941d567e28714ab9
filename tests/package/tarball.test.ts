/**
 * What `npm pack` puts into the tarball: the built package, README and LICENSE, nothing else; no
 * source map without its source (the build emits none), and the license text package.json names.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

interface PackEntry {
  files: Array<{ path: string }>;
}

let files: string[];

beforeAll(() => {
  // npm test builds first; --ignore-scripts keeps the dry run from building again.
  const npmCli = process.env.npm_execpath;
  const [cmd, args] =
    npmCli !== undefined && npmCli.endsWith(".js")
      ? [process.execPath, [npmCli]]
      : ["npm", [] as string[]];
  const out = execFileSync(cmd, [...args, "pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const entries = JSON.parse(out) as PackEntry[];
  files = entries[0]!.files.map((f) => f.path).sort();
}, 120_000);

it("holds package.json, README.md, LICENSE, the built provider and emulator and the plugin's launcher only", () => {
  expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
  expect(files).toEqual(
    expect.arrayContaining([
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/emulator/index.js",
      "dist/emulator/cli.js",
    ]),
  );
  const unexpected = files.filter(
    (f) =>
      // The provider plugin's launcher (docs/plugin.md) is the one file outside dist/.
      !["LICENSE", "README.md", "package.json", "bin/pulumi-resource-arcgis-admin"].includes(f) &&
      !/^dist\/(provider|emulator)\/.+\.(js|d\.ts)$/.test(f),
  );
  expect(unexpected).toEqual([]);
});

it("ships no source map (they would point at sources that are not shipped)", () => {
  expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  const withMappingComment = files
    .filter((f) => f.endsWith(".js"))
    .filter((f) => fs.readFileSync(path.join(ROOT, f), "utf8").includes("sourceMappingURL"));
  expect(withMappingComment).toEqual([]);
});

it("ships the Apache-2.0 license text that package.json declares", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    license: string;
  };
  expect(manifest.license).toBe("Apache-2.0");
  const text = fs.readFileSync(path.join(ROOT, "LICENSE"), "utf8");
  expect(text).toMatch(/Apache License\s+Version 2\.0, January 2004/);
  expect(text).toContain("END OF TERMS AND CONDITIONS");
});
