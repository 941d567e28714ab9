/**
 * The emulator's persistent state: one JSON document in the data dir, replaced atomically
 * on every change, with all changes serialized through one queue.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import { SERVER_TYPES } from "./products";

/**
 * Directory types of every product (which product takes which: emulator/core/products.ts).
 * ArcGIS Server: JOBS, OUTPUT, CACHE, SYSTEM; Mission: OUTPUT, SYSTEM, JOBS (+ WORKSPACE at
 * 10.8); Notebook: OUTPUT, WORKSPACE, SYSTEM, JOBS; Video: UPLOADS, DATA.
 */
export const DIRECTORY_TYPES = [
  "JOBS",
  "OUTPUT",
  "SYSTEM",
  "CACHE",
  "WORKSPACE",
  "UPLOADS",
  "DATA",
] as const;
/** Allowed `cleanupMode` values. */
export const CLEANUP_MODES = ["NONE", "TIME_ELAPSED_SINCE_LAST_MODIFIED"] as const;
/** Allowed config store `type` values (the reference's list). */
export const CONFIG_STORE_TYPES = ["FILESYSTEM", "AZURE", "AMAZON"] as const;
/** ArcGIS Server log levels. */
export const LOG_LEVELS = ["OFF", "SEVERE", "WARNING", "INFO", "FINE", "VERBOSE", "DEBUG"] as const;
/** Portal roles the emulator knows. */
export const ROLES = ["org_admin", "org_user"] as const;

const DirectoryRecord = z.object({
  name: z.string(),
  physicalPath: z.string(),
  directoryType: z.enum(DIRECTORY_TYPES),
  cleanupMode: z.enum(CLEANUP_MODES),
  maxFileAge: z.number(),
  description: z.string(),
});
/** A server directory as recorded (paths are recorded, never created). */
export type DirectoryRecord = z.infer<typeof DirectoryRecord>;

const ConfigStoreRecord = z.object({
  type: z.enum(CONFIG_STORE_TYPES),
  connectionString: z.string(),
  localRepositoryPath: z.string().nullable(),
  /** Mission, Notebook and Video Server: the persistence class the request named. */
  className: z.string().nullable().default(null),
  /** Mission, Notebook and Video Server, cloud stores: the account name (the password is never kept). */
  username: z.string().nullable().default(null),
});
/** The configuration store connection as recorded (a connectionSecret or password is never kept). */
export type ConfigStoreRecord = z.infer<typeof ConfigStoreRecord>;

const LogSettings = z.object({
  logLevel: z.enum(LOG_LEVELS),
  logDir: z.string(),
  maxErrorReportsCount: z.number(),
  maxLogFileAge: z.number(),
  /** Mission, Notebook and Video Server (DSC sends it); ArcGIS Server does not show it. */
  usageMeteringEnabled: z.boolean().default(false),
});
/** The site's log settings. */
export type LogSettings = z.infer<typeof LogSettings>;

const ServiceRecord = z.object({
  folderName: z.string(),
  serviceName: z.string(),
  type: z.string(),
  /** What `start` and `stop` set (admin/services.ts); a deployed service starts STARTED. */
  configuredState: z.enum(["STARTED", "STOPPED"]).default("STARTED"),
});
/** A deployed service. */
export type ServiceRecord = z.infer<typeof ServiceRecord>;

const SecuritySettings = z.object({
  protocol: z.enum(["HTTP", "HTTPS", "HTTP_AND_HTTPS"]).optional(),
  httpsProtocols: z.string().optional(),
  cipherSuites: z.string().optional(),
  HSTSEnabled: z.boolean().optional(),
  virtualDirsSecurityEnabled: z.boolean().optional(),
  allowDirectAccess: z.boolean().optional(),
  allowedAdminAccessIPs: z.string().optional(),
});
/** The security settings an update has set; an absent one has its default (admin/security.ts). */
export type SecuritySettings = z.infer<typeof SecuritySettings>;

const MachineSettings = z.object({
  adminURL: z.string().optional(),
  webServerMaxHeapSize: z.number().optional(),
  webServerCertificateAlias: z.string().optional(),
  appServerMaxHeapSize: z.number().optional(),
  socMaxHeapSize: z.number().optional(),
  /** Ports by name, as `edit` took them (e.g. `OpenEJBPort`). */
  ports: z.record(z.string(), z.number()).optional(),
  /** ArcGIS Server's `machines/<name>/stop` and `start` (admin/machine.ts); absent: STARTED. */
  configuredState: z.enum(["STARTED", "STOPPED"]).optional(),
});
/** A machine's settings as `machines/<name>/edit` last gave them (admin/machine-edit.ts). */
export type MachineSettings = z.infer<typeof MachineSettings>;

const UpgradeRecord = z.object({
  /** The version the site was at before the software was upgraded (`--upgrade-from`). */
  fromVersion: z.string(),
  /**
   * `required` until the `upgrade` operation runs; `running` while it runs; `failed` when a run
   * was cut short (a stop), which Esri's clients read as LAST_ATTEMPT_FAILED (admin/upgrade.ts).
   */
  status: z.enum(["required", "running", "failed"]),
  /** Whether the running upgrade was started with runAsync (its answers differ). */
  async: z.boolean().default(false),
  startedAt: z.number().nullable().default(null),
});
/** A pending upgrade of the site (admin/upgrade.ts). */
export type UpgradeRecord = z.infer<typeof UpgradeRecord>;

/** A Web Adaptor registered with a site or a portal (admin/web-adaptors.ts). */
const WebAdaptorRecord = z.object({
  id: z.string(),
  machineName: z.string(),
  machineIP: z.string(),
  webAdaptorURL: z.string(),
  description: z.string(),
  httpPort: z.number(),
  httpsPort: z.number(),
  isAdminEnabled: z.boolean(),
});
/** A registered Web Adaptor as stored. */
export type WebAdaptorRecord = z.infer<typeof WebAdaptorRecord>;

const SiteRecord = z.object({
  id: z.string(),
  /** The product that created the site (null in state written before products existed). */
  serverType: z.enum(SERVER_TYPES).nullable().default(null),
  /** `creating` until the emulated creation delay has passed. */
  status: z.enum(["creating", "ready"]),
  requestedAt: z.number(),
  /** When creation completes (epoch ms); kept so a restart resumes the countdown. */
  completesAt: z.number(),
  /** Set when creation was told to fail: the message the failure carries. */
  pendingFailure: z.string().nullable(),
  admin: z.object({ username: z.string(), passwordHash: z.string() }),
  configStore: ConfigStoreRecord,
  directories: z.array(DirectoryRecord),
  logSettings: LogSettings,
  services: z.array(ServiceRecord),
  machines: z.array(z.string()),
  /** system/properties, exactly as the last update gave them (admin/system.ts). */
  properties: z.record(z.string(), z.unknown()).default({}),
  /** Web Adaptors registered with the site (admin/web-adaptors.ts). */
  webAdaptors: z.array(WebAdaptorRecord).default([]),
  /** system/handlers/rest/servicesdirectory once edited; null: the defaults (admin/system.ts). */
  servicesDirectory: z.record(z.string(), z.unknown()).nullable().default(null),
  /** security/config's settings as security/config/update last set them (admin/security.ts). */
  security: SecuritySettings.default({}),
  /** ArcGIS Server's token manager once security/tokens/update set it; null: the defaults. */
  tokenManager: z
    .object({ sharedKey: z.string(), longTimeout: z.string(), shortTimeout: z.string() })
    .nullable()
    .default(null),
  /** ArcGIS Server's clusters (admin/clusters.ts); a new site has `default` with its machine. */
  clusters: z
    .array(z.object({ clusterName: z.string(), machineNames: z.array(z.string()) }))
    .default([]),
  /** Per machine (by name), what `machines/<name>/edit` set (admin/machine-edit.ts). */
  machineSettings: z.record(z.string(), MachineSettings).default({}),
  /** Set while the site waits for (or runs) the `upgrade` operation (admin/upgrade.ts). */
  upgrade: UpgradeRecord.nullable().default(null),
});
/** The site this machine participates in. */
export type SiteRecord = z.infer<typeof SiteRecord>;

const PortalUser = z.object({
  username: z.string(),
  passwordHash: z.string(),
  role: z.enum(ROLES),
});
/** A portal user as stored (password hashed). */
export type PortalUser = z.infer<typeof PortalUser>;

const CollaborationRecord = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  hostPortalId: z.string(),
  guestPortalIds: z.array(z.string()),
  created: z.number(),
  modified: z.number(),
});
/** A distributed collaboration this portal takes part in. */
export type CollaborationRecord = z.infer<typeof CollaborationRecord>;

const FederatedServer = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  adminUrl: z.string(),
  serverRole: z.string(),
  serverFunction: z.string(),
  serverType: z.string(),
});
const PortalCertificate = z.object({ alias: z.string(), pem: z.string() });
/** The redirect URIs of a built-in app once `oauth2/apps/<id>/update` set them (portal/apps.ts). */
const OAuthAppRecord = z.object({ clientId: z.string(), redirectUris: z.array(z.string()) });
/** A root or intermediate certificate imported into the portal's keystore. */
export type PortalCertificate = z.infer<typeof PortalCertificate>;

/** An ArcGIS server federated with this portal (portal/federation.ts). */
export type FederatedServer = z.infer<typeof FederatedServer>;

const PortalSiteRecord = z.object({
  status: z.enum(["none", "creating", "ready"]),
  /** When a creation completes (epoch ms); kept so a restart resumes the countdown. */
  completesAt: z.number().nullable(),
  /** What createNewSite gave for its initial administrator (never the password or answer). */
  administrator: z
    .object({
      username: z.string(),
      fullname: z.string(),
      email: z.string(),
      description: z.string(),
      securityQuestionIdx: z.string().nullable(),
      userLicenseTypeId: z.string().nullable(),
    })
    .nullable(),
  /** The content store's kind as createNewSite gave it (never its connection string). */
  contentStore: z
    .object({ type: z.string().nullable(), provider: z.string().nullable() })
    .nullable(),
});

const KeystoreEntry = z.object({
  /** As the keystore holds it: lower case (emulator/admin/certificates.ts). */
  alias: z.string(),
  /** `PrivateKeyEntry` (a server certificate with its key) or `trustedCertEntry` (a root). */
  entryType: z.enum(["PrivateKeyEntry", "trustedCertEntry"]),
  /** The certificate, then (a server certificate's) chain as the PKCS #12 file carried it. */
  chain: z.array(z.string()).min(1),
  /** PKCS #8 PEM of a server certificate's key; never shown by the API. */
  key: z.string().optional(),
  importedAt: z.number(),
});
/** A certificate imported into the machine's keystore (admin/certificates.ts). */
export type KeystoreEntry = z.infer<typeof KeystoreEntry>;

const EmulatorState = z.object({
  formatVersion: z.literal(1),
  /** Key that signs tokens (HMAC-SHA256), so tokens survive a restart like real ones. */
  tokenSecret: z.string(),
  /** Bumped by expireTokens(): tokens of an older epoch are expired. */
  tokenEpoch: z.number(),
  site: SiteRecord.nullable(),
  lastCreateFailure: z.object({ message: z.string(), at: z.number() }).nullable(),
  portal: z.object({
    id: z.string(),
    name: z.string(),
    /** Hash of the seed the portal was built from; another seed rebuilds the portal. */
    seedHash: z.string(),
    users: z.array(PortalUser),
    collaborations: z.array(CollaborationRecord),
    /** Federated servers; absent in data dirs of versions before federation. */
    servers: z.array(FederatedServer).default([]),
    /** Root and intermediate certificates imported into the keystore (portal/certificates.ts). */
    certificates: z.array(PortalCertificate).default([]),
    /** Built-in apps whose redirect URIs were updated; absent in earlier data dirs. */
    oauthApps: z.array(OAuthAppRecord).default([]),
    /** Web Adaptors registered with the portal (portal/web-adaptors.ts); absent in earlier ones. */
    webAdaptors: z.array(WebAdaptorRecord).default([]),
    /**
     * The portal's own site (portal/site.ts): `none` until createNewSite, `creating` while it
     * runs; a seeded portal, and any portal of an earlier data dir, is `ready`.
     */
    site: PortalSiteRecord.default({
      status: "ready",
      completesAt: null,
      administrator: null,
      contentStore: null,
    }),
  }),
  /** Temporary archive files being written; removed at start-up after a crash. */
  pendingArchives: z.array(z.string()),
  /**
   * This machine's keystore (admin/certificates.ts): the certificates imported, and whether the
   * self-signed certificate it starts with was deleted. Absent in data dirs of earlier versions.
   */
  keystore: z
    .object({
      entries: z.array(KeystoreEntry).default([]),
      selfSignedDeleted: z.boolean().default(false),
    })
    .default({ entries: [], selfSignedDeleted: false }),
});
/** Everything the emulator persists. */
export type EmulatorState = z.infer<typeof EmulatorState>;

/** Name of the state file inside the data dir. */
export const STATE_FILE = "state.json";

/**
 * Holds the state in memory and on disk. Every change runs through {@link update}: the
 * changes are queued one after another, each works on a copy, and the copy becomes the
 * current state only once written to disk (write-file-atomic: temp file, fsync, rename),
 * so a SIGKILL leaves either the old or the new document, never half of one.
 */
export class StateStore {
  private state: EmulatorState;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: string,
    initial: EmulatorState,
  ) {
    this.state = initial;
  }

  /**
   * Loads the state file of a data dir, or creates it with `init()` when there is none.
   * A state file that does not validate is an error, never silently replaced.
   */
  static async open(dataDir: string, init: () => Promise<EmulatorState>): Promise<StateStore> {
    const file = path.join(dataDir, STATE_FILE);
    let text: string | null = null;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (text === null) {
      const initial = await init();
      await writeFileAtomic(file, JSON.stringify(initial, null, 2), { mode: 0o600 });
      return new StateStore(file, initial);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`The emulator state file ${file} is not valid JSON: ${String(error)}`, {
        cause: error,
      });
    }
    const result = EmulatorState.safeParse(parsed);
    if (!result.success) {
      throw new Error(
        `The emulator state file ${file} does not match the expected format: ${z.prettifyError(result.error)}`,
      );
    }
    return new StateStore(file, result.data);
  }

  /** The current state; treat it as read-only and change it only through {@link update}. */
  get current(): Readonly<EmulatorState> {
    return this.state;
  }

  /**
   * Runs `change` on a copy of the state after every earlier change has finished, writes
   * the copy, then makes it current. If `change` throws, nothing is written and the error
   * propagates. Returns what `change` returns.
   */
  update<T>(change: (draft: EmulatorState) => T | Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const draft = structuredClone(this.state);
      const result = await change(draft);
      await writeFileAtomic(this.file, JSON.stringify(draft, null, 2), { mode: 0o600 });
      this.state = draft;
      return result;
    });
    // Keep the queue going after a failed change.
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every queued change has been written. */
  async idle(): Promise<void> {
    await this.queue;
  }
}
