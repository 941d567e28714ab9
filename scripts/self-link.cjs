// @ts-check
"use strict";
/**
 * The package's link to itself, made by `npm run build` (scripts/build.cjs): the examples and the
 * quick start import `pulumi-arcgis-admin` by name from inside the repository, as users do.
 */
const fs = require("node:fs");
const path = require("node:path");

const REPO_ROOT = path.resolve(__dirname, "..");
const PACKAGE_NAME = "pulumi-arcgis-admin";

/**
 * Makes `node_modules/pulumi-arcgis-admin` a link to the repository root, so that the package
 * resolves by name from anywhere in the repository.
 *
 * Why: each resource's serialized provider runs `require("pulumi-arcgis-admin/dist/...")` in
 * Pulumi's dynamic-provider host. The host rebuilds the provider with require-from-string, i.e.
 * as a module without a file name, resolved from the host's working directory (the program's
 * folder). Package self-reference only works from files inside the package, so without this
 * link the require fails (MODULE_NOT_FOUND) and every create/delete with it.
 *
 * Returns "created" or "present"; when something else sits at that path, throws, or with
 * `{ strict: false }` (the build: a copy of the repository sharing another's node_modules)
 * returns "other" and leaves it.
 */
function ensureSelfLink(root = REPO_ROOT, { strict = true } = {}) {
  const link = path.join(root, "node_modules", PACKAGE_NAME);
  let stat;
  try {
    stat = fs.lstatSync(link);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
  }
  if (stat !== undefined) {
    if (fs.realpathSync(link) === fs.realpathSync(root)) return "present";
    if (!strict) return "other";
    throw new Error(
      `${link} exists but is not a link to this repository. Remove it (it is not one of the ` +
        "package's dependencies) and run the command again.",
    );
  }
  fs.mkdirSync(path.dirname(link), { recursive: true });
  // A junction needs no privilege on Windows (and an absolute target); elsewhere a relative
  // link survives moving the repository.
  if (process.platform === "win32") fs.symlinkSync(root, link, "junction");
  else fs.symlinkSync("..", link);
  return "created";
}

module.exports = { ensureSelfLink };
