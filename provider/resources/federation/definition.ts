/**
 * Every input and output of a `Federation`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/federation.md's
 * table are derived from it.
 */
import { z } from "zod";
import { collaborationCrossChecks } from "../collaboration/definition";
import { SERVER_TYPES } from "../../client";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import {
  adminRootSchema,
  httpUrlSchema,
  nonEmpty,
  timeoutMsSchema,
} from "../common/inputs/schemas";
import { portalInputs, portalTlsInput } from "../common/inputs/portal";
import { SERVER_ROLES } from "./values";
import { resourceFrame } from "../common/pulumi/frame";
import type { FederationInputs } from "./generated";

/** Default bound on federate (including finding a lost answer's outcome in the list). */
export const DEFAULT_FEDERATE_MS = 10 * 60_000;

/** Default wait after an import: Chef's `:import_root_cert` sleeps 60 s for the restart. */
export const DEFAULT_RESTART_WAIT_MS = 60_000;

const portal = portalInputs();

/**
 * An ArcGIS server federated with a portal: created with
 * `POST {portal}/portaladmin/federation/servers/federate`, then its role and function set with
 * `…/servers/<id>/update`; destroyed with `…/servers/<id>/unfederate`.
 *
 * @example
 * ```ts
 * new Federation("mission", {
 *   sharingUrl: "https://portal.example.com/portal/sharing/rest",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 *   serverType: site.serverType,
 *   adminUrl: site.adminUrl,
 *   serverUsername: site.username,
 *   serverPassword: site.password,
 * });
 * ```
 *
 * @internal
 */
export const FEDERATION_DEFINITION = defineResource({
  type: "Federation",
  folder: "federation",
  publicExports: { "./values": ["type ServerRole", "SERVER_ROLES"] },
  doc:
    "An ArcGIS server federated with a portal (federation/servers/federate), with its role and " +
    "function.",
  base: "PortalConnectionArgs",
  argsDoc:
    "Arguments of a {@link Federation}: the portal's connection ({@link PortalConnectionArgs}), " +
    "the server and its role. Every field accepts a `pulumi.Input`.",
  inputs: {
    sharingUrl: {
      ...portal.sharingUrl,
      schema: () =>
        httpUrlSchema().refine((v) => /\/sharing\/rest\/?$/i.test(new URL(v).pathname), {
          message:
            "must be the portal's sharing root, ending in /sharing/rest (its administrative root " +
            "…/portaladmin is found beside it), e.g. https://portal.example.com/portal/sharing/rest",
        }),
      doc:
        "The portal's sharing API root, e.g. `https://portal.example.com/portal/sharing/rest`; " +
        "its administrative root (`…/portaladmin`) is found beside it. Default: " +
        "`connection.sharingUrl`, stack config `arcgis-admin:sharingUrl`, " +
        "`ARCGIS_ADMIN_SHARING_URL`.",
      own: true,
    },
    username: portal.username,
    password: portal.password,
    token: portal.token,
    serverType: {
      schema: () =>
        named(z.enum(SERVER_TYPES), { name: "ServerType", from: "../../client" }).default(
          "mission-server",
        ),
      doc: "The server's product (typically a Site's `serverType`); it decides the default function.",
      outputDoc: "The server's product.",
    },
    adminUrl: {
      schema: () =>
        adminRootSchema().refine((v) => /\/admin\/?$/i.test(new URL(v).pathname), {
          message:
            "must be the server's administrative root, ending in /admin, e.g. " +
            "https://gis.example.com:20443/arcgis/admin (the portal is given the site root without /admin)",
        }),
      doc:
        "The server's administrative root (typically a Site's `adminUrl`), e.g. " +
        "`https://gis.example.com:20443/arcgis/admin`; the portal is given the site root without " +
        "`/admin`, as Chef sends the server's `private_url`.",
      outputDoc: "The server's administrative root.",
      replaces: true,
      url: true,
    },
    serverUrl: {
      schema: () => httpUrlSchema().optional(),
      doc: "The services URL users reach (a Web Adaptor's or a reverse proxy's).",
      outputDoc: "The services URL, when one was given.",
      defaultText: "the site root",
      replaces: true,
      url: true,
    },
    serverUsername: {
      schema: nonEmpty,
      doc: "The server's primary site administrator (typically a Site's `username`).",
      stateOnly: true,
    },
    serverPassword: {
      schema: nonEmpty,
      doc:
        "Its password (typically a Site's `password`). Stored only as a secret, sent only in the " +
        "federate POST body.",
      outputDoc: "Its password (secret).",
      secret: true,
      stateOnly: true,
    },
    serverRole: {
      schema: () =>
        named(z.enum(SERVER_ROLES), { name: "ServerRole", from: "./values" }).default(
          "FEDERATED_SERVER",
        ),
      doc:
        "The role: FEDERATED_SERVER (default), FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING or " +
        "HOSTING_SERVER (ArcGIS Server only).",
      outputDoc: "The role (after a refresh: the portal's).",
    },
    serverFunction: {
      schema: () => z.string().optional(),
      doc:
        "The server's function(s), comma-separated; default per product: MissionServer, " +
        "NotebookServer, VideoServer (Chef's `federation.rb` of each cookbook), none for ArcGIS " +
        "Server.",
      outputDoc:
        "The function given (after a refresh: the portal's), when not the product's default.",
      defaultText: "per product",
    },
    adoptExisting: {
      schema: () => z.boolean().default(false),
      doc: "Take on a server the portal has federated already (default false: that is an error).",
      outputDoc: "Whether a federated server was taken on.",
      stateOnly: true,
    },
    unfederateAdoptedOnDestroy: {
      schema: () => z.boolean().default(false),
      doc: "On destroy, unfederate a server this stack only adopted (default false: it stays).",
      outputDoc: "Whether destroy unfederates an adopted server.",
      stateOnly: true,
    },
    forceUnfederate: {
      schema: () => z.boolean().default(true),
      doc: "Unfederate even when the portal cannot reach the server (default true, as Chef does).",
      outputDoc: "Whether unfederate is forced.",
      stateOnly: true,
    },
    tls: { ...portalTlsInput(), outputDoc: "How the portal's certificate is checked." },
    serverCertificate: {
      schema: () =>
        named(
          z
            .strictObject({
              alias: nonEmpty()
                .regex(/^[A-Za-z0-9._-]+$/, {
                  message: "must be letters, digits, '.', '_' or '-' (it names the keystore entry)",
                })
                .describe("The alias it is stored under in the portal's keystore."),
              pem: z
                .string()
                .refine(
                  (v) =>
                    /^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/.test(v),
                  {
                    message:
                      "must be one PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)",
                  },
                )
                .describe("The certificate, PEM (`-----BEGIN CERTIFICATE-----`)."),
              restartWaitMs: z
                .number()
                .int()
                .min(0)
                .default(DEFAULT_RESTART_WAIT_MS)
                .describe(
                  "How long to wait for the portal's restart after an import before checking it " +
                    "answers, in milliseconds.",
                ),
            })
            .describe("A certificate for the portal to trust (the `serverCertificate` input)."),
          { name: "FederationServerCertificate" },
        ).optional(),
      doc:
        "The root or intermediate certificate (PEM) that signed the server's certificate, for a " +
        "portal that does not trust it yet: imported into the portal's keystore under `alias` " +
        "before federating, once (an alias the portal keeps with the same certificate is not " +
        "imported again; one holding another certificate is an error, never overwritten), then " +
        "the portal restarts and is waited for (`restartWaitMs`, default 60000, as Chef's " +
        "`:import_root_cert` waits). Never removed on destroy.",
    },
    timeouts: {
      schema: () =>
        z
          .strictObject({
            federateMs: timeoutMsSchema(DEFAULT_FEDERATE_MS).describe(
              "Bound on federate, including finding the outcome of a lost answer.",
            ),
          })
          .default({ federateMs: DEFAULT_FEDERATE_MS }),
      doc: "Bound on federate, including finding a lost answer's outcome (default 10 minutes).",
      outputDoc: "The bound in effect, default filled in (milliseconds).",
      stateOnly: true,
    },
  },
  outputs: {
    serverId: { type: "string", doc: "The portal's id of the server." },
    state: {
      type: '"federated" | "adopted"',
      doc: "`federated` (by this stack) or `adopted` (federated before).",
    },
    serverName: { type: "string", doc: "The server's name in the portal (host and port)." },
    portalServerType: {
      type: "string",
      doc: "The server's type as the portal reports it, e.g. `ARCGIS_MISSION_SERVER`.",
    },
  },
  operation: "`POST {portal}/portaladmin/federation/servers/federate`",
  summary: "Federates a server with a portal (role, function); destroy unfederates it.",
  connection: "portal",
  importable: true,
  deleteBeforeReplace: true,
  serverAccount: { username: "serverUsername", password: "serverPassword" },
  crossChecks: federationCrossChecks,
});

/**
 * Rules across fields: the portal's credentials (username and password, or a token, as for a
 * Collaboration); a hosting server must be an ArcGIS Server.
 *
 * @internal
 */
export function federationCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures = collaborationCrossChecks(values);
  if (
    values.serverRole === "HOSTING_SERVER" &&
    values.serverType !== undefined &&
    values.serverType !== "arcgis-server"
  ) {
    failures.push({
      property: "serverRole",
      reason:
        "HOSTING_SERVER is for an ArcGIS Server site; a Mission, Notebook or Video Server is " +
        "federated as FEDERATED_SERVER",
    });
  }
  return failures;
}

/**
 * The frame of a `Federation`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const FEDERATION = resourceFrame<FederationInputs>()(FEDERATION_DEFINITION);
