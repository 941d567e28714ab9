/**
 * The inputs every resource on a server's administrative root has: `serverType`, `adminUrl`,
 * `username`, `password`, `tls` and `timeouts`, as entries of the resources' definitions.
 *
 * @internal
 */
import { z } from "zod";
import { SERVER_TYPES } from "../../../client";
import { named } from "./definition";
import { adminRootSchema, nonEmpty, timeoutMsSchema, tlsSchema } from "./schemas";

/**
 * The schema of `serverType`: one of the products, `mission-server` when omitted.
 *
 * @internal
 */
export function serverTypeSchema() {
  return named(z.enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` }), {
    name: "ServerType",
    from: "../../client",
  }).default("mission-server");
}

/** Where a server connection's inputs come from when the arguments leave them out. */
const FROM_CONNECTION = "`connection`, config, env";

/**
 * The inputs a resource on an administrative root opens with (`serverType`, `adminUrl`,
 * `username`, `password`), declared by `ServerResourceArgs` and `ServerResource`; a resource
 * spreads them into its definition, adding how a change of each is treated.
 *
 * @internal
 */
export function adminInputs() {
  return {
    serverType: {
      schema: serverTypeSchema,
      doc: "The product (typically a Site's `serverType`); default `mission-server`.",
      outputDoc: "The product of the server (`mission-server`, `arcgis-server`, ...).",
      inherited: "base",
    },
    adminUrl: {
      schema: adminRootSchema,
      doc:
        "The server's administrative root, e.g. `https://gis.example.com:20443/arcgis/admin` " +
        "(typically a Site's `adminUrl`).",
      outputDoc: "The administrative root the resource acts on.",
      defaultText: FROM_CONNECTION,
      inherited: "connection",
      url: true,
    },
    username: {
      schema: nonEmpty,
      doc: "An administrator of the server (typically a Site's `username`).",
      outputDoc: "The administrator the resource acts as.",
      defaultText: FROM_CONNECTION,
      inherited: "connection",
      stateOnly: true,
    },
    password: {
      schema: nonEmpty,
      doc: "That administrator's password (typically a Site's `password`). Stored only as a secret.",
      outputDoc: "That administrator's password (secret).",
      defaultText: FROM_CONNECTION,
      inherited: "connection",
      secret: true,
      stateOnly: true,
    },
  } as const;
}

/**
 * {@link adminInputs} for a resource that acts on one server in place: another spelling of
 * `adminUrl` (or another `serverType`) only updates state, another server is a replacement.
 *
 * @internal
 */
export function inPlaceAdminInputs() {
  const admin = adminInputs();
  return {
    serverType: { ...admin.serverType, stateOnly: true },
    adminUrl: { ...admin.adminUrl, replaces: true, stateOnly: true },
    username: admin.username,
    password: admin.password,
  } as const;
}

/**
 * The limit of a change of settings kept on a server (LogSettings, SystemProperties,
 * SecuritySettings): its default and what it bounds, a `timeouts` entry.
 *
 * @internal
 */
export const CHANGE_LIMIT = {
  ms: 10 * 60_000,
  doc: "How long a change may take, including waiting while an export or import holds the site.",
} as const;

/**
 * The `tls` input of a resource on an administrative root (after its own inputs).
 *
 * @internal
 */
export function adminTlsInput() {
  return {
    schema: tlsSchema,
    doc:
      "TLS to reach the server: a CA certificate (PEM) to trust, or (discouraged) no " +
      "verification at all.",
    outputDoc: "The TLS settings used to reach the server, as declared.",
    defaultText: FROM_CONNECTION,
    inherited: "connection",
    stateOnly: true,
  } as const;
}

/**
 * The `timeouts` input: each limit in milliseconds with its default and description, all of
 * them when the input is left out; only updates state.
 *
 * @param limits - each limit's default and what it bounds.
 * @param doc - what the limits bound, for the Args.
 *
 * @internal
 */
export function timeoutsInput<K extends string>(
  limits: Record<K, { ms: number; doc: string }>,
  doc: string,
) {
  return {
    schema: () => timeoutsWithDocs(limits),
    doc,
    outputDoc: "The time limits in effect, defaults filled in (milliseconds).",
    inherited: "base",
    own: true,
    stateOnly: true,
  } as const;
}

/**
 * The schema of a `timeouts` input whose limits carry their descriptions.
 *
 * @internal
 */
export function timeoutsWithDocs<K extends string>(limits: Record<K, { ms: number; doc: string }>) {
  const entries = Object.entries<{ ms: number; doc: string }>(limits);
  const shape = Object.fromEntries(
    entries.map(([key, limit]) => [key, timeoutMsSchema(limit.ms).describe(limit.doc)]),
  ) as Record<K, ReturnType<typeof timeoutMsSchema>>;
  const defaults = Object.fromEntries(entries.map(([key, limit]) => [key, limit.ms]));
  return z.strictObject(shape).default(defaults as never);
}
