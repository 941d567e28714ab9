#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Installs the Node.js, Python and YAML language hosts beside an engine that engine.cjs built,
 * where the engine looks for them as it looks for Pulumi's own (beside the CLI): a Pulumi release
 * ships `pulumi-language-nodejs` and `pulumi-language-python` as Go binaries, which the Go module
 * proxy does not serve. Ours (language-hosts/: nodejs.cjs, python.cjs, yaml.cjs) start the program
 * through the entry points Pulumi's own hosts start.
 *
 * Layout, in `<engine root>`: `bin/pulumi-language-{nodejs,python}` (launchers),
 * `bin/pulumi-language-yaml` (a link to the build of language-hosts/yaml.cjs),
 * `bin/pulumi-resource-pulumi-python`, and `language-hosts/` (the hosts and the exec entry; the
 * Node.js host a link to its build in `<project cache>/language-hosts/`). Files are rewritten only
 * when they differ, so a cached engine picks up a changed host without a rebuild.
 *
 * Usage: node toolchain/language-hosts.cjs (`npm run engine` runs it after the engine).
 */
const path = require("node:path");
const { linkIfChanged } = require("./cache.cjs");
const { command } = require("./command.cjs");
const { ensureEngine } = require("./engine/build.cjs");
const { findGo } = require("./go.cjs");
const { installNodejsHost } = require("./language-hosts/nodejs.cjs");
const { installPythonHost } = require("./language-hosts/python.cjs");
const { ensureLanguageYaml } = require("./language-hosts/yaml.cjs");
const { ensurePythonSdk } = require("./python-sdk.cjs");

/**
 * Installs the hosts beside the engine that engine.cjs builds or finds; resolves with where they
 * are. The Python host needs Go (for the sdk/v3 module) and Python 3 (its virtualenv,
 * python-sdk.cjs): without them, Node.js and YAML programs still run, and it says so.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<{version: string, bin: string, built: boolean}>}
 */
async function ensureLanguageHosts(options = {}) {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const engine = await ensureEngine(options);
  installNodejsHost(engine, env);
  try {
    const python = await ensurePythonSdk(options);
    const go = findGo(env);
    if (go === undefined) throw new Error("Go is needed for the host's exec entry (sdk/v3).");
    installPythonHost(engine, { go, python, env });
  } catch (error) {
    log(
      `The Python language host is not installed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // Pulumi YAML's host beside the CLI too, as in a Pulumi release: found without PATH, and
  // without the engine's warning about a host from PATH.
  const yaml = await ensureLanguageYaml(options);
  linkIfChanged(path.join(engine.root, "bin", "pulumi-language-yaml"), yaml.bin);
  return { version: engine.version, bin: path.join(engine.root, "bin"), built: false };
}

module.exports = { ensureLanguageHosts };

command(require.main === module, "language-hosts", async ({ options }) => {
  const hosts = await ensureLanguageHosts(options);
  process.stdout.write(`Language hosts for Node.js, Python and YAML: ${hosts.bin}\n`);
});
