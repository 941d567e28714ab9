/**
 * The lifecycle of a resource that keeps settings on a server (LogSettings, SystemProperties):
 * diff, create, read (refresh), update and delete by one rule. The declared settings are kept as
 * declared, every other one is the server's; what this stack wrote is recorded (the ledger:
 * `ledger.ts`), and a destroy with `restoreOnDestroy` puts back only what the server still holds
 * as written. A resource names its settings, its outputs and its read and send calls
 * ({@link KeptSettings}); everything else is here.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AdminSession } from "../../../client";
import { withoutTrailingSlash } from "../../../url";
import { type AdminTarget, adminSessionFor } from "../connection/admin";
import type { CheckFailure } from "../inputs/check";
import { explained, failureMessage, messageOf } from "../messages/failures";
import { logInfo, logWarn } from "../messages/log";
import type { Frame } from "../pulumi/frame";
import { implementationOf } from "../pulumi/implementation";
import { type ResourceImplementation, withoutProvider } from "../pulumi/lazy-provider";
import { inputsOfOutputs } from "../pulumi/registration";
import { changedInputs, sameValue } from "../pulumi/state-diff";
import {
  type Ledger,
  ledgerAfter,
  leftMessage,
  nothingWrittenWarning,
  restorePlan,
  type Settings,
  shown,
} from "./ledger";
import { type KeptServer, writeChange } from "./write";

/** A resource's outputs, as recorded in state. */
type Outputs = Record<string, unknown>;

/** What every resource that keeps settings has among its inputs. */
export interface KeptInputs extends AdminTarget {
  restoreOnDestroy: boolean;
  timeouts: { changeMs: number };
}

/** A resource that keeps settings: what it names, the rest is the one rule's. */
export interface KeptSettings<I extends KeptInputs> extends KeptServer<I> {
  /**
   * Its frame (from its definition): the input rules that parse inputs and outputs read back as
   * inputs; the diff compares its inputs and replaces on those it marks `replaces`.
   */
  frame: Pick<Frame<I>, "definition" | "rules" | "parse"> & { replacing: readonly string[] };
  /** The names of its outputs that hold the ledger and the server's settings as last read. */
  outputs: {
    /** The value each declared setting had before this stack first wrote it. */
    previous: string;
    /** The declared settings the server did not have (removed on restore); none when absent. */
    added?: string;
    /** The last value this stack wrote to each declared setting. */
    written: string;
    /** The server's settings as last read ({@link serverView}). */
    server: string;
  };
  /** `previous` records the server's whole set at create, declared or not (LogSettings). */
  recordsWholeSet?: boolean;
  /** The declared settings, by name, with their values. */
  declared(inputs: I): Settings;
  /**
   * The inputs that declare `settings`, spread over the recorded inputs at a refresh (`settings`
   * then holds the server's values). A declared setting the server no longer holds as a plain
   * value is left out of `settings`: the resource says whether that removes it from the inputs
   * (SystemProperties) or keeps the declared value (LogSettings).
   */
  asInputs(settings: Settings): Partial<I>;
  /**
   * Whether a value the server reports can be recorded as a declared one at a refresh; by default
   * a string, number or boolean (SecuritySettings' lists too).
   */
  declarable?: (value: unknown) => boolean;
  /** What the `server` output holds of what the server reports; by default the declared ones. */
  serverView?(declared: Settings, reported: Settings): Settings;
  /**
   * Refusals known from the inputs (and the recorded ones) before anything is sent, which
   * `check()` reports (e.g. a change that would lock the stack's own connection out).
   */
  refusals?: (olds: Settings, inputs: Settings) => CheckFailure[];
}

/**
 * The `declared` of a resource whose settings are inputs of their own (`fields`): those given.
 *
 * @internal
 */
export function declaredFields<I extends KeptInputs>(
  fields: readonly (keyof I & string)[],
): (inputs: I) => Settings {
  return (inputs) => {
    const out: Settings = {};
    for (const field of fields) {
      if (inputs[field] !== undefined) out[field] = inputs[field];
    }
    return out;
  };
}

/**
 * The implementation of a resource that keeps settings, by the one rule.
 *
 * diff: another server is a replacement, deleted before the new one is created (so the old
 * resource's `restoreOnDestroy` puts its recorded values back first); any other input that
 * differs from state (where refresh records what the server reports) is an in-place update.
 *
 * create and update: read the settings, write the declared ones where the server holds others
 * (nothing when none differs), and record what was there before and what was written. A create
 * with `restoreOnDestroy` that writes nothing warns that a destroy will have nothing to put back.
 *
 * read (refresh): records each declared setting as the server holds it, in the outputs and the
 * recorded inputs, so that drift shows at the next preview; the ledger stays as recorded.
 *
 * delete: by default leaves the settings; with `restoreOnDestroy`, puts back only what the server
 * still holds exactly as this stack wrote it ({@link restorePlan}), and names what it leaves.
 *
 * @internal
 */
export function keptSettings<I extends KeptInputs>(kept: KeptSettings<I>): ResourceImplementation {
  const parse = kept.frame.parse;
  const { definition, rules, replacing } = kept.frame;
  const of = (inputs: I) => `the ${kept.settings} of ${inputs.adminUrl}`;
  const declarable = kept.declarable ?? isPlain;
  const serverView = (inputs: I, reported: Settings) =>
    (kept.serverView ?? declaredOf)(kept.declared(inputs), reported);

  /** The ledger as recorded in `outs`. */
  function ledgerOf(outs: Outputs): Ledger {
    return {
      previous: outs[kept.outputs.previous] as Settings | undefined,
      added: kept.outputs.added === undefined ? [] : (outs[kept.outputs.added] as string[]),
      written: outs[kept.outputs.written] as Settings | undefined,
    };
  }

  /** Writes the declared settings the server holds otherwise; the outputs after. */
  async function keep(
    olds: Outputs | undefined,
    inputs: I,
    session: AdminSession,
    before: Settings,
  ): Promise<{ outs: Outputs; wrote: Settings }> {
    const declared = kept.declared(inputs);
    const wrote: Settings = {};
    for (const key of differing(declared, before)) wrote[key] = declared[key];
    const after =
      Object.keys(wrote).length === 0
        ? before
        : await writeChange(kept, inputs, session, { set: declared, remove: [] }, before);
    const ledger = ledgerAfter(
      olds === undefined ? undefined : ledgerOf(olds),
      { declared: Object.keys(declared), before, wrote },
      kept.recordsWholeSet,
    );
    const outs: Outputs = { ...inputs, [kept.outputs.previous]: ledger.previous };
    if (kept.outputs.added !== undefined) outs[kept.outputs.added] = ledger.added;
    outs[kept.outputs.written] = ledger.written;
    outs[kept.outputs.server] = serverView(inputs, after);
    return { outs, wrote };
  }

  function diff(_id: string, olds: Outputs, rawNews: unknown): pulumi.dynamic.DiffResult {
    const news = withoutProvider(rawNews);
    const replaces = changedInputs(definition, replacing, olds, news);
    if (replaces.length > 0) {
      return { changes: true, replaces: [...replaces], deleteBeforeReplace: true };
    }
    const changes = Object.keys(definition.inputs).some((key) => !sameValue(olds[key], news[key]));
    return { changes };
  }

  async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
    const inputs = parse(raw);
    const session = adminSessionFor(inputs);
    const before = await explained(
      () => kept.read(session),
      (error) => failureMessage(kept.path, inputs.adminUrl, error),
    );
    const { outs, wrote } = await keep(undefined, inputs, session, before);
    if (inputs.restoreOnDestroy && Object.keys(wrote).length === 0) {
      logWarn(nothingWrittenWarning(of(inputs)));
    }
    return { id: `${withoutTrailingSlash(inputs.adminUrl)}/${kept.path}`, outs };
  }

  async function read(id: string, props: Outputs): Promise<pulumi.dynamic.ReadResult> {
    const inputs = parse(props);
    const reported = await explained(
      () => kept.read(adminSessionFor(inputs)),
      (error) => `Cannot refresh ${of(inputs)}: ${messageOf(error)}. State is kept.`,
    );
    const declared = kept.declared(inputs);
    const held: Settings = { ...declared };
    for (const key of differing(declared, reported)) {
      // A setting the server no longer holds as a value it can declare leaves the recorded inputs.
      if (declarable(reported[key])) held[key] = reported[key];
      else delete held[key];
      logInfo(
        `The ${kept.setting} ${key} of ${inputs.adminUrl} is ${shown(reported, key)} on the ` +
          `server, not ${JSON.stringify(declared[key])}; the next \`pulumi up\` writes it back.`,
      );
    }
    // The ledger stays as recorded: a refresh reads, it writes nothing.
    const refreshed = {
      ...props,
      ...kept.asInputs(held),
      [kept.outputs.server]: serverView(inputs, reported),
    };
    // The recorded inputs take the server's values too: the engine shows a change as the
    // difference between recorded and declared inputs, so the next preview names the drift.
    return { id, props: refreshed, inputs: inputsOfOutputs(rules.frame, refreshed) };
  }

  async function update(_id: string, olds: Outputs, rawNews: unknown) {
    const inputs = parse(rawNews);
    const session = adminSessionFor(inputs);
    const before = await explained(
      () => kept.read(session),
      (error) =>
        `${failureMessage(kept.path, inputs.adminUrl, error)} Nothing was changed; state ` +
        "keeps the previous values.",
    );
    return { outs: (await keep(olds, inputs, session, before)).outs };
  }

  async function remove(_id: string, props: Outputs): Promise<void> {
    const inputs = parse(props);
    if (!inputs.restoreOnDestroy) {
      logInfo(
        `Left ${of(inputs)} as they are (restoreOnDestroy is false); they are no longer ` +
          "managed by this stack.",
      );
      return;
    }
    const session = adminSessionFor(inputs);
    let current: Settings;
    try {
      current = await kept.read(session);
    } catch (error) {
      throw new Error(
        `Cannot restore the previous ${kept.settings} of ${inputs.adminUrl}: ` +
          `${messageOf(error)}. The resource stays in the stack; run \`pulumi destroy\` again ` +
          "once the server answers.",
        { cause: error },
      );
    }
    const plan = restorePlan(ledgerOf(props), Object.keys(kept.declared(inputs)), current);
    const left = leftMessage(plan, of(inputs));
    if (left !== undefined) logInfo(left);
    if (Object.keys(plan.set).length === 0 && plan.remove.length === 0) return;
    await writeChange(kept, inputs, session, plan, current);
    logInfo(
      `Restored ${[...Object.keys(plan.set), ...plan.remove].join(", ")} of ${of(inputs)} to ` +
        "what they were before this stack wrote them.",
    );
  }

  return implementationOf<Outputs>(rules, {
    diff,
    create,
    read,
    update,
    delete: remove,
    ...(kept.refusals === undefined ? {} : { refusals: kept.refusals }),
  });
}

/** Declared settings whose value the server reports differently (or not at all). */
function differing(declared: Settings, reported: Settings): string[] {
  return Object.keys(declared).filter(
    (key) => !Object.hasOwn(reported, key) || !sameValue(reported[key], declared[key]),
  );
}

/** The declared settings' values as `reported` holds them (those it has). */
function declaredOf(declared: Settings, reported: Settings): Settings {
  const out: Settings = {};
  for (const key of Object.keys(declared)) {
    if (Object.hasOwn(reported, key)) out[key] = reported[key];
  }
  return out;
}

function isPlain(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
