/**
 * Before the whole run (jest.config.js): starts the local-kms that every engine suite's stack
 * keeps its secrets with (tools/harness/kms.ts), one for the run, and gives the workers its URL
 * in the environment; tests/global-teardown.cjs stops it.
 */
"use strict";
const path = require("node:path");
const { ensureLocalKms, startLocalKms, SHARED_URL_ENV } = require("../toolchain/local-kms.cjs");

module.exports = async function globalSetup() {
  if (process.env[SHARED_URL_ENV]) return;
  const bin = await ensureLocalKms({ log: (line) => process.stderr.write(`${line}\n`) });
  // Under the run's own folder, which the teardown removes.
  const dir = path.join(
    process.env.ARCGIS_ADMIN_TEST_TMP ?? require("node:os").tmpdir(),
    "local-kms",
  );
  const kms = await startLocalKms(bin, dir);
  process.env[SHARED_URL_ENV] = kms.url;
  globalThis.__ARCGIS_ADMIN_STOP_KMS__ = kms.stop;
};
