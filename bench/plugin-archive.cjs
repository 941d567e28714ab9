#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * The plugin archive's size and cold start (bench/RESULTS.md, "The plugin archive"): unpacks an
 * archive that `npm run plugin-archive` wrote (into `<archive>.bench/` beside it, removed at the
 * end), then starts its executable several times and times
 * each start to the port line, the first line the engine reads from a plugin; the same for the
 * npm package's plugin (bin/pulumi-resource-arcgis-admin on the built dist/, with this Node.js)
 * to compare. Prints one JSON object.
 *
 * Usage: node bench/plugin-archive.cjs <archive.tar.gz> [--runs N] [--quick]
 *   (--quick: one start of each, for the test that keeps this script working).
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { parseArgs } = require("node:util");

const REPO_ROOT = path.resolve(__dirname, "..");

/**
 * Milliseconds from spawning `command` to its first stdout line; the process is then ended.
 *
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>}
 */
function timeToPort(command, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, [], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => (err += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
      if (!out.includes("\n")) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      child.kill("SIGKILL");
      resolve(ms);
    });
    child.on("close", () => {
      if (!out.includes("\n")) reject(new Error(`${command} printed no port: ${err}`));
    });
  });
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.floor(sorted.length / 2)]);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { runs: { type: "string", default: "5" }, quick: { type: "boolean" } },
  });
  const archive = positionals[0];
  if (archive === undefined) throw new Error("Usage: node bench/plugin-archive.cjs <archive>");
  const runs = values.quick ? 1 : Number(values.runs);
  // Unpacked beside the archive, and removed at the end.
  const dir = `${archive.replace(/\.tar\.gz$/, "")}.bench`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  try {
    const tar = spawnSync("tar", ["-xzf", archive, "-C", dir]);
    if (tar.status !== 0) throw new Error(`tar failed: ${String(tar.stderr)}`);
    /** @type {number} */
    let unpacked = 0;
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) unpacked += fs.statSync(path.join(entry.parentPath, entry.name)).size;
    }
    // No Node.js on PATH for the archive: it carries its own.
    const bare = { HOME: os.homedir(), PATH: "/usr/bin:/bin" };
    const npmEnv = { ...bare, ARCGIS_ADMIN_NODE: process.execPath };
    const archiveMs = [];
    const npmMs = [];
    for (let i = 0; i < runs; i++) {
      archiveMs.push(await timeToPort(path.join(dir, "pulumi-resource-arcgis-admin"), bare));
      npmMs.push(
        await timeToPort(path.join(REPO_ROOT, "bin", "pulumi-resource-arcgis-admin"), npmEnv),
      );
    }
    process.stdout.write(
      `${JSON.stringify({
        archive: path.basename(archive),
        archiveBytes: fs.statSync(archive).size,
        unpackedBytes: unpacked,
        runs,
        coldStartMs: { archive: median(archiveMs), npmPackage: median(npmMs) },
        loadAverage: os.loadavg()[0],
      })}\n`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((/** @type {unknown} */ error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
