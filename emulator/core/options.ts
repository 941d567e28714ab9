/**
 * Options of the emulator (shared by the CLI and {@link startEmulator}), their defaults,
 * and the seed file format.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import {
  DEFAULT_SERVER_TYPE,
  EXPORT_URL_FORMS,
  parseServerVersion,
  productOf,
  SERVER_TYPES,
  type ExportUrlForm,
  type Product,
  type ServerType,
  type ServerVersion,
} from "./products";
import { ROLES } from "./state";

/** Default credentials of the portal when no seed is given (documented in docs/emulator.md). */
export const DEFAULT_PORTAL_ADMIN = { username: "portaladmin", password: "emulator-Admin-1" };

/** Default folder of the emulator's state, under the working directory. */
export const DEFAULT_DATA_DIR = ".emulator-data";
/** Default duration of createNewSite, in ms. */
export const DEFAULT_CREATE_DELAY_MS = 1000;
/** Default duration of exportSite, in ms. */
export const DEFAULT_EXPORT_DELAY_MS = 500;
/** Default of {@link EmulatorOptions.importDelayMs}. */
export const DEFAULT_IMPORT_DELAY_MS = 500;
/** Default of {@link EmulatorOptions.upgradeDelayMs}. */
export const DEFAULT_UPGRADE_DELAY_MS = 500;
/** Default of {@link EmulatorOptions.portalCreateDelayMs}. */
export const DEFAULT_PORTAL_CREATE_DELAY_MS = 500;
/** Default of {@link EmulatorOptions.restartDelayMs}. */
export const DEFAULT_RESTART_DELAY_MS = 200;

/**
 * Default server timeouts, in ms. Without them a client that connects and sends nothing,
 * or sends a request slowly, would hold a connection (and a file descriptor) forever.
 */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 60_000,
  requestMs: 120_000,
  keepAliveMs: 5_000,
  idleMs: 120_000,
};

/** Server timeouts, in ms (see {@link EmulatorOptions.serverTimeouts}). */
export interface ServerTimeouts {
  /**
   * Time to receive a request's headers (`--headers-timeout`); also the TLS handshake
   * timeout, so a connection that never completes a handshake is closed as well.
   */
  readonly headersMs: number;
  /** Time to receive a whole request, body included (`--request-timeout`). */
  readonly requestMs: number;
  /** How long a kept-alive connection may wait for its next request (`--keep-alive-timeout`). */
  readonly keepAliveMs: number;
  /**
   * A connection without any traffic for this long is closed (`--idle-timeout`), except
   * while the emulator itself is working on its request (a slow createNewSite).
   */
  readonly idleMs: number;
}

const SeedUser = z.strictObject({
  username: z.string().min(1),
  password: z.string().min(1),
  role: z.enum(ROLES),
});

const SeedCollaboration = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '_' or '-' (1 to 64)"),
  name: z.string().min(1),
  description: z.string().default(""),
  hostPortalId: z.string().min(1),
  guestPortalIds: z.array(z.string().min(1)).default([]),
});

/**
 * The seed file: the portal's id, users and collaborations.
 *
 * @example
 * {"portal":{"id":"HOSTPORTAL0001","users":[{"username":"admin","password":"pw","role":"org_admin"}],
 *   "collaborations":[{"id":"c1","name":"Field ops","description":"","hostPortalId":"HOSTPORTAL0001",
 *   "guestPortalIds":["GUESTPORTAL001"]}]}}
 */
export const EmulatorSeed = z.strictObject({
  /** The product and version to emulate; options and CLI flags take precedence. */
  server: z
    .strictObject({
      type: z.enum(SERVER_TYPES).optional(),
      version: z
        .string()
        .regex(/^\d{1,3}\.\d{1,2}(\.\d{1,2})?$/, "a version such as 11.3 or 10.8.1")
        .optional(),
    })
    .optional(),
  portal: z
    .strictObject({
      id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '_' or '-' (1 to 64)"),
      name: z.string().min(1).optional(),
      users: z.array(SeedUser).min(1),
      collaborations: z.array(SeedCollaboration).default([]),
    })
    .superRefine((portal, ctx) => {
      const names = new Set<string>();
      portal.users.forEach((user, i) => {
        if (names.has(user.username)) {
          ctx.addIssue({
            code: "custom",
            path: ["users", i, "username"],
            message: "duplicate user",
          });
        }
        names.add(user.username);
      });
      const ids = new Set<string>();
      portal.collaborations.forEach((c, i) => {
        if (ids.has(c.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["collaborations", i, "id"],
            message: "duplicate id",
          });
        }
        ids.add(c.id);
        // A collaboration this portal takes no part in would be invisible to it.
        if (c.hostPortalId !== portal.id && !c.guestPortalIds.includes(portal.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["collaborations", i],
            message: `portal '${portal.id}' is neither the host nor a guest of this collaboration`,
          });
        }
      });
    }),
});
/** A validated seed. */
export type EmulatorSeed = z.infer<typeof EmulatorSeed>;
/** A seed as written in a file or passed from code (defaults not yet applied). */
export type EmulatorSeedInput = z.input<typeof EmulatorSeed>;

/** Options of {@link startEmulator}; each mirrors a CLI flag. */
export interface EmulatorOptions {
  /** Interface to listen on (`--host`). Default 127.0.0.1. */
  readonly host?: string;
  /** Port (`--port`); 0 picks a free one. Default 0. */
  readonly port?: number;
  /** Where state, certificate, archives and requests.log live (`--data-dir`). Default `./.emulator-data`. */
  readonly dataDir?: string;
  /** Seed (`--seed`): the object itself or the path of a JSON file. */
  readonly seed?: EmulatorSeedInput | string;
  /**
   * TLS: undefined for a self-signed certificate generated into the data dir (default),
   * `{certFile, keyFile}` to bring one (`--cert`/`--key`), false for plain HTTP (`--no-tls`).
   */
  readonly tls?: { readonly certFile: string; readonly keyFile: string } | false;
  /** How long createNewSite takes, in ms (`--create-delay`). Default 1000. */
  readonly createDelayMs?: number;
  /** How long exportSite takes, in ms (`--export-delay`). Default 500. */
  readonly exportDelayMs?: number;
  /** How long importSite takes, in ms (`--import-delay`); the export/import lock is held meanwhile. Default 500. */
  readonly importDelayMs?: number;
  /** How long joinSite takes, in ms (`--join-delay`). Default 20. */
  readonly joinDelayMs?: number;
  /**
   * How long the portal's federate takes before the server is listed, in ms. Default 0. A real
   * federate contacts the server and imports its certificate; tests use it to kill a run mid-call.
   */
  readonly federateDelayMs?: number;
  /** The `pollAfter` (seconds) joinSite answers (`--join-poll-after`). Default 0. */
  readonly joinPollAfterSeconds?: number;
  /** Folders exportSite may write into (`--export-root`, repeatable). Default: the data dir. */
  readonly exportRoots?: readonly string[];
  /**
   * Name of the emulated machine (`--machine-name`). Default: this host's name. When given
   * and a valid host name or IP address, it is also the host of the URLs the emulator builds
   * (exportSite's download URL, rest/info's token service), as a real server builds them from
   * its machine name; otherwise those URLs use the listen address. Never the request's Host
   * header.
   */
  readonly machineName?: string;
  /** Product to emulate (`--server-type`). Default `mission-server` (the spec's product). */
  readonly serverType?: ServerType;
  /** Version reported by rest/info (`--server-version`). Default per product (docs/emulator.md). */
  readonly serverVersion?: string;
  /** Form of exportSite's download URL (`--export-url-form`). Default per product (docs/emulator.md). */
  readonly exportUrlForm?: ExportUrlForm;
  /** Server timeouts in ms (`--headers-timeout` ...); each defaults to {@link DEFAULT_SERVER_TIMEOUTS}. */
  readonly serverTimeouts?: Partial<ServerTimeouts>;
  /** When set, every token lasts this many minutes (fractions allowed), whatever was asked (`--token-lifetime`). */
  readonly tokenLifetimeMinutes?: number;
  /** Size of an incompressible padding entry added to each archive (`--export-padding-bytes`). Default 0. */
  readonly exportPaddingBytes?: number;
  /** The first site creation fails with this message (`--fail-create`). */
  readonly failCreate?: string;
  /**
   * Start the data dir's site in the "upgrade required" state, as after installing the software
   * of `serverVersion` over a site of this older version (`--upgrade-from`, e.g. "11.2"); the
   * `upgrade` operation completes it (emulator/admin/upgrade.ts). The data dir must hold a site.
   */
  readonly upgradeFrom?: string;
  /** How long the `upgrade` operation takes, in ms (`--upgrade-delay`). Default 500. */
  readonly upgradeDelayMs?: number;
  /**
   * Start the portal in no site, as a fresh Portal for ArcGIS is, with no users
   * (`--portal-no-site`): `portaladmin/createNewSite` creates its initial administrator
   * (emulator/portal/site.ts). Applies to a new data dir only; cannot be combined with a seed.
   */
  readonly portalNoSite?: boolean;
  /** How long the portal's createNewSite takes, in ms (`--portal-create-delay`). Default 500. */
  readonly portalCreateDelayMs?: number;
  /**
   * How long a machine's web server takes to restart after `machines/<name>/edit` changed its
   * certificate, in ms (`--restart-delay`): the new certificate is presented to connections made
   * after it (emulator/admin/certificates.ts); also how long ArcGIS Server's admin and REST APIs
   * answer 503 after `security/config/update` changed its web server's settings
   * (emulator/admin/security.ts). Default 200.
   */
  readonly restartDelayMs?: number;
  /**
   * Starts a Web Adaptor in front of this emulator (`--web-adaptor <context>`): its own listener
   * at `https://{host}:{port}/{context}`, unconfigured until its `webadaptor` page registers it
   * with the server or the portal (emulator/web-adaptor/web-adaptor.ts). Default: none.
   */
  readonly webAdaptor?: WebAdaptorOptions;
  /** No log lines at all (`--quiet`). */
  readonly quiet?: boolean;
  /** Where log lines go. Default: stderr. */
  readonly log?: (line: string) => void;
}

/** Options with every default applied and every path absolute. */
export interface ResolvedOptions {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly seed: EmulatorSeed | null;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | "generate" | false;
  readonly createDelayMs: number;
  readonly exportDelayMs: number;
  readonly importDelayMs: number;
  readonly joinDelayMs: number;
  readonly federateDelayMs: number;
  readonly joinPollAfterSeconds: number;
  readonly exportRoots: readonly string[];
  readonly machineName: string;
  /** Host of the URLs the emulator builds: the machine name when given, else null (listen address). */
  readonly urlHost: string | null;
  readonly product: Product;
  readonly serverVersion: ServerVersion;
  readonly exportUrlForm: ExportUrlForm;
  readonly serverTimeouts: ServerTimeouts;
  readonly tokenLifetimeMinutes: number | undefined;
  readonly exportPaddingBytes: number;
  readonly failCreate: string | undefined;
  readonly upgradeFrom: string | null;
  readonly upgradeDelayMs: number;
  readonly portalNoSite: boolean;
  readonly portalCreateDelayMs: number;
  readonly restartDelayMs: number;
  /** The Web Adaptor to start, or null. */
  readonly webAdaptor: Required<WebAdaptorOptions> | null;
  readonly log: (line: string) => void;
}

/** Where a Web Adaptor listens (see {@link EmulatorOptions.webAdaptor}). */
export interface WebAdaptorOptions {
  /** The name it was installed with, the first segment of its URL. Default `arcgis`. */
  readonly context?: string;
  /** Its port; 0 (the default) picks a free one. */
  readonly port?: number;
}

/** A Web Adaptor's context: letters, digits, '_' or '-' (one URL segment). */
function webAdaptorOf(options: WebAdaptorOptions | undefined): Required<WebAdaptorOptions> | null {
  if (options === undefined) return null;
  const context = options.context ?? "arcgis";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(context)) {
    throw new Error(
      `Option webAdaptor.context (--web-adaptor) must be one URL segment of letters, digits, '_' or '-', got '${context}'.`,
    );
  }
  const port = nonNegativeInteger("webAdaptor.port", options.port, 0);
  if (port > 65535) throw new Error(`Option webAdaptor.port must be a port number, got ${port}.`);
  return { context, port };
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`Option ${name} must be a whole number of 0 or more, got ${String(value)}.`);
  }
  return value;
}

/** Whether a machine name can be the host of a URL: a DNS name or an IP address. */
function isHostName(name: string): boolean {
  if (isIP(name) !== 0) return true;
  const label = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  return name.length <= 253 && name.split(".").every((part) => label.test(part));
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const n = nonNegativeInteger(name, value, fallback);
  if (n === 0) throw new Error(`Option ${name} must be above 0.`);
  return n;
}

/** Reads and validates a seed given as an object or a file path. */
export async function loadSeed(seed: EmulatorSeedInput | string): Promise<EmulatorSeed> {
  let raw: unknown = seed;
  let where = "the seed object";
  if (typeof seed === "string") {
    where = `the seed file ${seed}`;
    let text: string;
    try {
      text = await fs.readFile(seed, "utf8");
    } catch (error) {
      throw new Error(`Cannot read ${where}: ${(error as Error).message}`, { cause: error });
    }
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new Error(`${where} is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  const result = EmulatorSeed.safeParse(raw);
  if (!result.success) throw new Error(`${where} is invalid:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/** A stable fingerprint of a seed's portal, to notice that another portal is given on restart. */
export function seedHash(seed: EmulatorSeed): string {
  // Only the portal: the product in `server` does not rebuild the portal.
  return createHash("sha256")
    .update(JSON.stringify({ portal: seed.portal }))
    .digest("hex");
}

/** Applies defaults, validates numbers, loads the seed and makes paths absolute. */
export async function resolveOptions(options: EmulatorOptions): Promise<ResolvedOptions> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const port = nonNegativeInteger("port", options.port, 0);
  if (port > 65535) throw new Error(`Option port must be at most 65535, got ${port}.`);
  const lifetime = options.tokenLifetimeMinutes;
  if (lifetime !== undefined && !(Number.isFinite(lifetime) && lifetime > 0)) {
    throw new Error(`Option tokenLifetimeMinutes must be above 0, got ${String(lifetime)}.`);
  }
  const machineName = options.machineName ?? os.hostname();
  if (machineName.trim() === "") throw new Error("Option machineName must not be empty.");
  const seed = options.seed === undefined ? null : await loadSeed(options.seed);
  const serverType = options.serverType ?? seed?.server?.type ?? DEFAULT_SERVER_TYPE;
  if (!(SERVER_TYPES as readonly string[]).includes(serverType)) {
    throw new Error(
      `Option serverType must be one of ${SERVER_TYPES.join(", ")}, got '${String(serverType)}'.`,
    );
  }
  const product = productOf(serverType);
  const serverVersion = parseServerVersion(
    options.serverVersion ?? seed?.server?.version ?? product.defaultVersion,
  );
  const exportUrlForm = options.exportUrlForm ?? product.exportUrlForm;
  if (!(EXPORT_URL_FORMS as readonly string[]).includes(exportUrlForm)) {
    throw new Error(
      `Option exportUrlForm must be one of ${EXPORT_URL_FORMS.join(", ")}, got '${String(exportUrlForm)}'.`,
    );
  }
  const serverTimeouts: ServerTimeouts = {
    headersMs: positiveInteger(
      "serverTimeouts.headersMs",
      options.serverTimeouts?.headersMs,
      DEFAULT_SERVER_TIMEOUTS.headersMs,
    ),
    requestMs: positiveInteger(
      "serverTimeouts.requestMs",
      options.serverTimeouts?.requestMs,
      DEFAULT_SERVER_TIMEOUTS.requestMs,
    ),
    keepAliveMs: positiveInteger(
      "serverTimeouts.keepAliveMs",
      options.serverTimeouts?.keepAliveMs,
      DEFAULT_SERVER_TIMEOUTS.keepAliveMs,
    ),
    idleMs: positiveInteger(
      "serverTimeouts.idleMs",
      options.serverTimeouts?.idleMs,
      DEFAULT_SERVER_TIMEOUTS.idleMs,
    ),
  };
  // Node refuses a request timeout shorter than the headers timeout.
  if (serverTimeouts.requestMs < serverTimeouts.headersMs) {
    throw new Error(
      "Option serverTimeouts.requestMs must not be shorter than serverTimeouts.headersMs.",
    );
  }
  const upgradeFrom = options.upgradeFrom ?? null;
  if (upgradeFrom !== null && !/^\d{1,3}\.\d{1,2}(\.\d{1,2})?$/.test(upgradeFrom.trim())) {
    throw new Error(`Option upgradeFrom must look like 11.2 or 10.9.1, got '${upgradeFrom}'.`);
  }
  const portalNoSite = options.portalNoSite ?? false;
  if (portalNoSite && seed !== null) {
    throw new Error(
      "Option portalNoSite (--portal-no-site) cannot be combined with a seed: a portal in no site has no users; createNewSite makes its administrator.",
    );
  }
  const quiet = options.quiet ?? false;
  const sink = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let tls: ResolvedOptions["tls"] = "generate";
  if (options.tls === false) tls = false;
  else if (options.tls !== undefined) {
    tls = {
      certFile: path.resolve(options.tls.certFile),
      keyFile: path.resolve(options.tls.keyFile),
    };
  }
  return {
    host: options.host ?? "127.0.0.1",
    port,
    dataDir,
    seed,
    tls,
    createDelayMs: nonNegativeInteger(
      "createDelayMs",
      options.createDelayMs,
      DEFAULT_CREATE_DELAY_MS,
    ),
    exportDelayMs: nonNegativeInteger(
      "exportDelayMs",
      options.exportDelayMs,
      DEFAULT_EXPORT_DELAY_MS,
    ),
    importDelayMs: nonNegativeInteger(
      "importDelayMs",
      options.importDelayMs,
      DEFAULT_IMPORT_DELAY_MS,
    ),
    joinDelayMs: nonNegativeInteger("joinDelayMs", options.joinDelayMs, 20),
    federateDelayMs: nonNegativeInteger("federateDelayMs", options.federateDelayMs, 0),
    joinPollAfterSeconds: nonNegativeInteger(
      "joinPollAfterSeconds",
      options.joinPollAfterSeconds,
      0,
    ),
    exportRoots: (options.exportRoots ?? [dataDir]).map((root) => path.resolve(root)),
    machineName,
    // A name that cannot be a host (spaces, '#'...) cannot be in a URL either.
    urlHost:
      options.machineName !== undefined && isHostName(options.machineName)
        ? options.machineName
        : null,
    product,
    serverVersion,
    exportUrlForm,
    serverTimeouts,
    tokenLifetimeMinutes: lifetime,
    exportPaddingBytes: nonNegativeInteger("exportPaddingBytes", options.exportPaddingBytes, 0),
    failCreate: options.failCreate,
    upgradeFrom,
    upgradeDelayMs: nonNegativeInteger(
      "upgradeDelayMs",
      options.upgradeDelayMs,
      DEFAULT_UPGRADE_DELAY_MS,
    ),
    portalNoSite,
    portalCreateDelayMs: nonNegativeInteger(
      "portalCreateDelayMs",
      options.portalCreateDelayMs,
      DEFAULT_PORTAL_CREATE_DELAY_MS,
    ),
    restartDelayMs: nonNegativeInteger(
      "restartDelayMs",
      options.restartDelayMs,
      DEFAULT_RESTART_DELAY_MS,
    ),
    webAdaptor: webAdaptorOf(options.webAdaptor),
    log: quiet ? () => undefined : (line: string) => sink(`arcgis-admin-emulator: ${line}`),
  };
}
