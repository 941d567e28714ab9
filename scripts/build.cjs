#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm run build`: writes what the resources' definitions imply (tools/codegen/definitions.cjs), then
 * compiles provider/ and emulator/ into dist/ (tsconfig.build.json), incrementally.
 *
 * The compiler's record of the last build (`--tsBuildInfoFile`) is kept in dist/ itself, so that
 * it goes with what it describes: removing dist/ makes the next build a full one (the compiler
 * does not notice missing outputs when its record says they are current), and a copy of the
 * repository (the engine suites pack one) never reads this one's record through a shared
 * node_modules. It is not shipped: package.json's `files` takes dist/provider and dist/emulator.
 *
 * What a full rebuild used to do by removing dist/ first, this does after compiling: it removes
 * the outputs whose source is gone (a deleted or renamed module must not stay importable from
 * dist/). A missing output also makes the build a full one.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const stamp = require("./build-stamp.cjs");

const REPO_ROOT = path.resolve(__dirname, "..");
const DIST = path.join(REPO_ROOT, "dist");
/** The source folders tsconfig.build.json compiles, each into dist/<folder>. */
const SOURCES = ["provider", "emulator"];
const BUILD_INFO = path.join(DIST, ".tsbuildinfo");

/**
 * Every file under `dir` (relative paths), or none when it does not exist.
 *
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * The TypeScript sources of one folder (declaration files excluded), without `.ts`.
 *
 * @param {string} folder
 */
function sourceModules(folder) {
  return filesUnder(path.join(REPO_ROOT, folder))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => file.slice(0, -".ts".length));
}

/**
 * The module an output belongs to (`a/b.js`, `a/b.d.ts` → `a/b`), or undefined for another file.
 *
 * @param {string} file
 */
function moduleOf(file) {
  const match = /^(.*)\.(js|d\.ts)$/.exec(file);
  return match?.[1];
}

async function build() {
  stamp.removeStamp(REPO_ROOT);
  // What the resources' definitions imply (generated.ts, the docs' argument tables) is written
  // before compiling, so that the compiler checks it with the rest.
  for (const file of await require("../tools/codegen/definitions.cjs").generate())
    console.log(`wrote ${file}`);
  const missing = SOURCES.some((folder) =>
    sourceModules(folder).some((module) => !fs.existsSync(path.join(DIST, folder, `${module}.js`))),
  );
  if (missing) fs.rmSync(BUILD_INFO, { force: true });
  const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(
    process.execPath,
    [tsc, "-p", "tsconfig.build.json", "--incremental", "--tsBuildInfoFile", BUILD_INFO],
    { cwd: REPO_ROOT, stdio: "inherit" },
  );
  if (result.status !== 0) return result.status ?? 1;

  for (const folder of SOURCES) {
    const sources = new Set(sourceModules(folder));
    const out = path.join(DIST, folder);
    for (const file of filesUnder(out)) {
      const module = moduleOf(file);
      if (module === undefined || !sources.has(module)) fs.rmSync(path.join(out, file));
    }
  }
  // Anything else in dist/ (a folder no longer compiled) goes too.
  for (const entry of fs.readdirSync(DIST)) {
    if (!SOURCES.includes(entry) && path.join(DIST, entry) !== BUILD_INFO) {
      fs.rmSync(path.join(DIST, entry), { recursive: true, force: true });
    }
  }
  removeEmptyFolders(DIST);
  require("./self-link.cjs").ensureSelfLink(REPO_ROOT, { strict: false });
  stamp.writeStamp(REPO_ROOT);
  return 0;
}

/** @param {string} dir */
function removeEmptyFolders(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(path.join(dir, entry.name));
  }
  if (dir !== DIST && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

build().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
