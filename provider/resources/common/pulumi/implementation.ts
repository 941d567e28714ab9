/**
 * The frame every resource's lifecycle file fills in: its input rules (schema, cross-field rules,
 * output-only keys) and its six methods become the `implementation` the host runs.
 *
 * @internal
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  type CheckFailure,
  checkInputs,
  containsUnknown,
  parseValidInputs,
  warnOfPlainHttp,
} from "../inputs/check";
import { isPartialCreate } from "./partial-create";
import { isArcGISRequestError } from "../../../client";
import { type ResourceImplementation, withoutProvider } from "./lazy-provider";
import type { ResourceFrame } from "./registration";
import { watchHostParent } from "./host-watch";
import { hostEngineLog, loggedTo } from "../messages/engine-log";
import { operationLogger } from "../messages/operation-log";
import { certificateChanges, wordForTheInput } from "../messages/failures";
import { logInfo } from "../messages/log";
import { certificatesAsSecrets } from "./secrets";
import { useStackConfig, withCaCertDigest, withEquivalentCa } from "../connection/ca-config";

/**
 * What a resource's inputs are: checked by `check()`, and read back from state by the other
 * methods.
 *
 * @internal
 */
export interface InputRules {
  /**
   * The resource's frame (common/pulumi/frame.ts): its class name, for messages, and the keys that exist
   * only in outputs, left out when outputs are read back as inputs.
   */
  frame: Pick<ResourceFrame, "type" | "outputOnly">;
  /**
   * How outputs read back become inputs beyond leaving out the output-only keys, when they need
   * more: changes `values` (a copy, without `__provider`) in place.
   */
  fromOutputs?: (values: Record<string, unknown>) => void;
  /** The strict schema of the inputs (the frame builds it once, on first use). */
  schema: () => z.ZodType;
  /** Rules across fields, reported together with the per-field problems. */
  crossChecks: (values: Record<string, unknown>) => CheckFailure[];
}

/**
 * Reads inputs, or outputs read back as inputs, that must be valid; any problem is one error.
 *
 * @internal
 */
export function parseInputsWith<T>(rules: InputRules, raw: unknown): T {
  const values = withoutProvider(raw);
  rules.fromOutputs?.(values);
  return parseValidInputs<T>(
    rules.frame.type,
    rules.schema(),
    values,
    rules.frame.outputOnly,
    rules.crossChecks,
  );
}

/**
 * The reader of a resource's inputs: what create, update, read and delete are given (inputs, or
 * outputs read back as inputs), checked by the rules, as a `T`.
 *
 * @internal
 */
export function inputReader<T>(rules: InputRules): (raw: unknown) => T {
  return (raw) => parseInputsWith<T>(rules, raw);
}

/**
 * The lifecycle methods of a resource whose outputs are `O`: `implementationOf` types them, so a
 * lifecycle's functions need not repeat their result types.
 */
interface Lifecycle<O> {
  diff: (
    id: string,
    olds: O,
    news: unknown,
  ) => pulumi.dynamic.DiffResult | Promise<pulumi.dynamic.DiffResult>;
  create: (inputs: unknown) => Promise<pulumi.dynamic.CreateResult>;
  read: (id: string, props: O) => Promise<pulumi.dynamic.ReadResult>;
  update: (id: string, olds: O, news: unknown) => Promise<pulumi.dynamic.UpdateResult>;
  delete: (id: string, props: O) => Promise<void>;
  /**
   * Says, at `check()` of a resource not in the stack yet (so also at `pulumi preview`), what its
   * create will do where that depends on the server, from valid inputs whose values are known.
   * Sends no change; a failure to tell is said, never thrown. What the server shows the create
   * would refuse (PortalSite: a portal that has its site, without adoptExisting) it returns as
   * failures, which `check()` reports under the resource, so that nothing is sent.
   */
  preview?: (inputs: Record<string, unknown>) => Promise<void | CheckFailure[]>;
  /**
   * Refusals that can be known from the inputs, and from the recorded ones (`olds`; empty for a
   * resource not in the stack yet), once the schema and the rules across fields pass: `check()`
   * reports them, so the engine shows them once under the resource and nothing is sent (never an
   * error thrown by diff, which the dynamic-provider host prints twice). Values still unknown (a
   * preview) are left to create or update, which must refuse them there. The one hook for both a
   * change a resource cannot make (Site's) and what its inputs prove (ServerCertificate's).
   */
  refusals?: (olds: Record<string, unknown>, inputs: Record<string, unknown>) => CheckFailure[];
}

/**
 * The implementation the host runs: `check()` from the input rules, the rest from the lifecycle.
 *
 * @internal
 */
export function implementationOf<O>(
  rules: InputRules,
  lifecycle: Lifecycle<O>,
): ResourceImplementation {
  const type = rules.frame.type;
  return {
    configure: useStackConfig,
    check: async (olds: unknown, news: unknown, forEngine = false) =>
      plainErrors(async () => {
        const checked = withCaCertDigestOf(
          checkInputs(rules.schema(), news, rules.crossChecks, rules.frame.type),
        );
        const refused =
          lifecycle.refusals !== undefined && checked.failures.length === 0
            ? lifecycle.refusals(withoutProvider(olds ?? {}), checked.inputs)
            : [];
        const result = refused.length === 0 ? checked : { ...checked, failures: refused };
        // Here only: diff, create and update read the same inputs again, and a warning said at
        // every step would reach the user two or three times for one run.
        warnOfPlainHttp(result.inputs);
        const isNew = Object.keys(withoutProvider(olds ?? {})).length === 0;
        if (
          lifecycle.preview !== undefined &&
          isNew &&
          (result.failures ?? []).length === 0 &&
          !containsUnknown(result.inputs)
        ) {
          const refusedNow = await lifecycle.preview(result.inputs);
          if (refusedNow !== undefined && refusedNow.length > 0) {
            return { ...result, failures: refusedNow };
          }
        }
        return forEngine ? { ...result, inputs: certificatesAsSecrets(result.inputs) } : result;
      }),
    diff: async (id: string, olds: O, news: unknown) =>
      plainErrors(async () => {
        const before = withEquivalentCa(olds, news);
        const result = await lifecycle.diff(id, before, news);
        if (result.changes !== false) sayChangedCertificates(before, news);
        return result;
      }),
    create: (inputs: unknown) => plainErrors(() => lifecycle.create(inputs), inputs, type),
    read: (id: string, props: O) => plainErrors(() => lifecycle.read(id, props), props, type),
    update: (id: string, olds: O, news: unknown) =>
      plainErrors(() => lifecycle.update(id, olds, news), news, type),
    delete: (id: string, props: O) => plainErrors(() => lifecycle.delete(id, props), props, type),
  };
}

/** What check() works on: the inputs to record and the failures. */
type Checked = ReturnType<typeof checkInputs>;

/**
 * Checked inputs that passed, with `tls.caCertSha256` recorded from the stack config
 * `tls.caCertConfig` names (its problem, if any, the one failure): what a certificate from config
 * is, like every other input, is known at check, before any request.
 */
function withCaCertDigestOf(checked: Checked): Checked {
  if (checked.failures.length > 0) return checked;
  const digested = withCaCertDigest(checked.inputs);
  if ("problem" in digested) {
    return { ...checked, failures: [{ property: "", reason: digested.problem }] };
  }
  return { inputs: digested.inputs, failures: [] };
}

/**
 * Says which certificate inputs a diff changes, by their SHA-256 fingerprints: the engine's own
 * display of a diff prints the inputs' values (a whole PEM), and nothing a provider answers
 * changes that (docs/troubleshooting.md), so the provider's message names them the short way.
 */
function sayChangedCertificates(olds: unknown, news: unknown): void {
  for (const line of certificateChanges(olds, news)) logInfo(line);
}

/**
 * Runs a lifecycle step; a failure the user can act on (the messages this package writes, and the
 * client's ArcGIS errors, which say what failed and what to do) loses its stack trace, which the
 * dynamic-provider host would otherwise print into `pulumi up`'s output. A fault of the code
 * (TypeError and the like) keeps its trace. A failure waiting cannot fix is worded, once, as what
 * to change in which input (`wordForTheInput`): every step of every resource passes here, so no
 * step can forget to name it.
 */
async function plainErrors<T>(
  step: () => T | Promise<T>,
  inputs?: unknown,
  resource?: string,
): Promise<T> {
  watchHostParent();
  const run = async (): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      if (
        error instanceof Error &&
        (error.constructor === Error || isArcGISRequestError(error) || isPartialCreate(error))
      ) {
        error.stack = "";
        wordForTheInput(error, inputs, resource);
      }
      throw error;
    }
  };
  // In Pulumi's dynamic-provider host, the step's messages go to the engine's log (under the
  // stack: the host does not pass the step the resource's URN); the plugin has set its logger.
  const engine = operationLogger() === undefined ? hostEngineLog() : undefined;
  return engine === undefined ? run() : loggedTo(engine, "", run);
}
