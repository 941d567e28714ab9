/**
 * The Node.js versions this package runs on, checked when it is loaded: before undici (which
 * needs Node 22.19, and on Node 20 crashes while loading with "Cannot read properties of
 * undefined (reading 'bind')") is ever required.
 *
 * Imported for its side effect first by `provider/index.ts`, `provider/client/index.ts` and the
 * emulator's entry points.
 */
import semver from "semver";

/**
 * The Node.js versions supported: the `engines.node` of package.json (a test keeps the two
 * equal). undici 8 and `@pulumi/pulumi` 3.243+ require Node 22.19 or later.
 */
export const SUPPORTED_NODE = ">=22.19.0";

/**
 * Says why a Node.js version cannot run this package, or nothing when it can.
 *
 * @param found - the running version, e.g. `process.versions.node` ("20.20.2").
 * @param required - a semver range, e.g. {@link SUPPORTED_NODE}.
 * @returns the message, naming the version required and the one found; undefined when supported.
 * @example
 * ```ts
 * unsupportedNodeMessage("20.20.2", ">=22.19.0") // "pulumi-arcgis-admin requires Node.js >=22.19.0 ..."
 * ```
 */
export function unsupportedNodeMessage(
  found: string,
  required: string = SUPPORTED_NODE,
): string | undefined {
  if (semver.satisfies(found, required)) return undefined;
  return (
    `pulumi-arcgis-admin requires Node.js ${required} (package.json "engines"), ` +
    `but this is Node.js ${found}. Install a supported Node.js (e.g. the current LTS) and run again.`
  );
}

/** An error with a stable code, thrown when the running Node.js is not supported. */
export class UnsupportedNodeError extends Error {
  readonly code = "UNSUPPORTED_NODE";
  constructor(message: string) {
    super(message);
    this.name = "UnsupportedNodeError";
  }
}

const problem = unsupportedNodeMessage(process.versions.node);
if (problem !== undefined) throw new UnsupportedNodeError(problem);
