/**
 * Every input and output of a `WebAdaptor`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/web-adaptor.md's
 * table are derived from it.
 */
import { z } from "zod";
import { adminInputs, adminTlsInput, timeoutsInput } from "../common/inputs/admin";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import { httpUrlSchema } from "../common/inputs/schemas";
import { resourceFrame } from "../common/pulumi/frame";
import { withoutTrailingSlash } from "../../url";
import { WEB_ADAPTOR_MODES } from "./values";
import type { WebAdaptorInputs } from "./generated";

/** Default bound on a configuration, including reading the list after a lost answer. */
export const DEFAULT_CONFIGURE_MS = 5 * 60_000;

const admin = adminInputs();

/**
 * A Web Adaptor registered with a server site or a portal: configured through its own page
 * `POST {webAdaptorUrl}/webadaptor` (what Esri's configure tool posts), which registers it in
 * the server's or the portal's `system/webadaptors`; unregistered on destroy with
 * `POST …/system/webadaptors/<id>/unregister`.
 *
 * @example
 * ```ts
 * const adaptor = new WebAdaptor("server-wa", {
 *   webAdaptorUrl: "https://gis.example.com/server",
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 * });
 * ```
 *
 * @internal
 */
export const WEB_ADAPTOR_DEFINITION = defineResource({
  type: "WebAdaptor",
  folder: "web-adaptor",
  publicExports: { "./values": ["type WebAdaptorMode", "WEB_ADAPTOR_MODES"] },
  apiNote: "the last two are its `mode` input's type and values",
  doc: "A Web Adaptor registered with a server site or a portal (system/webadaptors).",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link WebAdaptor}: the Web Adaptor's URL, what it fronts (the server's " +
    "connection, {@link ServerResourceArgs}, or a portal's administrative root) and its admin " +
    "access. Every field accepts a `pulumi.Input`.",
  inputs: {
    serverType: {
      ...admin.serverType,
      doc: "The server's product in `server` mode (typically a Site's `serverType`); default `mission-server`.",
      stateOnly: true,
    },
    adminUrl: {
      ...admin.adminUrl,
      // A portal's `…/portaladmin` too: the rules across inputs match it with `mode`.
      schema: httpUrlSchema,
      doc:
        "The administrative root of what the Web Adaptor fronts: a server's, e.g. " +
        "`https://gis.example.com:6443/arcgis/admin` (typically a Site's `adminUrl`), or in " +
        "`portal` mode a portal's, e.g. `https://portal.example.com:7443/arcgis/portaladmin`. " +
        "The configure step is given its `scheme://host:port`, as Esri's configure tool's `-g`.",
      replaces: true,
    },
    username: {
      ...admin.username,
      doc:
        "The server's primary site administrator, or in `portal` mode a portal administrator " +
        "(the configure tool's `-u`).",
    },
    password: {
      ...admin.password,
      doc: "That administrator's password (`-p`). Stored only as a secret, sent only in POST bodies.",
    },
    webAdaptorUrl: {
      schema: httpUrlSchema,
      doc:
        "The Web Adaptor's URL as users reach it, e.g. `https://gis.example.com/server`; its " +
        "configuration page is `{webAdaptorUrl}/webadaptor`. Another spelling of the same URL " +
        "(host case, a default port, a trailing slash) is no change.",
      outputDoc: "The Web Adaptor's URL as declared.",
      replaces: true,
      url: true,
    },
    mode: {
      schema: () =>
        named(z.enum(WEB_ADAPTOR_MODES), { name: "WebAdaptorMode", from: "./values" }).default(
          "server",
        ),
      doc: "What it fronts: `server` (default) or `portal` (the configure tool's `-m`).",
      outputDoc: "What it fronts.",
      replaces: true,
    },
    adminAccess: {
      schema: () => z.boolean().default(true),
      doc:
        "Whether the server's administrative API (`…/admin`, Manager) is reachable through the " +
        "Web Adaptor (the configure tool's `-a`; `register`'s `isAdminEnabled`); default true, " +
        "as the tool's. Server mode only. A change configures the Web Adaptor again.",
      outputDoc: "Whether administrative access through the Web Adaptor was asked for.",
      updates: true,
    },
    adoptExisting: {
      schema: () => z.boolean().default(false),
      doc:
        "Take on a Web Adaptor the server or portal lists already (default false: that is an " +
        "error, and nothing is sent).",
      outputDoc: "Whether a registered Web Adaptor was taken on.",
      stateOnly: true,
    },
    unregisterAdoptedOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "Whether destroy unregisters a Web Adaptor this resource adopted. Default false: an " +
        "adopted one is left registered as it was found. One this resource registered is always " +
        "unregistered on destroy.",
      outputDoc: "Whether destroy unregisters an adopted Web Adaptor, default filled in.",
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: timeoutsInput(
      {
        configureMs: {
          ms: DEFAULT_CONFIGURE_MS,
          doc:
            "How long the configuration may take (the configure POST, and reading the list " +
            "after a lost answer).",
        },
      },
      "How long to wait for the configuration (milliseconds).",
    ),
  },
  outputs: {
    state: {
      type: '"registered" | "adopted"',
      doc:
        '"registered" when this resource registered the Web Adaptor, "adopted" when the list ' +
        "named it already.",
    },
    webAdaptorId: {
      type: "string",
      doc: "Its id in the server's or portal's `system/webadaptors` list.",
    },
    registeredUrl: { type: "string", doc: "Its `webAdaptorURL` as the list spells it." },
    machineName: { type: "string", doc: "The machine the list names it on." },
    isAdminEnabled: {
      type: "boolean",
      doc: "Whether the list shows administrative access enabled, as last read.",
    },
    registeredAt: { type: "string", doc: "When it was registered or adopted (ISO 8601)." },
  },
  operation: "`POST {webAdaptorUrl}/webadaptor`",
  summary: "Registers a Web Adaptor with a server or portal; destroy unregisters it.",
  connection: "server",
  deleteBeforeReplace: true,
  crossChecks: webAdaptorCrossChecks,
});

/**
 * `adminUrl` names what `mode` says: a server's `…/admin` in server mode, a portal's
 * `…/portaladmin` in portal mode.
 *
 * @internal
 */
export function webAdaptorCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const { adminUrl, mode } = values;
  if (typeof adminUrl !== "string") return [];
  let path: string;
  try {
    path = withoutTrailingSlash(new URL(adminUrl).pathname).toLowerCase();
  } catch {
    return [];
  }
  const portal = path.endsWith("/portaladmin");
  if ((mode ?? "server") === "portal" && !portal) {
    return [
      {
        property: "adminUrl",
        reason:
          "must be the portal's administrative root, ending in /portaladmin (e.g. " +
          "https://portal.example.com:7443/arcgis/portaladmin), since mode is portal",
      },
    ];
  }
  if ((mode ?? "server") === "server" && portal) {
    return [
      {
        property: "mode",
        reason: "must be portal when adminUrl is a portal's administrative root (…/portaladmin)",
      },
    ];
  }
  return [];
}

/**
 * The frame of a `WebAdaptor`, derived from its definition (common/pulumi/frame.ts).
 *
 * @internal
 */
export const WEB_ADAPTOR = resourceFrame<WebAdaptorInputs>()(WEB_ADAPTOR_DEFINITION);
