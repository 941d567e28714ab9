/**
 * `pulumi import` through the plugin. The engine's Read then carries only the id (no inputs, no
 * state), so the resource's importer (provider/resources/<name>/import.ts) reads the id, the
 * connection comes from the provider configuration's defaults (stack config `arcgis-admin:*`, then
 * the environment), and the object is read and recorded as adopted. The inputs handed back are
 * the ones the engine writes into the generated program: never a secret, never a value a default
 * supplies, so that `pulumi up` of that program fills the same defaults and changes nothing.
 */
import type { CheckFailure } from "../resources/common/inputs/check";
import { parseImportId, type Values } from "../resources/common/pulumi/importer";
import { runAs, whereToGive } from "../resources/common/inputs/sources";
import type { PluginResource } from "./resources";
import { isSecretInput } from "./schema";

/**
 * The failures as sentences, each naming its input; check() has worded a missing one with where
 * an import takes it from (stack config, the environment: common/inputs/sources.ts).
 */
function failureText(failures: readonly CheckFailure[]): string {
  return failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
}

/**
 * The connection an importer reads the server with: its URL and credentials, present, else an
 * error naming each missing one and where an import takes it from (no request is sent without
 * them).
 */
function requireConnection(resource: PluginResource, id: string, connection: Values): void {
  const portal = resource.connection === "portal";
  const urlKey = portal
    ? "sharingUrl"
    : resource.connection === "machine"
      ? "siteAdminUrl"
      : "adminUrl";
  // A portal takes a token instead of a username and password.
  const required =
    portal && connection.token !== undefined ? [urlKey] : [urlKey, "username", "password"];
  const missing = required
    .filter((key) => connection[key] === undefined)
    .map(
      (key) =>
        `${key} is required${portal && key !== urlKey ? " (or a token)" : ""}. ` +
        whereToGive(resource.type, key, "import"),
    );
  if (missing.length > 0) {
    throw new Error(`Cannot import the ${resource.type} "${id}": ${missing.join(" ")}`);
  }
}

/**
 * Reads what an import id names: its id, its outputs (recorded as adopted) and the inputs the
 * engine records and writes into the generated program.
 *
 * @param complete - the plugin's connection defaults applied to a resource's inputs.
 * @internal
 */
export async function importRead(
  resource: PluginResource,
  text: string,
  complete: (values: Values) => Values,
): Promise<{ id: string; outs: Values; inputs: Values }> {
  // Worded for `pulumi import`: its inputs come from the id, stack config and the environment.
  return runAs("import", () => readForImport(resource, text, complete));
}

async function readForImport(
  resource: PluginResource,
  text: string,
  complete: (values: Values) => Values,
): Promise<{ id: string; outs: Values; inputs: Values }> {
  const importer = resource.importer;
  if (importer === undefined) {
    throw new Error(
      `A ${resource.type} cannot be imported: it stands for a one-time operation, not for ` +
        "something that exists on its own on a server. Declare it in the program instead.",
    );
  }
  const id = parseImportId(resource.type, text, importer.options, importer.idFormat);
  const fromId = importer.fromId(id);
  const connection = complete(fromId);
  requireConnection(resource, text, connection);
  const declared = importer.declared ? await importer.declared(id, connection) : fromId;
  const checked = await resource.implementation.check({}, complete(declared));
  const failures = checked.failures ?? [];
  if (failures.length > 0) {
    throw new Error(`Cannot import the ${resource.type} "${text}": ${failureText(failures)}`);
  }
  const { id: newId, outs } = await importer.adopt(id, checked.inputs as Values);
  // Secrets never go into the generated program; the defaults fill them at every run.
  const inputs = Object.fromEntries(
    Object.entries(declared).filter(([key]) => !isSecretInput(resource, key)),
  );
  return { id: newId, outs, inputs };
}
