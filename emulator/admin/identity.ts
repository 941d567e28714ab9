/**
 * ArcGIS Server's identity store and role privileges as Chef's `server_security` recipe sets them:
 * `security/config/updateIdentityStore` and `security/roles/assignPrivilege`.
 *
 * Evidence:
 * - What the client sends and reads: Esri/arcgis-cookbook at
 *   6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb`: `set_identity_store` (POST
 *   `userStoreConfig` and `roleStoreConfig` as JSON text, token, f=json) and `assign_privileges`
 *   (POST `rolename`, `privilege`, token, f=json), each failing on an error; called from
 *   `providers/server.rb` actions `:set_identity_store` and `:assign_privileges` (one call per role
 *   listed under each privilege), with the defaults of `attributes/server.rb` (BUILTIN user and
 *   role stores; no role under PUBLISH or ADMINISTER, so no assignPrivilege by default).
 * - https://developers.arcgis.com/rest/enterprise-administration/server/updateidentitystore.htm
 *   (`userStoreConfig`, `roleStoreConfig`: JSON objects with `type` and `properties`; the built-in,
 *   Windows and LDAP stores) and
 *   https://developers.arcgis.com/rest/enterprise-administration/server/assignprivilege.htm
 *   (`rolename`; `privilege` one of ADMINISTER, PUBLISH, ACCESS; a role of the role store).
 * Assumptions (docs/emulator.md): the answers `{"status":"success"}`; the emulator has only the
 * built-in stores, so another store type is refused (code 400), as is any change on a server a
 * portal federated (its stores follow the portal); the built-in role store of the emulator holds
 * no role (no operation of Esri's automation adds one), so assignPrivilege names an unknown role
 * and is refused with code 400, after its privilege is checked. The texts are this project's.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import { federationOf } from "../core/federations";
import type { Runtime } from "../core/runtime";
import type { SiteRecord } from "../core/state";

/** Privileges a role can be given (the assignPrivilege page). */
const PRIVILEGES = ["ADMINISTER", "PUBLISH", "ACCESS"] as const;

/** A store configuration as sent: a JSON object with a `type`. */
function storeOf(name: string, text: string | undefined): { type: string } {
  if (text === undefined || text.trim() === "") {
    throw new AdminError(400, [`The parameter '${name}' is required: a JSON object with a type.`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (
    value === null ||
    typeof value !== "object" ||
    Array.isArray(value) ||
    typeof (value as { type?: unknown }).type !== "string"
  ) {
    throw new AdminError(400, [
      `Invalid value for the parameter '${name}': expected a JSON object with a type.`,
    ]);
  }
  return value as { type: string };
}

/**
 * `POST security/config/updateIdentityStore`: accepts the built-in stores, which the site
 * already uses, so nothing changes; refuses anything else with a 400 naming the parameter.
 */
export function updateIdentityStore(_rt: Runtime, req: ApiRequest, site: SiteRecord): Reply {
  const stores = {
    userStoreConfig: storeOf("userStoreConfig", req.params.get("userStoreConfig")),
    roleStoreConfig: storeOf("roleStoreConfig", req.params.get("roleStoreConfig")),
  };
  if (federationOf(site) !== null) {
    throw new AdminError(400, [
      "The identity store of a federated server follows its portal: unfederate the server at the portal before setting its stores.",
    ]);
  }
  for (const [name, store] of Object.entries(stores)) {
    if (store.type.toUpperCase() !== "BUILTIN") {
      throw new AdminError(400, [
        `The emulator does not support the ${store.type} store of the parameter '${name}': only BUILTIN stores are emulated.`,
      ]);
    }
  }
  return json({ status: "success" });
}

/**
 * `POST security/roles/assignPrivilege`: checks the privilege, then refuses the role, which the
 * emulator's empty role store cannot hold.
 */
export function assignPrivilege(req: ApiRequest): Reply {
  const rolename = req.params.get("rolename")?.trim() ?? "";
  if (rolename === "") throw new AdminError(400, ["The parameter 'rolename' is required."]);
  const privilege = req.params.get("privilege")?.trim() ?? "";
  if (!(PRIVILEGES as readonly string[]).includes(privilege)) {
    throw new AdminError(400, [
      `Invalid value for the parameter 'privilege': expected one of ${PRIVILEGES.join(", ")}.`,
    ]);
  }
  throw new AdminError(400, [
    `The role '${rolename}' does not exist in the role store. The emulator's built-in role store holds no roles.`,
  ]);
}
