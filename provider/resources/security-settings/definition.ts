/**
 * Every input and output of a `SecuritySettings`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/security-settings.md's
 * table are derived from it.
 */
import { z } from "zod";
import {
  adminTlsInput,
  CHANGE_LIMIT,
  inPlaceAdminInputs,
  timeoutsInput,
} from "../common/inputs/admin";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import { resourceFrame } from "../common/pulumi/frame";
import type { SecuritySettingsInputs } from "./generated";
import { MANAGED_SECURITY_FIELDS, TLS_PROTOCOLS } from "./values";

/** Default bound on the wait for the web server to answer again after a change restarts it. */
export const DEFAULT_SERVER_READY_MS = 5 * 60_000;

/** A cipher suite's IANA name, as `security/config` lists them (e.g. `TLS_AES_128_GCM_SHA256`). */
const CIPHER_SUITE = /^TLS_[A-Z0-9_]+$/;

/**
 * A server's security settings, kept as declared with
 * `POST {admin_root}/security/config/update`: HTTPS only, HSTS, the TLS protocols and the cipher
 * suites. Only the fields given are managed; every other field of the configuration (the portal's
 * and the federation's among them) is sent back as the server has it. A change is an update in
 * place; the combination, and whether the stack could still reach the server after it, are
 * checked before anything is sent. A change that restarts the web server is waited for.
 *
 * @example
 * ```ts
 * new SecuritySettings("security", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   httpsOnly: true,
 *   hstsEnabled: true,
 *   tlsProtocols: ["TLSv1.2", "TLSv1.3"],
 *   restoreOnDestroy: true,
 * });
 * ```
 *
 * @internal
 */
export const SECURITY_SETTINGS_DEFINITION = defineResource({
  type: "SecuritySettings",
  folder: "security-settings",
  publicExports: { "./values": ["type ReportedSecuritySettings", "type TlsProtocol"] },
  apiNote: "the last two are the shape of its recorded settings and a `tlsProtocols` entry",
  doc:
    "A server's security settings (security/config/update): HTTPS only, HSTS, TLS protocols and " +
    "cipher suites, kept as declared; the others are sent back as the server has them. Restored " +
    "on destroy if asked.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link SecuritySettings}: the server's connection ({@link ServerResourceArgs}) " +
    "and the settings to keep; at least one of them. Every field accepts a `pulumi.Input`.",
  imports: ['import type { ReportedSecuritySettings } from "./values";'],
  inputs: {
    ...inPlaceAdminInputs(),
    httpsOnly: {
      schema: () => z.boolean().optional(),
      doc:
        "`true`: the server answers HTTPS only (`Protocol` HTTPS); `false`: HTTP and HTTPS " +
        "(HTTP_AND_HTTPS). Refused while `adminUrl` is `http://` (the stack would lock itself out).",
      outputDoc: "The managed HTTPS-only switch (after a refresh: the server's).",
    },
    hstsEnabled: {
      schema: () => z.boolean().optional(),
      doc: "HTTP Strict Transport Security (`HSTSEnabled`); needs HTTPS only.",
      outputDoc: "The managed HSTS switch (after a refresh: the server's).",
    },
    tlsProtocols: {
      schema: () =>
        z
          .array(
            named(
              z.enum(TLS_PROTOCOLS, { message: `must be one of ${TLS_PROTOCOLS.join(", ")}` }),
              { name: "TlsProtocol", from: "./values" },
            ),
          )
          .min(1, { message: "must list at least one protocol" })
          .optional(),
      doc:
        "The TLS protocols the web server accepts (`httpsProtocols`), oldest first, e.g. " +
        '`["TLSv1.2", "TLSv1.3"]`. At least one must be one this provider speaks (TLSv1.2 or ' +
        "later) and each must keep a cipher suite.",
      outputDoc: "The managed TLS protocols (after a refresh: the server's).",
    },
    cipherSuites: {
      schema: () =>
        z
          .array(
            z.string().regex(CIPHER_SUITE, {
              message: "must be a cipher suite's IANA name, e.g. TLS_AES_128_GCM_SHA256",
            }),
          )
          .min(1, { message: "must list at least one cipher suite" })
          .optional(),
      doc:
        "The cipher suites the web server accepts (`cipherSuites`), by IANA name, in the order " +
        "the server is to prefer them.",
      outputDoc: "The managed cipher suites (after a refresh: the server's).",
    },
    restoreOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "On destroy, write back the settings the server had before this stack changed them " +
        "(`previousSettings`), where the server still holds what this stack wrote.",
      outputDoc: "Whether destroy writes back `previousSettings`.",
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: timeoutsInput(
      {
        changeMs: CHANGE_LIMIT,
        serverReadyMs: {
          ms: DEFAULT_SERVER_READY_MS,
          doc: "How long to wait for the web server to answer again after a change restarts it.",
        },
      },
      "How long a change and the web server's restart after it may take.",
    ),
  },
  outputs: {
    previousSettings: {
      type: "ReportedSecuritySettings",
      doc:
        "Each managed setting as it was before this stack first wrote it: what " +
        "`restoreOnDestroy` writes back.",
    },
    writtenSettings: {
      type: "ReportedSecuritySettings",
      doc:
        "The last value this stack wrote to each managed setting (a refresh never changes it): " +
        "`restoreOnDestroy` restores a setting only while the server still holds this value.",
      optional: true,
    },
    serverSecuritySettings: {
      type: "ReportedSecuritySettings",
      doc: "The managed settings as the server last reported them (after create, update or refresh).",
    },
  },
  operation: "`POST {admin_root}/security/config/update`",
  summary:
    "Keeps a server's HTTPS-only, HSTS, TLS protocol and cipher suite settings as declared; sends the others back as read.",
  connection: "server",
  deleteBeforeReplace: true,
  crossChecks: securitySettingsCrossChecks,
});

/**
 * Rules across fields, reported together with the per-field problems.
 *
 * @internal
 */
export function securitySettingsCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  if (MANAGED_SECURITY_FIELDS.every((field) => values[field] === undefined)) {
    return [
      {
        property: "httpsOnly",
        reason: `declare at least one of ${MANAGED_SECURITY_FIELDS.join(", ")}: a SecuritySettings with none would manage nothing`,
      },
    ];
  }
  return [];
}

/**
 * The frame of a `SecuritySettings`, derived from its definition: its input rules and reader, the
 * lists its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SECURITY_SETTINGS = resourceFrame<SecuritySettingsInputs>()(
  SECURITY_SETTINGS_DEFINITION,
);
