/**
 * `SystemProperties`: some of a server's system properties (`system/properties`,
 * `system/properties/update`) kept as declared, as a Pulumi dynamic resource with an in-place
 * update. The server's update replaces the whole set ("The update operation overwrites all
 * existing properties"), so every write reads the set, changes the declared properties and sends
 * every other one back as read, as Chef's `update_system_properties` and the ArcGIS API for
 * Python's setter do. Reads top-down as its lifecycle: diff, create, read (refresh), update,
 * delete; then the implementation the host loads from this module's path. Its inputs, class and
 * frame derive from `definition.ts` (`generated.ts`).
 */
import { withoutTrailingSlash } from "../../url";
import type * as pulumi from "@pulumi/pulumi";
import {
  type AdminSession,
  answerMayBeLost,
  getSystemProperties,
  updateSystemProperties,
} from "../../client";
import {
  adminSessionFor,
  isHeldByExportOrImport,
  retryWhileHeld,
} from "../common/connection/admin";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { implementationOf } from "../common/pulumi/implementation";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import {
  ledgerAfter,
  leftMessage,
  nothingWrittenWarning,
  restorePlan,
} from "../common/kept/ledger";
import { inputsOfOutputs } from "../common/pulumi/registration";
import { changedInputs, sameValue } from "../common/pulumi/state-diff";
import { SYSTEM_PROPERTIES_DEFINITION, SYSTEM_PROPERTIES } from "./definition";
import type { SystemPropertiesInputs, SystemPropertiesOutputs } from "./generated";
import type { ManagedSystemProperties, ReportedSystemProperties } from "./values";

// The frame's rules, reader and lists, under the names this lifecycle reads them by.
const { rules: SYSTEM_PROPERTIES_INPUTS, parse: parseSystemPropertiesInputs } = SYSTEM_PROPERTIES;
const { replacing: REPLACING_INPUTS, stateOnly: STATE_ONLY_INPUTS } = SYSTEM_PROPERTIES;

/**
 * diff: another server is a replacement, deleted before the new one is created (the class asks
 * for `deleteBeforeReplace` too): the old resource's `restoreOnDestroy` puts its recorded values
 * back first. A declared property that differs from state (where refresh records what the server
 * reports) is an in-place update, as is a state-only input. Nothing else counts.
 */
function diff(
  _id: string,
  olds: SystemPropertiesOutputs,
  rawNews: unknown,
): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const replaces = changedInputs(SYSTEM_PROPERTIES_DEFINITION, REPLACING_INPUTS, olds, news);
  if (replaces.length > 0) {
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: true };
  }
  const changed = ["properties" as const, ...STATE_ONLY_INPUTS].filter(
    (key) => !sameValue(olds[key], news[key]),
  );
  return { changes: changed.length > 0 };
}

/**
 * create: reads the properties, writes those the server holds otherwise, records what the
 * declared ones were (`previousProperties`, `addedProperties`) and what it wrote
 * (`writtenProperties`), and reads them back. With `restoreOnDestroy`, a create that finds every
 * declared value in place warns that a destroy will have nothing of this stack's to put back.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseSystemPropertiesInputs(raw);
  const session = adminSessionFor(inputs);
  const current = await explained(
    () => getSystemProperties(session),
    (error) => failureMessage("system/properties", inputs.adminUrl, error),
  );
  const { after, wrote } = await applyDeclared(inputs, session, current);
  if (inputs.restoreOnDestroy && Object.keys(wrote).length === 0) {
    logWarn(nothingWrittenWarning(`the system properties of ${inputs.adminUrl}`));
  }
  const outs: SystemPropertiesOutputs = {
    ...inputs,
    ...kept(undefined, inputs, current, wrote),
    serverProperties: managedOf(inputs.properties, after),
  };
  return { id: `${withoutTrailingSlash(inputs.adminUrl)}/system/properties`, outs };
}

/**
 * The ledger outputs after a create or update (`olds`: the outputs before an update): what the
 * declared properties were before this stack first wrote them, and what it wrote.
 */
function kept(
  olds: SystemPropertiesOutputs | undefined,
  inputs: SystemPropertiesInputs,
  before: ReportedSystemProperties,
  wrote: ReportedSystemProperties,
): Pick<SystemPropertiesOutputs, "previousProperties" | "addedProperties" | "writtenProperties"> {
  const ledger = ledgerAfter(
    olds === undefined
      ? undefined
      : {
          previous: olds.previousProperties,
          added: olds.addedProperties,
          written: olds.writtenProperties,
        },
    { declared: Object.keys(inputs.properties), before, wrote },
  );
  return {
    previousProperties: ledger.previous,
    addedProperties: ledger.added,
    writtenProperties: ledger.written,
  };
}

/** The declared properties' values as `reported` holds them (those it has). */
function managedOf(
  declared: ManagedSystemProperties,
  reported: ReportedSystemProperties,
): ReportedSystemProperties {
  const out: ReportedSystemProperties = {};
  for (const key of Object.keys(declared)) {
    if (Object.hasOwn(reported, key)) out[key] = reported[key];
  }
  return out;
}

/** Declared properties whose value the server reports differently (or not at all). */
function differing(
  declared: ManagedSystemProperties,
  reported: ReportedSystemProperties,
): string[] {
  return Object.keys(declared).filter(
    (key) => !Object.hasOwn(reported, key) || !sameValue(reported[key], declared[key]),
  );
}

/**
 * Writes the declared properties the server holds otherwise (nothing when none differs); returns
 * the properties after and what was written.
 */
async function applyDeclared(
  inputs: SystemPropertiesInputs,
  session: AdminSession,
  current: ReportedSystemProperties,
): Promise<{ after: ReportedSystemProperties; wrote: ReportedSystemProperties }> {
  const wrote: ReportedSystemProperties = {};
  for (const key of differing(inputs.properties, current)) wrote[key] = inputs.properties[key];
  if (Object.keys(wrote).length === 0) return { after: current, wrote };
  return { after: await apply(inputs, session, { set: inputs.properties, remove: [] }), wrote };
}

/** What one write changes: properties to set, properties to remove. */
interface Change {
  set: ReportedSystemProperties;
  remove: readonly string[];
}

/** True when `reported` shows the change done. */
function shows(reported: ReportedSystemProperties, change: Change): boolean {
  return (
    Object.entries(change.set).every(
      ([key, value]) => Object.hasOwn(reported, key) && sameValue(reported[key], value),
    ) && change.remove.every((key) => !Object.hasOwn(reported, key))
  );
}

/**
 * Sends the whole set: the properties as read just before (non-scalar values as they came), with
 * `change` made. Read again on each attempt while an export or import holds the site, so that a
 * property another client changed meanwhile is sent back as it is now. A lost answer is settled
 * by reading, never by sending again: the set is compared with the change, and the write is done
 * when the server shows it. Reads back; a change the server does not show after answering success
 * is an error.
 */
async function apply(
  inputs: SystemPropertiesInputs,
  session: AdminSession,
  change: Change,
): Promise<ReportedSystemProperties> {
  try {
    await retryWhileHeld(
      inputs.adminUrl,
      inputs.timeouts.changeMs,
      "changing its system properties",
      async () => {
        const whole: ReportedSystemProperties = { ...(await getSystemProperties(session)) };
        Object.assign(whole, change.set);
        for (const key of change.remove) delete whole[key];
        await updateSystemProperties(session, whole);
      },
    );
  } catch (error) {
    if (answerMayBeLost(error)) {
      await settleLostAnswer(inputs, session, change, error);
    } else if (isHeldByExportOrImport(error)) {
      throw new Error(
        `The system properties of ${inputs.adminUrl} could not be changed within ` +
          `timeouts.changeMs (${inputs.timeouts.changeMs} ms): an export or import held the ` +
          `site the whole time (${messageOf(error)}). Nothing was changed. Raise ` +
          "timeouts.changeMs or run again.",
        { cause: error },
      );
    } else {
      throw new Error(failureMessage("system/properties/update", inputs.adminUrl, error), {
        cause: error,
      });
    }
  }
  const after = await getSystemProperties(session);
  if (!shows(after, change)) {
    throw new Error(
      `system/properties/update on ${inputs.adminUrl} answered success, but the server reports ` +
        `${describe(after, change)}.`,
    );
  }
  return after;
}

/**
 * After a lost answer of system/properties/update: the server is read; the change it shows is
 * done, one it does not show is an error that sends nothing again (the update may still arrive,
 * and sending the set once more could undo another client's change made since).
 */
async function settleLostAnswer(
  inputs: SystemPropertiesInputs,
  session: AdminSession,
  change: Change,
  error: unknown,
): Promise<void> {
  const lost = messageOf(error);
  let now: ReportedSystemProperties;
  try {
    now = await getSystemProperties(session);
  } catch (readError) {
    throw new Error(
      `The answer to system/properties/update on ${inputs.adminUrl} was lost (${lost}), and the ` +
        `properties cannot be read to tell whether it took effect (${messageOf(readError)}). ` +
        "It was not sent again; run `pulumi up` again once the server answers.",
      { cause: readError },
    );
  }
  if (!shows(now, change)) {
    throw new Error(
      `The answer to system/properties/update on ${inputs.adminUrl} was lost (${lost}), and the ` +
        `server reports ${describe(now, change)}. It was not sent again; run \`pulumi up\` ` +
        "again to write the declared properties.",
      { cause: error },
    );
  }
  logWarn(
    `The answer to system/properties/update on ${inputs.adminUrl} was lost (${lost}); the ` +
      "server shows the change, so it is done. It was not sent again.",
  );
}

/** The properties of `change` the server reports otherwise, for a message. */
function describe(reported: ReportedSystemProperties, change: Change): string {
  const wrong = Object.entries(change.set)
    .filter(([key, value]) => !Object.hasOwn(reported, key) || !sameValue(reported[key], value))
    .map(([key, value]) => `${key} ${shown(reported, key)} (wanted ${JSON.stringify(value)})`);
  const kept = change.remove
    .filter((key) => Object.hasOwn(reported, key))
    .map((key) => `${key} ${shown(reported, key)} (wanted absent)`);
  return [...wrong, ...kept].join(", ");
}

function shown(reported: ReportedSystemProperties, key: string): string {
  return Object.hasOwn(reported, key) ? JSON.stringify(reported[key]) : "absent";
}

/**
 * read (refresh): records the declared properties as the server reports them (in the outputs and
 * the recorded inputs), so that drift shows as a change of `properties` at the next preview. A
 * property the server no longer has, or holds as something other than a plain value, leaves the
 * recorded inputs. An unreadable server is an error: state is kept.
 */
async function read(
  id: string,
  props: SystemPropertiesOutputs,
): Promise<pulumi.dynamic.ReadResult> {
  const inputs = parseSystemPropertiesInputs(props);
  const reported = await explained(
    () => getSystemProperties(adminSessionFor(inputs)),
    (error) =>
      `Cannot refresh the system properties of ${inputs.adminUrl}: ${messageOf(error)}. ` +
      "State is kept.",
  );
  const properties: ManagedSystemProperties = { ...inputs.properties };
  for (const key of differing(inputs.properties, reported)) {
    const value = reported[key];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      properties[key] = value;
    } else {
      delete properties[key];
    }
    logInfo(
      `The system property ${key} of ${inputs.adminUrl} is ${shown(reported, key)} on the ` +
        `server, not ${JSON.stringify(inputs.properties[key])}; the next \`pulumi up\` writes it back.`,
    );
  }
  // The ledger (`previousProperties`, `addedProperties`, `writtenProperties`) stays as recorded:
  // a refresh reads, it writes nothing.
  const refreshed: SystemPropertiesOutputs = {
    ...props,
    properties,
    serverProperties: managedOf(inputs.properties, reported),
  };
  // The recorded inputs take the server's values too: the engine shows a change as the difference
  // between recorded and declared inputs, so the next preview names the drifted property.
  return { id, props: refreshed, inputs: inputsOfOutputs(SYSTEM_PROPERTIES, refreshed) };
}

/**
 * update: writes the declared properties the server reports differently (none after a state-only
 * change: then the read only proves the new credentials work), and records what it wrote. A
 * property declared for the first time is recorded as it was; one no longer declared is left as
 * the server has it and forgotten.
 */
async function update(_id: string, olds: SystemPropertiesOutputs, rawNews: unknown) {
  const inputs = parseSystemPropertiesInputs(rawNews);
  const session = adminSessionFor(inputs);
  const current = await explained(
    () => getSystemProperties(session),
    (error) =>
      `${failureMessage("system/properties", inputs.adminUrl, error)} Nothing was changed; ` +
      "state keeps the previous values.",
  );
  const { after, wrote } = await applyDeclared(inputs, session, current);
  const outs: SystemPropertiesOutputs = {
    ...inputs,
    ...kept(olds, inputs, current, wrote),
    serverProperties: managedOf(inputs.properties, after),
  };
  return { outs };
}

/**
 * delete: by default leaves the properties as they are (deleting the resource only stops managing
 * them). With `restoreOnDestroy`, puts back what each declared property was before this stack
 * wrote it (removing one the server did not have), only where the server still holds exactly
 * what this stack wrote (`writtenProperties`, which a refresh never changes): a property changed
 * since, or one this stack never wrote, is left as it is and named (the one rule:
 * `common/kept/ledger.ts`). Every other property is sent back unchanged.
 */
async function remove(_id: string, props: SystemPropertiesOutputs): Promise<void> {
  const inputs = parseSystemPropertiesInputs(props);
  if (!inputs.restoreOnDestroy) {
    logInfo(
      `Left the system properties of ${inputs.adminUrl} as they are (restoreOnDestroy is ` +
        "false); they are no longer managed by this stack.",
    );
    return;
  }
  const session = adminSessionFor(inputs);
  let current: ReportedSystemProperties;
  try {
    current = await getSystemProperties(session);
  } catch (error) {
    throw new Error(
      `Cannot restore the previous system properties of ${inputs.adminUrl}: ` +
        `${messageOf(error)}. The resource stays in the stack; run \`pulumi destroy\` again ` +
        "once the server answers.",
      { cause: error },
    );
  }
  const what = `the system properties of ${inputs.adminUrl}`;
  const plan = restorePlan(
    {
      previous: props.previousProperties,
      added: props.addedProperties,
      written: props.writtenProperties,
    },
    Object.keys(inputs.properties),
    current,
  );
  const left = leftMessage(plan, what);
  if (left !== undefined) logInfo(left);
  if (Object.keys(plan.set).length === 0 && plan.remove.length === 0) return;
  await apply(inputs, session, plan);
  logInfo(
    `Restored ${[...Object.keys(plan.set), ...plan.remove].join(", ")} of ${what} to what they ` +
      "were before this stack wrote them.",
  );
}

/**
 * The SystemProperties implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(SYSTEM_PROPERTIES_INPUTS, {
  diff,
  create,
  read,
  update,
  delete: remove,
});
