/** After the whole run: removes the folder of the emulators' data (jest.config.js). */
"use strict";
const fs = require("node:fs");

module.exports = async function globalTeardown() {
  const dir = process.env.ARCGIS_ADMIN_TEST_TMP;
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
};
