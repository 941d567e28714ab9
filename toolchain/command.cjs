// @ts-check
"use strict";
/** What every command of the toolchain (`npm run engine`, `npm run object-store`, ...) does alike. */
const { ToolchainError } = require("./cache.cjs");

/**
 * @typedef {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} ToolOptions
 *   What each tool's `ensure…` takes: the environment, and where its progress lines go (stderr by
 *   default).
 */

/**
 * Runs `body` when the calling module is the one Node started (`isMain`: `require.main ===
 * module` there): with the command's arguments and the
 * options for its `ensure…` (no progress lines with --quiet). A failure prints its message (a
 * ToolchainError's, which is for people; else the stack) after the command's name and sets the
 * exit code 1.
 *
 * @param {boolean} isMain
 * @param {string} name
 * @param {(context: {args: string[], quiet: boolean, options: ToolOptions}) => Promise<void>} body
 */
function command(isMain, name, body) {
  if (!isMain) return;
  const args = process.argv.slice(2);
  const quiet = args.includes("--quiet");
  body({ args, quiet, options: quiet ? { log: () => {} } : {} }).catch(
    (/** @type {unknown} */ error) => {
      const shown =
        error instanceof ToolchainError
          ? error.message
          : error instanceof Error
            ? error.stack
            : String(error);
      process.stderr.write(`\n${name}: ${shown}\n`);
      process.exitCode = 1;
    },
  );
}

module.exports = { command };
