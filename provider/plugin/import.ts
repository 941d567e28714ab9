/**
 * `pulumi import` through the plugin. The engine's Read then carries only the id (no inputs, no
 * state), so the resource's importer (provider/resources/<name>/import.ts) reads the id, the
 * connection comes from the provider configuration's defaults (stack config `arcgis-admin:*`, then
 * the environment), and the object is read and recorded as adopted. The inputs handed back are
 * the ones the engine writes into the generated program: never a secret, never a value a default
 * supplies, so that `pulumi up` of that program fills the same defaults and changes nothing.
 */
import type { CheckFailure } from "../resources/common/input-check";
import { parseImportId, type Values } from "../resources/common/importer";
import type { PluginResource } from "./resources";
import { isSecretInput } from "./schema";

/** A connection input's default: its config key, whether secret, and the URL key it serves. */
interface ConfigKey {
  key: string;
  secret?: boolean;
  /** A credential serves only the server or portal this URL key names (or any, unset). */
  serves?: string;
}

const SERVER_KEYS: Record<string, ConfigKey> = {
  username: { key: "arcgis-admin:username", serves: "arcgis-admin:adminUrl" },
  password: { key: "arcgis-admin:password", secret: true, serves: "arcgis-admin:adminUrl" },
};

/** Where each connection input's default comes from, for the message that says it is missing. */
const CONFIG_KEYS: Record<PluginResource["connection"], Record<string, ConfigKey>> = {
  server: { adminUrl: { key: "arcgis-admin:adminUrl" }, ...SERVER_KEYS },
  machine: { siteAdminUrl: { key: "arcgis-admin:adminUrl" }, ...SERVER_KEYS },
  portal: {
    sharingUrl: { key: "arcgis-admin:sharingUrl" },
    username: { key: "arcgis-admin:portalUsername", serves: "arcgis-admin:sharingUrl" },
    password: {
      key: "arcgis-admin:portalPassword",
      secret: true,
      serves: "arcgis-admin:sharingUrl",
    },
    token: { key: "arcgis-admin:portalToken", secret: true, serves: "arcgis-admin:sharingUrl" },
    serverUsername: SERVER_KEYS.username!,
    serverPassword: SERVER_KEYS.password!,
  },
};

/** The failures as one sentence, each naming its field and, for a default, its config key. */
function failureText(resource: PluginResource, failures: readonly CheckFailure[]): string {
  const keys = CONFIG_KEYS[resource.connection];
  return failures
    .map((f) => {
      const source = keys[f.property];
      if (source === undefined) return `${f.property}: ${f.reason}`;
      const command = `pulumi config set ${source.secret === true ? "--secret " : ""}${source.key}`;
      const serves =
        source.serves === undefined
          ? ""
          : `; it serves only the URL that ${source.serves} names, or any URL when that is unset`;
      return `${f.property}: ${f.reason} (\`${command}\`${serves})`;
    })
    .join("; ");
}

/**
 * The connection an importer reads the server with: its URL and credentials, present, else an
 * error naming each missing one and its config key (no request is sent without them).
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
    .map((key) => ({
      property: key,
      reason: portal && key !== urlKey ? "not set (nor a token)" : "not set",
    }));
  if (missing.length > 0) {
    throw new Error(
      `Cannot import the ${resource.type} "${id}": ${failureText(resource, missing)}.`,
    );
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
    throw new Error(
      `Cannot import the ${resource.type} "${text}": ${failureText(resource, failures)}.`,
    );
  }
  const { id: newId, outs } = await importer.adopt(id, checked.inputs as Values);
  // Secrets never go into the generated program; the defaults fill them at every run.
  const inputs = Object.fromEntries(
    Object.entries(declared).filter(([key]) => !isSecretInput(resource, key)),
  );
  return { id: newId, outs, inputs };
}
