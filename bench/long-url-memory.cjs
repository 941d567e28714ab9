/**
 * `node bench/long-url-memory.cjs [options]`: the emulator's resident memory under many requests
 * with long URLs, its CLI started as users start it (dist/emulator/cli.js; `npm run build` first).
 * The method and the figures are in bench/RESULTS.md, "The emulator's memory under long URLs".
 */
"use strict";
require("./ts-hook.cjs");

require("./lib/long-url-memory.ts")
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
