// @ts-check
"use strict";
/**
 * The quick start's recovery of a run that was killed (SIGKILL, a lost runner): `npm start` calls
 * it before `pulumi up`. It edits the stack's state (`pulumi stack export`, changed, `pulumi stack
 * import`), which a user's own pipeline cannot do; it stays, alone in this module, until Pulumi's
 * own handling of pending creates replaces it (the recovery issue).
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** The type token of a Site (resource-options.ts: `pulumi-nodejs:dynamic/arcgis-admin:Site`). */
const SITE_TYPE = "pulumi-nodejs:dynamic/arcgis-admin:Site";
const FEDERATION_TYPE = "pulumi-nodejs:dynamic/arcgis-admin:Federation";

/**
 * @typedef {(args: string[], options?: {input?: string, capture?: boolean}) =>
 *   Promise<{code: number, stdout: string, stderr: string}>} Pulumi runs one `pulumi` command for the stack's project
 */

/**
 * `JSON.parse`, typed `unknown`: each caller states what it expects.
 *
 * @param {string} text
 * @returns {unknown}
 */
function parseJson(text) {
  return JSON.parse(text);
}

/**
 * @param {number} pid
 * @returns {boolean}
 */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * The lock files of `stack` in the local state backend, with the process that holds each.
 *
 * @param {string} stateDir
 * @param {string} stack
 * @returns {{file: string, pid: number, hostname: string}[]}
 */
function stackLocks(stateDir, stack) {
  const root = path.join(stateDir, ".pulumi", "locks");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".json") && path.basename(path.dirname(f)) === stack)
    .map((f) => {
      const file = path.join(root, f);
      const holder = /** @type {{pid?: number, hostname?: string}} */ (
        parseJson(fs.readFileSync(file, "utf8"))
      );
      return { file, pid: holder.pid ?? -1, hostname: holder.hostname ?? "" };
    });
}

/**
 * Finishes what a killed `pulumi up` left in the stack, so that the next run completes without
 * hand edits and without a second createNewSite:
 * - a lock whose process is gone on this machine is removed (one held by a live process, or by
 *   another machine, is left, and the run stops saying so);
 * - a Site whose create was interrupted is recorded under its id (its adminUrl) with the inputs the
 *   engine recorded and `state: "interrupted"`, and a refresh then asks the server (Site's read):
 *   a site that accepts the stack's credentials and whose declared configuration matches is the
 *   stack's own; anything else is dropped from state and left alone;
 * - a Federation whose create was interrupted is recorded likewise, and its refresh looks for the
 *   server in the portal's list;
 * - any other interrupted create is forgotten: `pulumi up` sends it again.
 * Returns what it did, for the log; nothing when the stack was left clean or does not exist.
 *
 * @param {Pulumi} pulumi
 * @param {{stack: string, stateDir: string}} options
 * @returns {Promise<string[]>}
 */
async function recoverInterruptedRun(pulumi, { stack, stateDir }) {
  const done = [];
  for (const lock of stackLocks(stateDir, stack)) {
    if (lock.hostname !== os.hostname() || alive(lock.pid)) {
      throw new Error(
        `Stack ${stack} is locked by process ${lock.pid} on ${lock.hostname || "another machine"}, ` +
          "which may still be running an update. Wait for it to finish; if it is gone, remove " +
          `${lock.file} and run again.`,
      );
    }
    fs.rmSync(lock.file, { force: true });
    fs.rmSync(`${lock.file}.attrs`, { force: true });
    done.push(`removed the lock of process ${lock.pid}, which is gone`);
  }
  const exported = await pulumi(["stack", "export", "--stack", stack], { capture: true });
  if (exported.code !== 0) return done; // a new stack: nothing to recover
  const state =
    /** @type {{deployment?: {pending_operations?: {type: string, resource: {urn: string, type: string, inputs?: Record<string, unknown>, id?: string}}[], resources?: Record<string, unknown>[]}}} */ (
      parseJson(exported.stdout)
    );
  const pending = state.deployment?.pending_operations ?? [];
  if (pending.length === 0) return done;
  const resources = state.deployment?.resources ?? [];
  for (const op of pending) {
    const { resource } = op;
    const adminUrl = resource.inputs?.adminUrl;
    if (op.type === "creating" && resource.type === SITE_TYPE && typeof adminUrl === "string") {
      resources.push({
        ...resource,
        id: adminUrl,
        // Site's refresh proves it (credentials and declared configuration) before it keeps it.
        outputs: { ...resource.inputs, state: "interrupted" },
      });
      done.push(`recorded the interrupted create of ${resource.urn} to be checked on the server`);
    } else if (op.type === "creating" && resource.type === FEDERATION_TYPE) {
      resources.push({
        ...resource,
        // A placeholder: the portal's server id was never read. Federation's refresh looks for
        // the server in the portal's list and records it under the portal's id, or drops it.
        id: "interrupted",
        outputs: { ...resource.inputs, state: "interrupted" },
      });
      done.push(`recorded the interrupted federate of ${resource.urn} to be checked on the portal`);
    } else {
      done.push(`forgot the interrupted ${op.type} of ${resource.urn}; pulumi up sends it again`);
    }
  }
  state.deployment = { ...state.deployment, resources, pending_operations: [] };
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), "quickstart-recovery-")),
    "state.json",
  );
  try {
    fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
    const imported = await pulumi(["stack", "import", "--stack", stack, "--file", file]);
    if (imported.code !== 0) throw new Error("Could not record the recovery (see above).");
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  const refreshed = await pulumi(["refresh", "--yes", "--skip-preview", "--stack", stack]);
  if (refreshed.code !== 0)
    throw new Error("`pulumi refresh` after the recovery failed (see above).");
  return done;
}

module.exports = { recoverInterruptedRun };
