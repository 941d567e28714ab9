/**
 * Every input and output of a `SiteMachine`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/site-machine.md's
 * table are derived from it.
 */
import { z } from "zod";
import { sameUrl } from "../common/connection/urls";
import { adminInputs, adminTlsInput, timeoutsInput } from "../common/inputs/admin";
import { type CheckFailure, defineResource } from "../common/inputs/definition";
import { adminRootSchema, nonEmpty } from "../common/inputs/schemas";
import { resourceFrame } from "../common/pulumi/frame";
import type { SiteMachineInputs } from "./generated";

/** Default wait for the joining machine to answer (Esri's tools wait about 15 minutes). */
export const DEFAULT_SERVER_READY_MS = 15 * 60_000;

/** Default bound on the join, including watching the site's machine list after a lost answer. */
export const DEFAULT_JOIN_MS = 30 * 60_000;

const admin = adminInputs();

/**
 * A server machine in a site, joined with `POST {machine admin root}/joinSite` and unregistered
 * with `POST {site admin root}/machines/<name>/unregister` on destroy.
 *
 * @example
 * ```ts
 * const second = new SiteMachine("gis2", {
 *   adminUrl: "https://gis2.example.com:20443/arcgis/admin",
 *   siteAdminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 * });
 * ```
 *
 * @internal
 */
export const SITE_MACHINE_DEFINITION = defineResource({
  type: "SiteMachine",
  folder: "site-machine",
  doc: "A machine joined to an existing site (joinSite).",
  base: 'Omit<ServerConnectionArgs, "adminUrl">',
  argsDoc:
    "Arguments of a {@link SiteMachine}: the joining machine, the site it joins and an " +
    "administrator of that site. Every field accepts a `pulumi.Input`.",
  inputs: {
    serverType: {
      ...admin.serverType,
      doc: "The product of the site and the machine: `mission-server` (default) or another.",
      own: true,
      replaces: true,
    },
    adminUrl: {
      schema: admin.adminUrl.schema,
      outputDoc: admin.adminUrl.outputDoc,
      doc:
        "Administrative root of the joining machine, e.g. " +
        "`https://gis2.example.com:20443/arcgis/admin`.",
      inherited: "base",
      own: true,
      replaces: true,
      url: true,
    },
    username: { ...admin.username, doc: "An administrator of the site." },
    password: { ...admin.password, doc: "Its password. Stored only as a secret." },
    siteAdminUrl: {
      schema: adminRootSchema,
      doc:
        "Administrative root of a machine already in the site (typically a Site's `adminUrl`; " +
        "joinSite's `adminURL`); it must be another machine than `adminUrl`. Default: " +
        "`connection.adminUrl`, stack config `arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`: a " +
        "connection describes the site, so its `adminUrl` is this one, never the joining " +
        "machine's.",
      outputDoc: "The site's machine it joined through.",
      defaultText: "`connection`, config, env",
      argOptional: true,
      replaces: true,
      url: true,
    },
    machineName: {
      schema: () => nonEmpty().optional(),
      doc:
        "The machine's name as the site lists it (a real server lists its fully qualified " +
        "name); default: the host of `adminUrl`.",
      outputDoc: "The machine's name as declared (when given).",
      defaultText: "the host of `adminUrl`",
      replaces: true,
    },
    unregisterAdoptedOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "Whether destroy unregisters the machine when this resource adopted it (it was in the " +
        "site before the stack took it on). Default false: an adopted machine is left in the " +
        "site as it was found. A machine this resource joined is always unregistered on destroy.",
      outputDoc: "Whether destroy unregisters an adopted machine, default filled in.",
      stateOnly: true,
    },
    tls: {
      ...adminTlsInput(),
      doc:
        "TLS: a CA certificate (PEM) to trust (for both machines), or (discouraged) no " +
        "verification. Default: `connection.tls`, then stack config and the environment, as " +
        "for the others.",
      own: true,
    },
    timeouts: timeoutsInput(
      {
        serverReadyMs: {
          ms: DEFAULT_SERVER_READY_MS,
          doc: "How long the joining machine may take to answer at all.",
        },
        joinMs: {
          ms: DEFAULT_JOIN_MS,
          doc: "How long the join may take (joinSite, its `pollAfter`, the watching after it).",
        },
      },
      "How long to wait for the machine to answer, and for the join (milliseconds).",
    ),
  },
  outputs: {
    state: {
      type: '"joined" | "adopted"',
      doc: '"joined" when this resource joined the machine, "adopted" when it was in the site already.',
    },
    registeredName: { type: "string", doc: "The machine's name as the site spells it." },
    machines: { type: "string[]", doc: "The site's machines, as last read." },
    joinedAt: { type: "string", doc: "When the machine joined or was adopted (ISO 8601)." },
  },
  operation: "`POST {machine admin root}/joinSite`",
  summary: "Joins another machine to a site; destroy unregisters it.",
  connection: "machine",
  importable: true,
  crossChecks: siteMachineCrossChecks,
});

/**
 * A machine cannot join the site through itself, under any spelling of its URL (host case, a
 * default port, a trailing slash, `localhost` for a loopback address): a SiteMachine is never the
 * site's own machine, which its destroy would otherwise take out of the site.
 *
 * @internal
 */
export function siteMachineCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const { adminUrl, siteAdminUrl } = values;
  if (typeof adminUrl !== "string" || typeof siteAdminUrl !== "string") return [];
  if (!sameUrl(adminUrl, siteAdminUrl)) return [];
  return [
    {
      property: "siteAdminUrl",
      reason:
        "must be the admin URL of another machine, one that is already in the site (it names " +
        "the joining machine itself, the same URL spelled " +
        (adminUrl === siteAdminUrl ? "alike" : "differently") +
        ")",
    },
  ];
}

/**
 * The frame of a `SiteMachine`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SITE_MACHINE = resourceFrame<SiteMachineInputs>()(SITE_MACHINE_DEFINITION);
