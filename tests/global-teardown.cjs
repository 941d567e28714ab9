/**
 * After the whole run (jest.config.js): stops the run's local-kms (tests/global-setup.cjs),
 * removes the folder of the emulators' data, and, once a day, the compile cache's entries older
 * than a day when the cache is the run's own.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const DAY_MS = 24 * 60 * 60 * 1000;

module.exports = async function globalTeardown() {
  await globalThis.__ARCGIS_ADMIN_STOP_KMS__?.();
  const dir = process.env.ARCGIS_ADMIN_TEST_TMP;
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  const cache = process.env.NODE_COMPILE_CACHE;
  if (process.env.ARCGIS_ADMIN_PRUNE_CACHE !== "1" || cache === undefined) return;
  // Looking at every entry takes a second or two: not after every run.
  const stamp = path.join(cache, ".pruned");
  const before = Date.now() - DAY_MS;
  if ((fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0) > before) return;
  for (const entry of fs.readdirSync(cache, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === ".pruned") continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (fs.statSync(file).mtimeMs < before) fs.rmSync(file, { force: true });
    } catch {
      // Removed meanwhile.
    }
  }
  fs.writeFileSync(stamp, "");
};
