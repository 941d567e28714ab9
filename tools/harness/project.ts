/**
 * The names the harness gives this repository and the consumer projects it makes: the package that
 * gets packed, and the project and stack that URNs and `config.get` use.
 */
import * as path from "node:path";

/** The repository root (the package that gets packed). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");
/** The package name users install. */
export const PACKAGE_NAME = "pulumi-arcgis-admin";
/** The project name of the temporary consumer (what URNs and `config.get` use). */
export const PROJECT = "consumer";
/** The stack name used in URNs and by `setMocks`. */
export const STACK = "test";
/** Set to a git ref (e.g. `HEAD`) to pack that commit instead of the working tree. */
export const PACK_REF_ENV = "ENGINE_TESTS_PACK_REF";
