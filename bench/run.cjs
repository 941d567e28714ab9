/** Entry point of `npm run bench`: runs bench/main.ts from the sources (see ts-hook.cjs). */
"use strict";
require("./ts-hook.cjs");

require("./main.ts")
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
