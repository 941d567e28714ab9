/**
 * `SecuritySettings`: a server's HTTPS-only, HSTS, TLS protocol and cipher suite settings
 * (`security/config`, `security/config/update`) kept as declared, as a Pulumi dynamic resource
 * with an in-place update, by the one rule of kept settings (`common/kept/lifecycle.ts`): this
 * file names the settings, the outputs and the calls. The update takes every field at once, as
 * Chef's `update_security_configuration` and DSC's `Update-SecurityConfig` send it, so each write
 * reads the configuration again and sends every field it does not own (the federation's
 * `authenticationMode`, `authenticationTier` and `portalProperties` among them) back as read.
 * What the server would refuse, and what would lock the stack out, is refused before anything is
 * sent (`rules.ts`); after a write the web server restarts, and the next read waits for it.
 * Its inputs, class and frame derive from `definition.ts`.
 */
import {
  type AdminSession,
  getSecurityConfig,
  protocolOf,
  securityConfigAsRead,
  type ServerProtocol,
  updateSecurityConfig,
} from "../../client";
import { waitUntilAnswering } from "../common/connection/admin";
import { containsUnknown } from "../common/inputs/check";
import { declaredFields, keptSettings } from "../common/kept/lifecycle";
import type { Settings } from "../common/kept/ledger";
import { withChange } from "../common/kept/write";
import { SECURITY_SETTINGS } from "./definition";
import type { SecuritySettingsInputs } from "./generated";
import { oldestFirst, securityRefusals } from "./rules";
import { MANAGED_SECURITY_FIELDS, type ReportedSecuritySettings } from "./values";

/** A comma-separated list as its entries. */
function entries(text: unknown): string[] {
  if (typeof text !== "string") return [];
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * The managed settings as a configuration read by `getSecurityConfig` shows them, by input name.
 *
 * @internal
 */
export function securityView(config: Record<string, unknown>): ReportedSecuritySettings {
  return {
    httpsOnly: protocolOf(config) === "HTTPS",
    hstsEnabled: config.HSTSEnabled === true,
    // Their order means nothing to TLS: oldest first, as the input is declared.
    tlsProtocols: oldestFirst(entries(config.httpsProtocols)),
    cipherSuites: entries(config.cipherSuites),
  };
}

/** The server's managed settings. */
async function readSecurity(session: AdminSession): Promise<Settings> {
  return { ...securityView(await getSecurityConfig(session)) };
}

/**
 * Sends `change` over the configuration as read again now: every field it does not set goes back
 * as the server has it. Refused, with nothing sent, when the result is one the server would
 * refuse or one that would lock the stack out.
 */
async function sendSecurity(
  session: AdminSession,
  change: { set: Settings; remove: readonly string[] },
): Promise<void> {
  const config = await getSecurityConfig(session);
  const next = withChange({ ...securityView(config) }, change) as ReportedSecuritySettings;
  const refused = securityRefusals(next, Object.keys(change.set), session.rootUrl);
  if (refused.length > 0) {
    throw new Error(
      `Refused before sending security/config/update to ${session.rootUrl}: ` +
        `${refused.map((f) => `${f.property}: ${f.reason}`).join("; ")}. Nothing was sent.`,
    );
  }
  const read = securityConfigAsRead(config);
  await updateSecurityConfig(session, {
    ...read,
    Protocol: protocolFor(next.httpsOnly, read.Protocol),
    httpsProtocols: (next.tlsProtocols ?? []).join(","),
    cipherSuites: (next.cipherSuites ?? []).join(","),
    HSTSEnabled: next.hstsEnabled === true,
  });
}

/** The protocol for `httpsOnly`: HTTPS, or the current one when it allows HTTP already. */
function protocolFor(httpsOnly: boolean | undefined, current: ServerProtocol): ServerProtocol {
  if (httpsOnly === true) return "HTTPS";
  return current === "HTTPS" ? "HTTP_AND_HTTPS" : current;
}

/** The declared settings whose values are known (at preview some may not be yet). */
function known(inputs: Settings): Settings {
  const out: Settings = {};
  for (const field of MANAGED_SECURITY_FIELDS) {
    if (inputs[field] !== undefined && !containsUnknown(inputs[field])) out[field] = inputs[field];
  }
  return out;
}

/**
 * The SecuritySettings implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = keptSettings<SecuritySettingsInputs>({
  frame: SECURITY_SETTINGS,
  settings: "security settings",
  setting: "security setting",
  path: "security/config",
  update: "security/config/update",
  outputs: {
    previous: "previousSettings",
    written: "writtenSettings",
    server: "serverSecuritySettings",
  },
  declared: declaredFields<SecuritySettingsInputs>(MANAGED_SECURITY_FIELDS),
  // A field the server no longer reports keeps its declared value.
  asInputs: (settings) => settings,
  declarable: (value) =>
    typeof value === "boolean" ||
    (Array.isArray(value) && value.every((entry) => typeof entry === "string")),
  read: readSecurity,
  send: (session, change) => sendSecurity(session, change),
  // The web server restarts after a change (DSC's ArcGIS_Server_TLS, Chef's
  // update_security_configuration): wait until it answers before reading it back.
  afterWrite: async (_session, inputs) => {
    await waitUntilAnswering(inputs, 1_000);
  },
  refusals: (_olds, inputs) => {
    const declared = known(inputs);
    const adminUrl = containsUnknown(inputs.adminUrl) ? undefined : (inputs.adminUrl as string);
    return securityRefusals(declared, Object.keys(declared), adminUrl);
  },
});
