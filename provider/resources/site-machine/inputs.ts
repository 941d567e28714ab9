/**
 * The inputs of a `SiteMachine`: their types, the zod schema that checks them, the rule across
 * fields, and which inputs replace the machine and which only update state.
 */
import { z } from "zod";
import type { ServerType } from "../../client";
import { ACCESS_INPUTS, adminInputsSchema } from "../common/admin-inputs";
import { type CheckFailure } from "../common/input-check";
import { adminRootSchema, nonEmpty } from "../common/input-schemas";
import { inputReader, type InputRules } from "../common/implementation";
import type { Assert, ParsesTo } from "../common/schema-match";
import { SITE_MACHINE } from "./resource";
import { sameUrl } from "../common/urls";

/**
 * Default bound on waiting for the joining machine to answer at all (a fresh install).
 *
 * @internal
 */
export const DEFAULT_SERVER_READY_MS = 15 * 60_000;

/**
 * Default bound on the join: joinSite, its pollAfter and the watching that follows.
 *
 * @internal
 */
export const DEFAULT_JOIN_MS = 30 * 60_000;

/** Inputs of a `SiteMachine` whose values are known. */
export interface SiteMachineInputs {
  serverType: ServerType;
  /** Administrative root of the joining machine. */
  adminUrl: string;
  /** Administrative root of a machine of the site (joinSite's `adminURL`). */
  siteAdminUrl: string;
  /** The machine's name as the site lists it; default: the host of `adminUrl`. */
  machineName?: string;
  username: string;
  password: string;
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { serverReadyMs: number; joinMs: number };
  /**
   * Whether destroy unregisters a machine this resource adopted (one that was in the site before
   * the stack took it on). Default false: an adopted machine is left in the site as it was found.
   * A machine this resource joined is always unregistered on destroy.
   */
  unregisterAdoptedOnDestroy: boolean;
}

/** Outputs of a `SiteMachine` as stored in state. */
export interface SiteMachineOutputs extends SiteMachineInputs {
  /** "joined" when this resource joined the machine, "adopted" when it was in the site already. */
  state: "joined" | "adopted";
  /** The machine's name as the site spells it. */
  registeredName: string;
  /** The site's machines, as last read. */
  machines: string[];
  /** When the machine joined or was adopted (ISO 8601). */
  joinedAt: string;
}

/**
 * The zod schema of the SiteMachine inputs.
 *
 * @internal
 */
export function siteMachineInputsSchema() {
  return adminInputsSchema(
    {
      siteAdminUrl: adminRootSchema(),
      machineName: nonEmpty().optional(),
      unregisterAdoptedOnDestroy: z.boolean().default(false),
    },
    { serverReadyMs: DEFAULT_SERVER_READY_MS, joinMs: DEFAULT_JOIN_MS },
  );
}

/**
 * The hand-written {@link SiteMachineInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SiteMachineInputsMatch = Assert<
  ParsesTo<ReturnType<typeof siteMachineInputsSchema>, SiteMachineInputs>
>;

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
 * The SiteMachine's input rules.
 *
 * @internal
 */
export const SITE_MACHINE_INPUTS: InputRules = {
  frame: SITE_MACHINE,
  schema: siteMachineInputsSchema,
  crossChecks: siteMachineCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseSiteMachineInputs = inputReader<SiteMachineInputs>(SITE_MACHINE_INPUTS);

/**
 * Inputs whose change means another machine or another site: unregister, then join anew.
 *
 * @internal
 */
export const REPLACING_INPUTS = ["serverType", "adminUrl", "siteAdminUrl", "machineName"] as const;

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [...ACCESS_INPUTS, "unregisterAdoptedOnDestroy"] as const;
