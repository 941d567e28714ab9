/**
 * `LogSettings`: a site's log settings (`logs/settings`, `logs/settings/edit`) kept as declared,
 * as a Pulumi dynamic resource with an in-place update. Reads top-down as its lifecycle: check
 * (the input rules), diff, create, read (refresh), update, delete; then the implementation the
 * host loads from this module's path, and the provider that loads it. Its inputs, class and frame
 * derive from `definition.ts` (`generated.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { type AdminSession, editLogSettings, getLogSettings } from "../../client";
import {
  adminSessionFor,
  isHeldByExportOrImport,
  retryWhileHeld,
} from "../common/connection/admin";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { implementationOf } from "../common/pulumi/implementation";
import type { LogSettingsInputs, LogSettingsOutputs } from "./generated";
import { MANAGED_LOG_FIELDS, type ManagedField, type ReportedLogSettings } from "./values";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import {
  ledgerAfter,
  leftMessage,
  nothingWrittenWarning,
  restorePlan,
  type Settings,
} from "../common/kept/ledger";
import { inputsOfOutputs } from "../common/pulumi/registration";
import { changedInputs, sameValue } from "../common/pulumi/state-diff";
import { LOG_SETTINGS_DEFINITION, LOG_SETTINGS } from "./definition";
import { withoutTrailingSlash } from "../../url";

// The frame's rules, reader and lists, under the names this lifecycle reads them by.
const { rules: LOG_SETTINGS_INPUTS, parse: parseLogSettingsInputs } = LOG_SETTINGS;
const { replacing: REPLACING_INPUTS, stateOnly: STATE_ONLY_INPUTS } = LOG_SETTINGS;

/**
 * diff: another server is a replacement, deleted before the new one is created (the class asks
 * for `deleteBeforeReplace` too, which also covers `pulumi up --replace`): the old resource's
 * `restoreOnDestroy` writes back its recorded values first, then the new one records them as its
 * `previousSettings` and writes the declared ones, so a replacement never leaves the pre-stack
 * values on the server behind a state that says otherwise. A declared field that differs
 * from state (where refresh records what the server reports) is an in-place update, as is another
 * spelling of the same URL, `serverType`, a credential, `tls`, `restoreOnDestroy` or `timeouts`
 * (state only). Nothing else counts.
 */
function diff(_id: string, olds: LogSettingsOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const replaces = changedInputs(LOG_SETTINGS_DEFINITION, REPLACING_INPUTS, olds, news);
  if (replaces.length > 0) {
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: true };
  }
  const changed = [...MANAGED_LOG_FIELDS, ...STATE_ONLY_INPUTS].filter(
    (key) => !sameValue(olds[key], news[key]),
  );
  return { changes: changed.length > 0 };
}

/**
 * create: reads the settings (recorded as `previousSettings` for `restoreOnDestroy`), writes the
 * declared fields where the server reports others, records what it wrote (`writtenSettings`), and
 * reads them back. With `restoreOnDestroy`, a create that finds every declared value in place
 * warns that a destroy will have nothing of this stack's to put back.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseLogSettingsInputs(raw);
  const session = adminSessionFor(inputs);
  const previous = await explained(
    () => readSettings(session),
    (error) => failureMessage("logs/settings", inputs.adminUrl, error),
  );
  const { serverLogSettings, wrote } = await applyDeclared(inputs, session, previous);
  if (inputs.restoreOnDestroy && Object.keys(wrote).length === 0) {
    logWarn(nothingWrittenWarning(`the log settings of ${inputs.adminUrl}`));
  }
  const outs: LogSettingsOutputs = {
    ...inputs,
    ...kept(undefined, inputs, previous, wrote),
    serverLogSettings,
  };
  return { id: `${withoutTrailingSlash(inputs.adminUrl)}/logs/settings`, outs };
}

/**
 * Writes the declared fields the server reports otherwise (nothing when none differs); returns
 * the settings after and what was written.
 */
async function applyDeclared(
  inputs: LogSettingsInputs,
  session: AdminSession,
  current: ReportedLogSettings,
): Promise<{ serverLogSettings: ReportedLogSettings; wrote: Settings }> {
  const wrote: Settings = {};
  for (const field of differing(inputs, current)) wrote[field] = inputs[field];
  if (Object.keys(wrote).length === 0) return { serverLogSettings: current, wrote };
  return { serverLogSettings: await apply(inputs, session, current, declared(inputs)), wrote };
}

/** The ledger outputs after a create or update (`olds`: the outputs before an update). */
function kept(
  olds: LogSettingsOutputs | undefined,
  inputs: LogSettingsInputs,
  before: ReportedLogSettings,
  wrote: Settings,
): Pick<LogSettingsOutputs, "previousSettings" | "writtenSettings"> {
  const ledger = ledgerAfter(
    olds === undefined
      ? undefined
      : { previous: olds.previousSettings, added: [], written: olds.writtenSettings },
    { declared: Object.keys(declared(inputs)), before, wrote },
    true,
  );
  return {
    previousSettings: ledger.previous as ReportedLogSettings,
    writtenSettings: ledger.written as ReportedLogSettings,
  };
}

/** The fields the user declared, with their values. */
function declared(inputs: LogSettingsInputs): Partial<Record<ManagedField, unknown>> {
  const out: Partial<Record<ManagedField, unknown>> = {};
  for (const field of MANAGED_LOG_FIELDS) {
    if (inputs[field] !== undefined) out[field] = inputs[field];
  }
  return out;
}

/** Declared fields whose value the server reports differently. */
function differing(inputs: LogSettingsInputs, reported: ReportedLogSettings): ManagedField[] {
  return MANAGED_LOG_FIELDS.filter(
    (field) => inputs[field] !== undefined && reported[field] !== inputs[field],
  );
}

/** The server's settings, plain scalars only (outputs must be plain JSON). */
async function readSettings(session: AdminSession): Promise<ReportedLogSettings> {
  const reported = await getLogSettings(session);
  const out: ReportedLogSettings = {};
  for (const [key, value] of Object.entries(reported)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Writes `wanted` over what the server reports, every field at once (logs/settings/edit takes the
 * whole set, as DSC sends it), retried while an export or import holds the site, and reads back.
 * A declared field the server still reports otherwise is an error: it did not take the value.
 */
async function apply(
  inputs: LogSettingsInputs,
  session: AdminSession,
  current: ReportedLogSettings,
  wanted: Partial<Record<ManagedField, unknown>>,
): Promise<ReportedLogSettings> {
  const merged = { ...current, ...wanted };
  try {
    await retryWhileHeld(
      inputs.adminUrl,
      inputs.timeouts.changeMs,
      "changing its log settings",
      () =>
        editLogSettings(session, {
          logLevel: merged.logLevel as string | undefined,
          logDir: merged.logDir as string | undefined,
          maxErrorReportsCount: merged.maxErrorReportsCount as number | undefined,
          maxLogFileAge: merged.maxLogFileAge as number | undefined,
          usageMeteringEnabled: merged.usageMeteringEnabled as boolean | undefined,
        }),
    );
  } catch (error) {
    if (!isHeldByExportOrImport(error)) {
      throw new Error(failureMessage("logs/settings/edit", inputs.adminUrl, error), {
        cause: error,
      });
    }
    throw new Error(
      `The log settings of ${inputs.adminUrl} could not be changed within timeouts.changeMs ` +
        `(${inputs.timeouts.changeMs} ms): an export or import held the site the whole time ` +
        `(${messageOf(error)}). Nothing was changed. Raise timeouts.changeMs or run again.`,
      { cause: error },
    );
  }
  const after = await readSettings(session);
  const ignored = (Object.keys(wanted) as ManagedField[]).filter((f) => after[f] !== wanted[f]);
  if (ignored.length > 0) {
    throw new Error(
      `logs/settings/edit on ${inputs.adminUrl} answered success, but the server reports ` +
        ignored
          .map((f) => `${f} ${JSON.stringify(after[f])} (wanted ${JSON.stringify(wanted[f])})`)
          .join(", ") +
        ".",
    );
  }
  return after;
}

/**
 * read (refresh): records what the server reports, and for each declared field the server's value
 * (in the outputs and the recorded inputs), so that drift shows as a change of exactly that field
 * at the next preview. An unreadable server is an
 * error: state is kept.
 */
async function read(id: string, props: LogSettingsOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = parseLogSettingsInputs(props);
  const reported = await explained(
    () => readSettings(adminSessionFor(inputs)),
    (error) =>
      `Cannot refresh the log settings of ${inputs.adminUrl}: ${messageOf(error)}. State is kept.`,
  );
  const drifted: Partial<Record<ManagedField, string | number | boolean>> = {};
  for (const field of differing(inputs, reported)) {
    const value = reported[field];
    if (value !== undefined) drifted[field] = value;
    logInfo(
      `The log setting ${field} of ${inputs.adminUrl} is ${JSON.stringify(value)} on the server, ` +
        `not ${JSON.stringify(inputs[field])}; the next \`pulumi up\` writes it back.`,
    );
  }
  // `previousSettings` and `writtenSettings` stay as recorded: a refresh reads, it writes nothing.
  const refreshed = { ...props, ...drifted, serverLogSettings: reported };
  // The recorded inputs take the server's values too: the engine shows a change as the difference
  // between recorded and declared inputs, so the next preview names the drifted field.
  return { id, props: refreshed, inputs: inputsOfOutputs(LOG_SETTINGS, refreshed) };
}

/**
 * update: writes the declared fields the server reports differently (none after a state-only
 * change: then the read only proves the new credentials work), and records what it wrote.
 */
async function update(_id: string, olds: LogSettingsOutputs, rawNews: unknown) {
  const inputs = parseLogSettingsInputs(rawNews);
  const session = adminSessionFor(inputs);
  const current = await explained(
    () => readSettings(session),
    (error) =>
      `${failureMessage("logs/settings", inputs.adminUrl, error)} Nothing was changed; state ` +
      "keeps the previous values.",
  );
  const { serverLogSettings, wrote } = await applyDeclared(inputs, session, current);
  const outs: LogSettingsOutputs = {
    ...inputs,
    ...kept(olds, inputs, current, wrote),
    serverLogSettings,
  };
  return { outs };
}

/**
 * delete: by default leaves the server's log settings as they are (a site always has log settings;
 * deleting the resource only stops managing them). With `restoreOnDestroy`, writes back what each
 * declared field was before this stack wrote it, only where the server still holds exactly what
 * this stack wrote (`writtenSettings`, which a refresh never changes): a field changed since, or
 * one this stack never wrote, is left as it is and named (the one rule: `common/kept/ledger.ts`).
 */
async function remove(_id: string, props: LogSettingsOutputs): Promise<void> {
  const inputs = parseLogSettingsInputs(props);
  if (!inputs.restoreOnDestroy) {
    logInfo(
      `Left the log settings of ${inputs.adminUrl} as they are (restoreOnDestroy is false); ` +
        "they are no longer managed by this stack.",
    );
    return;
  }
  const session = adminSessionFor(inputs);
  let current: ReportedLogSettings;
  try {
    current = await readSettings(session);
  } catch (error) {
    throw new Error(
      `Cannot restore the previous log settings of ${inputs.adminUrl}: ${messageOf(error)}. ` +
        "The resource stays in the stack; run `pulumi destroy` again once the server answers.",
      { cause: error },
    );
  }
  const what = `the log settings of ${inputs.adminUrl}`;
  const plan = restorePlan(
    { previous: props.previousSettings, added: [], written: props.writtenSettings },
    Object.keys(declared(inputs)),
    current,
  );
  const left = leftMessage(plan, what);
  if (left !== undefined) logInfo(left);
  if (Object.keys(plan.set).length === 0) return;
  await apply(inputs, session, current, plan.set);
  logInfo(
    `Restored ${Object.keys(plan.set).join(", ")} of ${what} to the values they had before ` +
      "this stack wrote them.",
  );
}

/**
 * The LogSettings implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(LOG_SETTINGS_INPUTS, {
  diff,
  create,
  read,
  update,
  delete: remove,
});
