/**
 * The Node.js versions the emulator runs on: package.json's `engines.node`, which
 * tests/package/node-version.test.ts keeps equal. Apart from the check itself so that the CLI can
 * refuse with a sentence and the library with an error, from one range and one wording.
 */
import semver from "semver";

/** The Node.js versions supported: package.json's `engines.node`. */
export const SUPPORTED_NODE = ">=22.19.0";

/** Why this Node.js cannot run the emulator, or undefined when it can. */
export function unsupportedNodeMessage(found: string = process.versions.node): string | undefined {
  if (semver.satisfies(found, SUPPORTED_NODE)) return undefined;
  return (
    `The pulumi-arcgis-admin emulator requires Node.js ${SUPPORTED_NODE} (package.json "engines"), ` +
    `but this is Node.js ${found}. Install a supported Node.js (e.g. the current LTS) and run again.`
  );
}
