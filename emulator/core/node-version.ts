/**
 * The Node.js versions the emulator runs on, checked when it is loaded: before undici or the
 * server code is required. The emulator's own check (it imports nothing from `provider/`); the
 * range is package.json's `engines.node`, which tests/package/node-version.test.ts keeps equal.
 */
import semver from "semver";

/** The Node.js versions supported: package.json's `engines.node`. */
export const SUPPORTED_NODE = ">=22.19.0";

if (!semver.satisfies(process.versions.node, SUPPORTED_NODE)) {
  const error = new Error(
    `The pulumi-arcgis-admin emulator requires Node.js ${SUPPORTED_NODE} (package.json "engines"), ` +
      `but this is Node.js ${process.versions.node}. Install a supported Node.js (e.g. the ` +
      "current LTS) and run again.",
  );
  Object.assign(error, { code: "UNSUPPORTED_NODE" });
  throw error;
}
