/**
 * The inputs of a `Federation`: their types, the zod schema that checks them, the rules across
 * fields, the defaults per product, and which inputs replace the resource, which update it in
 * place and which only update state.
 */
import { z } from "zod";
import { SERVER_TYPES, type ServerType } from "../../client";
import { type CheckFailure } from "../common/input-check";
import {
  adminRootSchema,
  httpUrlSchema,
  nonEmpty,
  timeoutMsSchema,
  tlsSchema,
} from "../common/input-schemas";
import { PORTAL_ACCESS_INPUTS } from "../common/portal-session";
import { type TlsSettings } from "../common/tls";
import { inputReader, type InputRules } from "../common/implementation";
import type { Assert, ParsesTo } from "../common/schema-match";
import { collaborationCrossChecks } from "../collaboration/inputs";
import { FEDERATION, SERVER_ROLES, type ServerRole } from "./resource";

/**
 * The server function each product is given by default: Chef's `federation.rb` of
 * arcgis-mission, arcgis-notebooks and arcgis-video (`MissionServer`, `NotebookServer`,
 * `VideoServer`); ArcGIS Server none.
 */
export const DEFAULT_SERVER_FUNCTION: Record<ServerType, string> = {
  "mission-server": "MissionServer",
  "notebook-server": "NotebookServer",
  "video-server": "VideoServer",
  "arcgis-server": "",
};

/** Default bound on federate (including finding a lost answer's outcome in the list). */
export const DEFAULT_FEDERATE_MS = 10 * 60_000;

/** Inputs of a `Federation` whose values are known. */
export interface FederationInputs {
  /** The portal's sharing API root. */
  sharingUrl: string;
  /** A portal administrator's name. */
  username?: string;
  /** That administrator's password (a secret). */
  password?: string;
  /** A portal token instead of username and password (a secret). */
  token?: string;
  /** The server's product. */
  serverType: ServerType;
  /** The server's administrative root, e.g. `https://gis.example.com:20443/arcgis/admin`. */
  adminUrl: string;
  /** The services URL users reach; default the site root (`adminUrl` without `/admin`). */
  serverUrl?: string;
  /** The server's primary site administrator. */
  serverUsername: string;
  /** Its password (a secret). */
  serverPassword: string;
  /** The server's role in the portal. */
  serverRole: ServerRole;
  /** The server's function(s), comma-separated; default per product. */
  serverFunction?: string;
  /** Take on a server the portal has federated already. */
  adoptExisting: boolean;
  /** On destroy, unfederate a server this stack only adopted. */
  unfederateAdoptedOnDestroy: boolean;
  /** Unfederate even when the portal cannot reach the server (Chef's default). */
  forceUnfederate: boolean;
  /** How the portal's certificate is checked. */
  tls?: TlsSettings;
  /**
   * The root or intermediate certificate (PEM) that signed the server's certificate, when the
   * portal does not trust it yet: imported into the portal's keystore under `alias` before
   * federating (once: an alias the portal has is not imported again), then the portal restarts
   * and is waited for (`restartWaitMs` first, Chef's 60 s by default).
   */
  serverCertificate?: ServerCertificate;
  /** Bounds in milliseconds. */
  timeouts: { federateMs: number };
}

/** A certificate for the portal to trust (see {@link FederationInputs.serverCertificate}). */
export interface ServerCertificate {
  /** The alias it is stored under in the portal's keystore. */
  alias: string;
  /** The certificate, PEM (`-----BEGIN CERTIFICATE-----`). */
  pem: string;
  /** How long to wait for the portal's restart after an import before checking it answers. */
  restartWaitMs: number;
}

/** Default wait after an import: Chef's `:import_root_cert` sleeps 60 s for the restart. */
export const DEFAULT_RESTART_WAIT_MS = 60_000;

/** Outputs of a `Federation` as stored in state. */
export interface FederationOutputs extends FederationInputs {
  /** The portal's id of the server. */
  serverId: string;
  /** `federated` (by this stack) or `adopted` (federated before). */
  state: "federated" | "adopted";
  /** The server's name in the portal (host and port). */
  serverName: string;
  /** The server's type as the portal reports it, e.g. `ARCGIS_MISSION_SERVER`. */
  portalServerType: string;
}

/**
 * The zod schema of the Federation inputs.
 *
 * @internal
 */
export function federationInputsSchema() {
  return z.strictObject({
    sharingUrl: httpUrlSchema().refine((v) => /\/sharing\/rest\/?$/i.test(new URL(v).pathname), {
      message:
        "must be the portal's sharing root, ending in /sharing/rest (its administrative root " +
        "…/portaladmin is found beside it), e.g. https://portal.example.com/portal/sharing/rest",
    }),
    username: nonEmpty().optional(),
    password: nonEmpty().optional(),
    token: nonEmpty().optional(),
    serverType: z.enum(SERVER_TYPES).default("mission-server"),
    adminUrl: adminRootSchema().refine((v) => /\/admin\/?$/i.test(new URL(v).pathname), {
      message:
        "must be the server's administrative root, ending in /admin, e.g. " +
        "https://gis.example.com:20443/arcgis/admin (the portal is given the site root without /admin)",
    }),
    serverUrl: httpUrlSchema().optional(),
    serverUsername: nonEmpty(),
    serverPassword: nonEmpty(),
    serverRole: z.enum(SERVER_ROLES).default("FEDERATED_SERVER"),
    serverFunction: z.string().optional(),
    adoptExisting: z.boolean().default(false),
    unfederateAdoptedOnDestroy: z.boolean().default(false),
    forceUnfederate: z.boolean().default(true),
    tls: tlsSchema(),
    serverCertificate: z
      .strictObject({
        alias: nonEmpty().regex(/^[A-Za-z0-9._-]+$/, {
          message: "must be letters, digits, '.', '_' or '-' (it names the keystore entry)",
        }),
        pem: z
          .string()
          .refine(
            (v) => /^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/.test(v),
            {
              message:
                "must be one PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)",
            },
          ),
        restartWaitMs: z.number().int().min(0).default(DEFAULT_RESTART_WAIT_MS),
      })
      .optional(),
    timeouts: z
      .strictObject({ federateMs: timeoutMsSchema(DEFAULT_FEDERATE_MS) })
      .default({ federateMs: DEFAULT_FEDERATE_MS }),
  });
}

/**
 * The hand-written {@link FederationInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type FederationInputsMatch = Assert<
  ParsesTo<ReturnType<typeof federationInputsSchema>, FederationInputs>
>;

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
 * The site root the portal is given as `adminUrl`: the administrative root without `/admin`
 * (Chef sends the server's `private_url`, e.g. `https://host:20443/arcgis`).
 *
 * @internal
 */
export function siteRootOf(adminUrl: string): string {
  return adminUrl.replace(/\/+$/, "").replace(/\/admin$/i, "");
}

/**
 * The services URL: the given one, else the site root.
 *
 * @internal
 */
export function serverUrlOf(inputs: FederationInputs): string {
  return (inputs.serverUrl ?? siteRootOf(inputs.adminUrl)).replace(/\/+$/, "");
}

/**
 * The function the server is given: the input, else the product's default.
 *
 * @internal
 */
export function serverFunctionOf(inputs: FederationInputs): string {
  return inputs.serverFunction ?? DEFAULT_SERVER_FUNCTION[inputs.serverType];
}

/**
 * Inputs whose change means another portal or another server: unfederate, then federate anew.
 *
 * @internal
 */
export const REPLACING_INPUTS = ["sharingUrl", "adminUrl", "serverUrl"] as const;

/**
 * Inputs whose change only updates state (credentials are proven by the next call that needs them).
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [
  ...PORTAL_ACCESS_INPUTS,
  "serverUsername",
  "serverPassword",
  "adoptExisting",
  "unfederateAdoptedOnDestroy",
  "forceUnfederate",
  "timeouts",
] as const;

/**
 * The Federation's input rules.
 *
 * @internal
 */
export const FEDERATION_INPUTS: InputRules = {
  frame: FEDERATION,
  schema: federationInputsSchema,
  crossChecks: federationCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseFederationInputs = inputReader<FederationInputs>(FEDERATION_INPUTS);
