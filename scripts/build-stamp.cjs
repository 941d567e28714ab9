#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Whether dist/ is the build of the sources as they are: scripts/build.cjs writes a stamp (a hash
 * of the path, size and modification time of every source it compiles and of the files that
 * shape the build) after a successful build, and removes it before building. `npm start` builds
 * only when the stamp is missing or differs, or an output is missing: a build with nothing to do
 * still pays for the compiler's start-up.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

/** What the build compiles, and what shapes it, relative to the repository root. */
const SOURCES = ["provider", "emulator"];
const SHAPING = ["tsconfig.json", "tsconfig.build.json", "package.json"];
const STAMP = path.join("dist", ".build-stamp");

/**
 * The TypeScript files of the source folders, relative to `root`, sorted.
 *
 * @param {string} root
 */
function sourceFiles(root) {
  return SOURCES.flatMap((folder) => {
    const dir = path.join(root, folder);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  }).sort();
}

/**
 * The hash of what the build depends on.
 *
 * @param {string} root - the repository root.
 */
function fingerprint(root) {
  const hash = crypto.createHash("sha256");
  for (const file of [...sourceFiles(root), ...SHAPING]) {
    const full = path.join(root, file);
    const stat = fs.existsSync(full) ? fs.statSync(full) : undefined;
    hash.update(`${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`);
  }
  return hash.digest("hex");
}

/**
 * Whether dist/ under `root` is the build of its sources: the stamp matches, and every source
 * module has its output.
 *
 * @param {string} root
 */
function isFresh(root) {
  let stamp;
  try {
    stamp = fs.readFileSync(path.join(root, STAMP), "utf8").trim();
  } catch {
    return false;
  }
  if (stamp !== fingerprint(root)) return false;
  return sourceFiles(root)
    .filter((f) => !f.endsWith(".d.ts"))
    .every((f) => fs.existsSync(path.join(root, "dist", f.replace(/\.ts$/, ".js"))));
}

/** @param {string} root */
function removeStamp(root) {
  fs.rmSync(path.join(root, STAMP), { force: true });
}

/** @param {string} root */
function writeStamp(root) {
  fs.writeFileSync(path.join(root, STAMP), `${fingerprint(root)}\n`);
}

module.exports = { fingerprint, isFresh, removeStamp, writeStamp, STAMP };
