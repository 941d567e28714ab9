// @ts-check
"use strict";
/**
 * `pulumi-resource-pulumi-nodejs`, the launcher the engine starts for dynamic providers: Pulumi
 * ships it as a small shell script in its release archive (no Go module has it). Ours does the
 * same: it resolves `@pulumi/pulumi/cmd/dynamic-provider` from its working directory (the Pulumi
 * project) and runs it with the `node` on PATH.
 */
const path = require("node:path");
const { writeIfChanged } = require("../cache.cjs");

const LAUNCHER = "pulumi-resource-pulumi-nodejs";

/**
 * The launcher script: what Pulumi's release ships under the same name, for node. Pulumi's runs
 * `node ./node_modules/@pulumi/pulumi/cmd/dynamic-provider` from the project folder (the working
 * directory, as the engine starts it). Ours looks for that file there and in each parent folder
 * (where a workspace hoists it), as Node's resolution does, and runs it; only when none has it,
 * it asks Node to resolve the module (NODE_PATH, global folders), which costs a second Node start
 * before every dynamic-provider host.
 */
function launcherScript() {
  return [
    "#!/bin/sh",
    "# Starts the dynamic-provider host of the @pulumi/pulumi that the Pulumi project (the working",
    "# directory, as the engine starts it) resolves, with the node on PATH. Written by",
    "# pulumi-arcgis-admin's toolchain/engine.cjs, in place of the script Pulumi's release ships.",
    "host=node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
    "dir=$PWD",
    'while [ -n "$dir" ]; do',
    '  if [ -f "$dir/$host" ]; then exec node "$dir/$host" "$@"; fi',
    "  dir=${dir%/*}",
    "done",
    'if [ -f "/$host" ]; then exec node "/$host" "$@"; fi',
    "script=$(node -e 'process.stdout.write(require.resolve(\"@pulumi/pulumi/cmd/dynamic-provider\", { paths: [process.cwd()] }))') || exit 1",
    'exec node "$script" "$@"',
    "",
  ].join("\n");
}

/**
 * Writes the launcher into an engine's bin/, or brings one written before its script last changed
 * up to date, so that a cached engine never needs a rebuild for it.
 *
 * @param {string} root
 */
function refreshLauncher(root) {
  try {
    writeIfChanged(path.join(root, "bin", LAUNCHER), launcherScript(), 0o755);
  } catch {
    // Left as it is: an older launcher still starts the host, a little later.
  }
}

module.exports = { LAUNCHER, launcherScript, refreshLauncher };
