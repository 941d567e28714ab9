/**
 * Every input and output of a `Site`, defined once: the Args, the class's outputs, the public
 * types, the zod schema, the diff's lists, the plugin schema and docs/site.md's table are derived
 * from it. The rules across fields are in rules.ts.
 */
import { z } from "zod";
import { allCrossChecks } from "./rules";
import { adminInputs, adminTlsInput, timeoutsWithDocs } from "../common/inputs/admin";
import { defineResource, named } from "../common/inputs/definition";
import { nonEmpty } from "../common/inputs/schemas";
import { resourceFrame } from "../common/pulumi/frame";
import type { SiteInputs } from "./generated";

export { DIRECTORY_TYPES, type SiteDirectoryType } from "./values";
/** Cleanup modes of a server directory. */
export const CLEANUP_MODES = ["NONE", "TIME_ELAPSED_SINCE_LAST_MODIFIED"] as const;
/** Configuration store types. */
export const CONFIG_STORE_TYPES = ["FILESYSTEM", "AZURE", "AMAZON"] as const;
/** ArcGIS log levels. */
export const LOG_LEVELS = ["OFF", "SEVERE", "WARNING", "INFO", "FINE", "VERBOSE", "DEBUG"] as const;

/**
 * Default wait for a freshly installed server to answer: Esri's tools wait about 15 minutes.
 *
 * @internal
 */
export const DEFAULT_SERVER_READY_MS = 15 * 60_000;
/**
 * Default bound on site creation: creation can take many minutes on real installs.
 *
 * @internal
 */
export const DEFAULT_CREATE_MS = 60 * 60_000;

const admin = adminInputs();

/** A count the server keeps: an integer, never negative. */
function count() {
  return z.number().int().min(0, { message: "must not be negative" });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { message: `must be one of ${values.join(", ")}` });
}

function configStoreSchema() {
  return named(
    z
      .strictObject({
        type: oneOf(CONFIG_STORE_TYPES).describe(
          "`FILESYSTEM` (a shared folder), `AZURE` (Azure storage) or `AMAZON` (S3 and DynamoDB).",
        ),
        connectionString: nonEmpty().describe(
          "Where the store is: a UNC or local path for `FILESYSTEM` (e.g. " +
            "`\\\\fileserver\\config-store`), the cloud store's connection string otherwise.",
        ),
        localRepositoryPath: nonEmpty()
          .optional()
          .describe("ArcGIS Server only: the local folder that mirrors the store."),
        username: nonEmpty()
          .optional()
          .describe("Mission, Notebook and Video Server only: the account of a cloud store."),
        connectionSecret: nonEmpty()
          .optional()
          .describe("The cloud store's secret (key or password). Stored only as a secret."),
      })
      .describe(
        "The site's configuration store (the `configStoreConnection` argument and output).",
      ),
    { name: "SiteConfigStoreConnection" },
  );
}

function directorySchema() {
  return named(
    z
      .strictObject({
        name: nonEmpty().describe("The directory's name, e.g. `arcgissystem`."),
        physicalPath: nonEmpty().describe(
          "Its path as the server sees it, e.g. `\\\\fileserver\\arcgis\\system` or " +
            "`D:\\arcgis\\system`.",
        ),
        // Which types a product takes is checked in productChecks(), naming the product.
        directoryType: named(
          nonEmpty().describe(
            "What it holds; the types the product takes: ArcGIS Server JOBS, OUTPUT, CACHE, " +
              "SYSTEM; Mission JOBS, OUTPUT, SYSTEM (+ WORKSPACE on 10.8); Notebook JOBS, " +
              "OUTPUT, SYSTEM, WORKSPACE; Video UPLOADS, DATA.",
          ),
          { name: "SiteDirectoryType", from: "./values" },
        ),
        cleanupMode: oneOf(CLEANUP_MODES)
          .optional()
          .describe("ArcGIS Server only: `NONE` (default) or `TIME_ELAPSED_SINCE_LAST_MODIFIED`."),
        maxFileAge: count()
          .optional()
          .describe(
            "ArcGIS Server only: how old a file may get before the cleanup removes it; 0 with " +
              "`NONE`. Its unit is not documented by Esri (the value is passed to the server " +
              "as given).",
          ),
        description: z.string().optional().describe("ArcGIS Server only: a description."),
      })
      .superRefine((d, ctx) => {
        if (d.cleanupMode === "NONE" && d.maxFileAge !== undefined && d.maxFileAge !== 0) {
          ctx.addIssue({
            code: "custom",
            path: ["maxFileAge"],
            message: "must be 0 when cleanupMode is NONE (nothing is cleaned up)",
          });
        }
      })
      .describe("One server directory (an item of the `directories` argument and output)."),
    { name: "SiteDirectory" },
  );
}

function logSettingsSchema() {
  return named(
    z
      .strictObject({
        logLevel: oneOf(LOG_LEVELS).describe(
          "`OFF`, `SEVERE`, `WARNING`, `INFO`, `FINE`, `VERBOSE` or `DEBUG`.",
        ),
        logDir: nonEmpty().describe(
          "The folder the server writes its logs to, as the server sees it.",
        ),
        maxErrorReportsCount: count().describe(
          "How many error reports the server keeps (a count).",
        ),
        maxLogFileAge: count().describe(
          "How long the server keeps log files. Its unit is not documented by Esri (ArcGIS " +
            "Server Manager presents the setting in days; the value is passed to the server as " +
            "given).",
        ),
        usageMeteringEnabled: z
          .boolean()
          .optional()
          .describe("Mission, Notebook and Video Server only: whether usage metering is on."),
      })
      .describe("The site's log settings (the `logSettings` argument and output)."),
    { name: "SiteLogSettings" },
  );
}

/**
 * A site of a Mission, ArcGIS, Notebook or Video Server, created with
 * `POST {admin_root}/createNewSite` on a machine that is in no site yet.
 *
 * @example
 * ```ts
 * const site = new Site("site", {
 *   adminUrl: "https://gis.example.com:20443/arcgis/admin",
 *   username: "siteadmin",
 *   password: config.requireSecret("sitePassword"),
 *   tls: { caCert: config.require("caCert") },
 * });
 * ```
 *
 * @internal
 */
export const SITE_DEFINITION = defineResource({
  type: "Site",
  folder: "site",
  doc:
    "A site of a Mission, ArcGIS, Notebook or Video Server, created with createNewSite on a " +
    "machine that is in no site yet.",
  base: "ServerConnectionArgs",
  argsDoc:
    "Arguments of a {@link Site}: the server's connection ({@link ServerConnectionArgs}), whose " +
    "administrator createNewSite sets up, and the site. Every field accepts a `pulumi.Input`.",
  imports: ['import type { SiteReportedConfigStore, SiteReportedDirectory } from "./values";'],
  publicExports: { "./values": ["type SiteReportedDirectory", "type SiteReportedConfigStore"] },
  apiNote: "the last two are the shapes of its `serverDirectories` and `serverConfigStore` outputs",
  inputs: {
    serverType: {
      ...admin.serverType,
      doc:
        "The product: `mission-server` (default), `arcgis-server`, `notebook-server` or " +
        "`video-server`. It decides the form of createNewSite, the directory types and the " +
        "health check; a server whose answers show another product is refused before " +
        "createNewSite.",
      own: true,
      replaces: true,
    },
    adminUrl: {
      ...admin.adminUrl,
      doc:
        "Administrative root, e.g. `https://host:20443/arcgis/admin` or a web adaptor URL " +
        "`https://gis.example.com/server/admin`. Must be http(s), without `user:password@`.",
      replaces: true,
    },
    // Credentials do not define the site: a change only updates state once they are proven
    // (CREDENTIAL_INPUTS in changes.ts).
    username: {
      schema: admin.username.schema,
      outputDoc: "The primary site administrator's name.",
      defaultText: admin.username.defaultText,
      inherited: "connection",
      doc:
        "Name of the site's primary administrator, set by createNewSite. Default: " +
        "`connection.username`, `arcgis-admin:username`, `ARCGIS_ADMIN_USERNAME`.",
      own: true,
    },
    password: {
      schema: admin.password.schema,
      outputDoc: "The primary site administrator's password (a secret).",
      defaultText: admin.password.defaultText,
      inherited: "connection",
      secret: true,
      doc:
        "Password of the primary administrator. Stored only as a secret. Default: " +
        "`connection.password`, `arcgis-admin:password` (secret), `ARCGIS_ADMIN_PASSWORD`.",
      own: true,
    },
    configStoreConnection: {
      schema: () => configStoreSchema().optional(),
      doc: "Configuration store; omitted, the server keeps it in its installation directory.",
      outputDoc: "The configuration store as declared (a secret when it has a connectionSecret).",
      defaultText: "server default (installation directory)",
      secretWith: "connectionSecret",
      replaces: true,
    },
    directories: {
      schema: () => z.array(directorySchema()).optional(),
      doc:
        "Server directories; omitted, the server creates them locally. At most one SYSTEM " +
        "directory; the types the product takes.",
      outputDoc: "The server directories as declared.",
      defaultText: "server default (local directories)",
      replaces: true,
    },
    logSettings: {
      schema: () => logSettingsSchema().optional(),
      doc:
        "Log settings; omitted, the server's defaults apply. Read back after creation and " +
        "applied with `logs/settings/edit` where the server reports others.",
      outputDoc: "The log settings as declared.",
      defaultText: "server default",
    },
    runAsync: {
      schema: () => z.boolean().default(false),
      doc:
        "Ask the server to create the site asynchronously and follow it by polling (default " +
        "false: one synchronous request, as Esri's tools send, bounded by timeouts.createMs).",
      outputDoc: "Whether createNewSite was asked to work asynchronously.",
      stateOnly: true,
    },
    adoptExisting: {
      schema: () => z.boolean().default(false),
      doc:
        'Adopt a site that already exists on the machine (recorded as `state: "adopted"`) ' +
        "instead of failing (default false).",
      outputDoc: "Whether an existing site may be adopted.",
      stateOnly: true,
    },
    deleteSiteOnDestroy: {
      schema: () => z.boolean().default(false),
      doc: "Delete the site (deleteSite) when the resource is destroyed (default false: leave it).",
      outputDoc: "Whether destroy deletes the site.",
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: {
      schema: () =>
        named(
          timeoutsWithDocs({
            serverReadyMs: {
              ms: DEFAULT_SERVER_READY_MS,
              doc: "How long to wait for a fresh install to answer, in ms (default 900 000: 15 minutes).",
            },
            createMs: {
              ms: DEFAULT_CREATE_MS,
              doc:
                "How long the creation may take until the site is ready, in ms (default " +
                "3 600 000: 60 minutes).",
            },
          })
            .unwrap()
            .describe(
              "Time limits of a `Site` (the `timeouts` argument and output), in milliseconds.",
            ),
          { name: "SiteTimeouts" },
        ).default({ serverReadyMs: DEFAULT_SERVER_READY_MS, createMs: DEFAULT_CREATE_MS }),
      doc: "How long to wait for the server to answer, and for creation to complete (milliseconds).",
      outputDoc: "The time limits in effect, defaults filled in (milliseconds).",
      inherited: "base",
      own: true,
      stateOnly: true,
    },
  },
  outputs: {
    state: {
      type: '"created" | "adopted"',
      doc: "`created` when this resource created the site, `adopted` when it adopted an existing one.",
    },
    createdAt: { type: "string", doc: "When the site was created or adopted (ISO 8601)." },
    machines: {
      type: "string[]",
      optional: true,
      doc:
        "Names of the site's machines, as the server reports them: read by `pulumi refresh`, at " +
        "adoption and after a watched creation; not read right after a synchronous " +
        "createNewSite (unset until the next refresh).",
    },
    serverVersion: {
      type: "string",
      optional: true,
      doc: "The server's version as `rest/info` reports it (fullVersion, else currentVersion).",
    },
    serverLogSettings: {
      type: "Record<string, string | number | boolean>",
      optional: true,
      doc:
        "The log settings as the server reports them (after applying ours); read as `machines` " +
        "is (unset right after a synchronous createNewSite, until the next refresh).",
    },
    serverDirectories: {
      type: "SiteReportedDirectory[]",
      optional: true,
      doc:
        "The server directories as the server reports them: read by `pulumi refresh` and at " +
        "adoption; not read back right after a synchronous createNewSite (unset until the next " +
        "refresh).",
    },
    serverConfigStore: {
      type: "SiteReportedConfigStore",
      optional: true,
      doc:
        "Where the server reports its configuration store: read as `serverDirectories` is " +
        "(unset right after a synchronous createNewSite, until the next refresh).",
    },
  },
  operation: "`POST {admin_root}/createNewSite`",
  summary: "Creates a site on a Mission, ArcGIS, Notebook or Video Server machine in no site.",
  connection: "server",
  importable: true,
  crossChecks: allCrossChecks,
});

/**
 * The frame of a `Site`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SITE = resourceFrame<SiteInputs>()(SITE_DEFINITION);
