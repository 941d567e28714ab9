#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm run engine`: builds the Pulumi engine (the `pulumi` CLI) from source with Go, into a cache
 * outside the repository, and reuses it when it is there; then what a Pulumi install has beside
 * it ({@link ALSO_BUILT}). `npm start`, `npm run destroy` and the real-engine suite
 * (tests/real-engine/) use it when no other Pulumi CLI is installed.
 *
 * Usage: node toolchain/engine.cjs [--print-root] [--quiet]
 *   builds (or finds) the engine, then the tools of {@link ALSO_BUILT}, and prints where each is;
 *   with --print-root, the engine only, and prints its root folder (the one whose bin/ holds
 *   `pulumi` and the language hosts) on stdout.
 *
 * The engine: engine/build.cjs (the build), engine/versions.cjs (which version, the cache),
 * engine/launcher.cjs (the dynamic-provider launcher). This module gathers what the engine's users
 * need of them.
 */
const { command } = require("./command.cjs");
const { ensureEngine, cachedEngine } = require("./engine/build.cjs");
const { LAUNCHER, launcherScript } = require("./engine/launcher.cjs");
const versions = require("./engine/versions.cjs");
const { findGo } = require("./go.cjs");
const { ensureLanguageHosts } = require("./language-hosts.cjs");
const { LANGUAGE_YAML, ensureLanguageYaml } = require("./language-hosts/yaml.cjs");
const { ensureSdkgen } = require("./sdkgen.cjs");

/**
 * What `npm run engine` builds (or finds in the cache) besides the engine, in order: each entry
 * names the tool and ensures it, resolving with where it is and whether it was built now. Every
 * tool is its own Go module with its own cache folder and lock. To build one more tool, add an
 * entry here.
 *
 * @type {Array<{name: string, ensure: (options: import("./command.cjs").ToolOptions) => Promise<{version: string, bin: string, built: boolean}>}>}
 */
const ALSO_BUILT = [
  { name: "Pulumi YAML language host", ensure: ensureLanguageYaml },
  { name: "Node.js, Python and YAML language hosts beside the CLI", ensure: ensureLanguageHosts },
  {
    name: "SDK generator toolchain/sdkgen, with Pulumi's code generators",
    ensure: async (options) => {
      const sdkgen = await ensureSdkgen(options);
      return { version: sdkgen.pkgVersion, bin: sdkgen.bin, built: sdkgen.built };
    },
  },
];

module.exports = {
  ...versions,
  LAUNCHER,
  launcherScript,
  cachedEngine,
  ensureEngine,
  findGo,
  LANGUAGE_YAML,
  ensureLanguageYaml,
  ALSO_BUILT,
};

command(require.main === module, "engine", async ({ args, quiet, options }) => {
  const engine = await ensureEngine(options);
  if (args.includes("--print-root")) {
    // The engine only: its root is what is asked for.
    process.stdout.write(`${engine.root}\n`);
    return;
  }
  const tools = [];
  for (const tool of ALSO_BUILT) tools.push({ name: tool.name, ...(await tool.ensure(options)) });
  if (quiet) return;
  process.stderr.write(
    `Pulumi engine v${engine.version}: ${engine.bin}${engine.built ? ` (built in ${Math.round(engine.seconds)} s)` : " (cached)"}\n`,
  );
  for (const tool of tools) {
    process.stderr.write(
      `${tool.name} v${tool.version}: ${tool.bin}${tool.built ? " (built)" : " (cached)"}\n`,
    );
  }
});
