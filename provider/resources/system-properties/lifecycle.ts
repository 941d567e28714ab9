/**
 * `SystemProperties`: some of a server's system properties (`system/properties`,
 * `system/properties/update`) kept as declared, as a Pulumi dynamic resource with an in-place
 * update. The server's update replaces the whole set ("The update operation overwrites all
 * existing properties"), so every write reads the set, changes the declared properties and sends
 * every other one back as read, as Chef's `update_system_properties` and the ArcGIS API for
 * Python's setter do. Reads top-down as its lifecycle: diff, create, read (refresh), update,
 * delete; then the implementation the host loads from this module's path. Inputs: `inputs.ts`;
 * the Resource class: `resource.ts`.
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
import { changedInputs, sameValue } from "../common/pulumi/state-diff";
import { SYSTEM_PROPERTIES_DEFINITION } from "./definition";
import {
  type ManagedSystemProperties,
  parseSystemPropertiesInputs,
  REPLACING_INPUTS,
  type ReportedSystemProperties,
  STATE_ONLY_INPUTS,
  SYSTEM_PROPERTIES_INPUTS,
  type SystemPropertiesInputs,
  type SystemPropertiesOutputs,
} from "./inputs";

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
 * create: reads the properties, records what the declared ones were (`previousProperties`,
 * `addedProperties`), writes those the server holds otherwise, and reads them back.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseSystemPropertiesInputs(raw);
  const session = adminSessionFor(inputs);
  const current = await explained(
    () => getSystemProperties(session),
    (error) => failureMessage("system/properties", inputs.adminUrl, error),
  );
  const after = await applyDeclared(inputs, session, current);
  const outs: SystemPropertiesOutputs = {
    ...inputs,
    ...ledger(inputs.properties, current),
    serverProperties: managedOf(inputs.properties, after),
  };
  return { id: `${withoutTrailingSlash(inputs.adminUrl)}/system/properties`, outs };
}

/**
 * What the declared properties were before this resource set them: the value of each the server
 * had, and the names of those it did not have. A property recorded by an earlier step keeps its
 * record (`olds`); one declared for the first time is recorded from `current`.
 */
function ledger(
  declared: ManagedSystemProperties,
  current: ReportedSystemProperties,
  olds?: Pick<SystemPropertiesOutputs, "previousProperties" | "addedProperties">,
): Pick<SystemPropertiesOutputs, "previousProperties" | "addedProperties"> {
  const previousProperties: ReportedSystemProperties = {};
  const addedProperties: string[] = [];
  for (const key of Object.keys(declared)) {
    if (olds !== undefined && Object.hasOwn(olds.previousProperties ?? {}, key)) {
      previousProperties[key] = olds.previousProperties[key];
    } else if (olds?.addedProperties?.includes(key) === true) {
      addedProperties.push(key);
    } else if (Object.hasOwn(current, key)) {
      previousProperties[key] = current[key];
    } else {
      addedProperties.push(key);
    }
  }
  return { previousProperties, addedProperties };
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

/** Writes the declared properties the server holds otherwise; sends nothing when none differs. */
async function applyDeclared(
  inputs: SystemPropertiesInputs,
  session: AdminSession,
  current: ReportedSystemProperties,
): Promise<ReportedSystemProperties> {
  if (differing(inputs.properties, current).length === 0) return current;
  return apply(inputs, session, { set: inputs.properties, remove: [] });
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
  const refreshed: SystemPropertiesOutputs = {
    ...props,
    properties,
    serverProperties: managedOf(inputs.properties, reported),
  };
  // The recorded inputs take the server's values too: the engine shows a change as the difference
  // between recorded and declared inputs, so the next preview names the drifted property.
  const {
    previousProperties: _previous,
    addedProperties: _added,
    serverProperties: _reported,
    ...recorded
  } = refreshed;
  return { id, props: refreshed, inputs: recorded };
}

/**
 * update: writes the declared properties the server reports differently (none after a state-only
 * change: then the read only proves the new credentials work). A property declared for the first
 * time is recorded as it was; one no longer declared is left as the server has it and forgotten.
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
  const after = await applyDeclared(inputs, session, current);
  const outs: SystemPropertiesOutputs = {
    ...inputs,
    ...ledger(inputs.properties, current, olds),
    serverProperties: managedOf(inputs.properties, after),
  };
  return { outs };
}

/**
 * delete: by default leaves the properties as they are (deleting the resource only stops managing
 * them). With `restoreOnDestroy`, puts back what each declared property was before this stack set
 * it (removing one the server did not have), and only where the server still holds the value this
 * resource set: a property changed since is left as it is. Every other property is sent back
 * unchanged.
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
  const change: { set: ReportedSystemProperties; remove: string[] } = { set: {}, remove: [] };
  const leftAlone: string[] = [];
  for (const [key, value] of Object.entries(inputs.properties)) {
    const previous = props.previousProperties ?? {};
    const wasAdded = props.addedProperties?.includes(key) === true;
    if (!Object.hasOwn(previous, key) && !wasAdded) continue;
    if (!Object.hasOwn(current, key) || !sameValue(current[key], value)) {
      leftAlone.push(`${key} (now ${shown(current, key)})`);
      continue;
    }
    // Recorded as already holding the declared value (a create after a killed run found the
    // killed run's write): there is nothing of this resource's to put back.
    if (!wasAdded && sameValue(previous[key], value)) continue;
    if (wasAdded) change.remove.push(key);
    else change.set[key] = previous[key];
  }
  if (leftAlone.length > 0) {
    logInfo(
      `Left ${leftAlone.join(", ")} of ${inputs.adminUrl} as they are: the server no longer ` +
        "holds the value this resource set, so someone else changed it since.",
    );
  }
  if (Object.keys(change.set).length === 0 && change.remove.length === 0) return;
  await apply(inputs, session, change);
  logInfo(
    `Restored ${[...Object.keys(change.set), ...change.remove].join(", ")} of the system ` +
      `properties of ${inputs.adminUrl} to what they were when the stack took them on.`,
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
