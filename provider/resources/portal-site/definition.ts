/**
 * Every input and output of a `PortalSite`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/portal-site.md's
 * table are derived from it.
 */
import { z } from "zod";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import { httpUrlSchema, nonEmpty } from "../common/inputs/schemas";
import { timeoutsWithDocs } from "../common/inputs/admin";
import { portalInputs, portalTlsInput } from "../common/inputs/portal";
import { resourceFrame } from "../common/pulumi/frame";
import type { PortalSiteInputs } from "./generated";

/** Default wait for a freshly installed portal to answer: as a fresh server's (Site). */
export const DEFAULT_PORTAL_READY_MS = 15 * 60_000;
/** Default bound on the creation: Esri's page calls it time consuming. */
export const DEFAULT_PORTAL_CREATE_MS = 60 * 60_000;

/** The kinds of content store createNewSite takes (Chef's `providers/portal.rb`, DSC). */
export const CONTENT_STORE_TYPES = ["fileStore", "cloudStore"] as const;
/** Where a content store lives. */
export const CONTENT_STORE_PROVIDERS = ["FileSystem", "Amazon", "Azure"] as const;

const portal = portalInputs();

function contentStoreSchema() {
  return named(
    z
      .strictObject({
        type: z
          .enum(CONTENT_STORE_TYPES, { message: "must be fileStore or cloudStore" })
          .default("fileStore")
          .describe("`fileStore` (default: a directory) or `cloudStore` (Amazon S3, Azure Blob)."),
        provider: z
          .enum(CONTENT_STORE_PROVIDERS, { message: "must be FileSystem, Amazon or Azure" })
          .default("FileSystem")
          .describe(
            "`FileSystem` (default, with `fileStore`), `Amazon` or `Azure` (with `cloudStore`).",
          ),
        connectionString: named(
          z
            .union([nonEmpty(), z.record(z.string(), z.string())])
            .describe(
              "A file store's directory as the portal sees it (e.g. " +
                "`C:\\arcgisportal\\content` or `\\\\fileserver\\portal-content`); a cloud " +
                'store\'s settings without their secrets (e.g. `{ region: "us-east-1", ' +
                'credentialType: "accessKey" }`).',
            ),
          { type: "string | Record<string, string>" },
        ),
        objectStore: nonEmpty()
          .optional()
          .describe("A cloud store's bucket or container (and path), e.g. `my-bucket/portal`."),
        connectionSecrets: named(z.record(z.string(), z.string()), {
          type: "Record<string, string>",
        })
          .optional()
          .describe(
            "A cloud store's secret settings (e.g. `accessKeyId`, `secretAccessKey`; " +
              "`accountKey`), sent inside `connectionString`. Stored only as a secret.",
          ),
      })
      .describe("The portal's content store (the `contentStore` argument and output)."),
    { name: "PortalContentStore" },
  );
}

/** The content store's rules across its fields, naming each field. */
function contentStoreChecks(store: Record<string, unknown> | undefined): CheckFailure[] {
  if (store === undefined) return [];
  const failures: CheckFailure[] = [];
  const type = store.type ?? "fileStore";
  const provider = store.provider ?? "FileSystem";
  if (type === "fileStore") {
    if (provider !== "FileSystem") {
      failures.push({
        property: "contentStore.provider",
        reason: "a fileStore's provider is FileSystem; use type cloudStore for Amazon or Azure",
      });
    }
    if (typeof store.connectionString !== "string") {
      failures.push({
        property: "contentStore.connectionString",
        reason: "a fileStore's connectionString is the content directory (a path)",
      });
    }
    for (const field of ["connectionSecrets", "objectStore"]) {
      if (store[field] !== undefined) {
        failures.push({
          property: `contentStore.${field}`,
          reason: "only a cloudStore takes it; remove it",
        });
      }
    }
  } else {
    if (provider === "FileSystem") {
      failures.push({
        property: "contentStore.provider",
        reason: "a cloudStore's provider is Amazon or Azure",
      });
    }
    if (typeof store.connectionString === "string") {
      failures.push({
        property: "contentStore.connectionString",
        reason:
          "a cloudStore's connectionString is an object of its settings (its secrets go in " +
          "connectionSecrets)",
      });
    }
  }
  return failures;
}

/** The rules across inputs: no token; the security question and its answer go together. */
function crossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures = contentStoreChecks(values.contentStore as Record<string, unknown> | undefined);
  if (values.token !== undefined) {
    failures.push({
      property: "token",
      reason:
        "a PortalSite takes no token: give the portal's administrator as username and password " +
        "(createNewSite makes that account; adoption signs in with it)",
    });
  }
  const question = values.securityQuestionIdx !== undefined;
  const answer = values.securityAnswer !== undefined;
  if (question !== answer) {
    failures.push({
      property: question ? "securityAnswer" : "securityQuestionIdx",
      reason:
        "securityQuestionIdx and securityAnswer are given together (the portal takes both or " +
        "neither)",
    });
  }
  return failures;
}

/**
 * The site of a Portal for ArcGIS, created with `POST {portal}/portaladmin/createNewSite` on a
 * portal that is in no site yet: its content store and its initial administrator.
 *
 * @example
 * ```ts
 * const portalSite = new PortalSite("portal", {
 *   sharingUrl: "https://portal.example.com:7443/arcgis/sharing/rest",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 *   fullName: "Portal Administrator",
 *   email: "gis-admins@example.com",
 *   contentStore: { connectionString: "C:\\arcgisportal\\content" },
 * });
 * ```
 *
 * @internal
 */
export const PORTAL_SITE_DEFINITION = defineResource({
  type: "PortalSite",
  folder: "portal-site",
  doc:
    "The site of a Portal for ArcGIS (portaladmin/createNewSite): its content store and its " +
    "initial administrator, on a portal in no site yet.",
  base: "PortalConnectionArgs",
  argsDoc:
    "Arguments of a {@link PortalSite}: the portal ({@link PortalConnectionArgs}; no token: " +
    "createNewSite makes the administrator whose name and password are given; a token is refused), the " +
    "administrator's account and the content store. Every field accepts a `pulumi.Input`.",
  inputs: {
    sharingUrl: {
      ...portal.sharingUrl,
      schema: () =>
        httpUrlSchema().refine((v) => /\/sharing\/rest\/?$/i.test(new URL(v).pathname), {
          message:
            "must be the portal's sharing root, ending in /sharing/rest (its administrative root " +
            "…/portaladmin is found beside it), e.g. https://portal.example.com:7443/arcgis/sharing/rest",
        }),
      doc:
        "The portal's sharing API root, e.g. `https://portal.example.com:7443/arcgis/sharing/rest`; " +
        "createNewSite is sent to its administrative root (`…/portaladmin`) beside it. Default: " +
        "`connection.sharingUrl`, stack config `arcgis-admin:sharingUrl`, " +
        "`ARCGIS_ADMIN_SHARING_URL`.",
      own: true,
    },
    username: {
      ...portal.username,
      schema: nonEmpty,
      doc:
        "The initial administrator createNewSite creates (and, with adoptExisting, an " +
        "administrator of the portal). Default: `connection.username`, " +
        "`arcgis-admin:portalUsername`, `ARCGIS_ADMIN_PORTAL_USERNAME`.",
      outputDoc: "The initial administrator's name.",
      own: true,
    },
    password: {
      ...portal.password,
      schema: nonEmpty,
      doc:
        "The initial administrator's password. Stored only as a secret, sent only in the " +
        "createNewSite POST body and to generateToken. Default: `connection.password`, " +
        "`arcgis-admin:portalPassword`, `ARCGIS_ADMIN_PORTAL_PASSWORD`.",
      outputDoc: "The initial administrator's password (secret).",
      own: true,
    },
    token: {
      ...portal.token,
      doc:
        "Not taken: createNewSite makes the administrator from `username` and `password`, and " +
        "adoption signs in with them; a token given (here or by the connection) is refused.",
      outputDoc: "Always unset (a PortalSite takes no token).",
    },
    fullName: {
      schema: nonEmpty,
      doc: "The administrator's full name (createNewSite's `fullname`).",
      stateOnly: true,
    },
    email: {
      schema: () => z.email({ message: "must be an email address, e.g. gis-admins@example.com" }),
      doc: "The administrator's email address.",
      stateOnly: true,
    },
    description: {
      schema: () => z.string().optional(),
      doc: "A description of the administrator's account.",
      stateOnly: true,
    },
    securityQuestionIdx: {
      schema: () =>
        z
          .number()
          .int({ message: "must be a whole number" })
          .min(1, { message: "must be 1 or more (the portal's list of questions)" })
          .optional(),
      doc:
        "The index of the administrator's security question in the portal's list (1 is " +
        '"What city were you born in?"), with `securityAnswer`.',
      stateOnly: true,
    },
    securityAnswer: {
      schema: () => nonEmpty().optional(),
      doc:
        "The answer to the security question (createNewSite's `securityQuestionAns`). Stored " +
        "only as a secret.",
      outputDoc: "The answer to the security question (secret).",
      secret: true,
      stateOnly: true,
    },
    contentStore: {
      schema: contentStoreSchema,
      doc:
        "Where the portal keeps its content: a directory (`fileStore`, provider `FileSystem`) or " +
        "a cloud store (`cloudStore`, provider `Amazon` or `Azure`).",
      outputDoc: "The content store as declared (a secret when it has connectionSecrets).",
      secretWith: "connectionSecrets",
      replaces: true,
    },
    userLicenseTypeId: {
      schema: () => nonEmpty().optional(),
      doc: "The administrator's user type, e.g. `creatorUT` (the portal's default when omitted).",
      defaultText: "the portal's",
      stateOnly: true,
    },
    adoptExisting: {
      schema: () => z.boolean().default(false),
      doc:
        'Adopt a portal that already has its site (recorded as `state: "adopted"`) instead of ' +
        "refusing it (default false). The portal is left as it is: nothing is sent to it but " +
        "reads and a sign-in with `username` and `password`.",
      outputDoc: "Whether a portal with its site may be adopted.",
      stateOnly: true,
    },
    tls: { ...portalTlsInput(), outputDoc: "How the portal's certificate is checked." },
    timeouts: {
      schema: () =>
        named(
          timeoutsWithDocs({
            portalReadyMs: {
              ms: DEFAULT_PORTAL_READY_MS,
              doc: "How long to wait for a fresh portal to answer, in ms (default 900 000: 15 minutes).",
            },
            createMs: {
              ms: DEFAULT_PORTAL_CREATE_MS,
              doc:
                "How long the creation may take until the portal's site is ready, in ms " +
                "(default 3 600 000: 60 minutes).",
            },
          })
            .unwrap()
            .describe(
              "Time limits of a `PortalSite` (the `timeouts` argument and output), in milliseconds.",
            ),
          { name: "PortalSiteTimeouts" },
        ).default({ portalReadyMs: DEFAULT_PORTAL_READY_MS, createMs: DEFAULT_PORTAL_CREATE_MS }),
      doc: "How long to wait for the portal to answer, and for the creation to complete (ms).",
      outputDoc: "The time limits in effect, defaults filled in (milliseconds).",
      defaultText: "15 and 60 minutes",
      stateOnly: true,
    },
  },
  outputs: {
    state: {
      type: '"created" | "adopted"',
      doc: "`created` when this resource created the portal's site, `adopted` when it adopted one.",
    },
    createdAt: { type: "string", doc: "When the site was created or adopted (ISO 8601)." },
    portalAdminUrl: {
      type: "string",
      doc: "The portal's administrative root (`…/portaladmin`) createNewSite was sent to.",
    },
  },
  operation: "`POST {portal}/portaladmin/createNewSite`",
  summary:
    "Creates the site of a Portal for ArcGIS in no site: content store, initial administrator.",
  connection: "portal",
  crossChecks,
});

/**
 * The frame of a `PortalSite`, derived from its definition: its input rules and reader, the
 * lists its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const PORTAL_SITE = resourceFrame<PortalSiteInputs>()(PORTAL_SITE_DEFINITION);
