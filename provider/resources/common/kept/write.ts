/**
 * Writing settings a resource keeps: one change sent to the server by the resource's own call,
 * again while an export or import holds the site, a lost answer settled by reading (never by
 * sending again), and the server read back to prove it took the change.
 */
import { type AdminSession, answerMayBeLost } from "../../../client";
import { isHeldByExportOrImport, retryWhileHeld } from "../connection/admin";
import { failureMessage, messageOf } from "../messages/failures";
import { logWarn } from "../messages/log";
import { sameValue } from "../pulumi/state-diff";
import { type Settings, shown } from "./ledger";

/** What one write changes: settings to set, settings to remove. */
export interface Change {
  set: Settings;
  remove: readonly string[];
}

/**
 * The settings' place on a server: what they are called, where they are read and written, and
 * the resource's own read and send.
 */
export interface KeptServer<T extends WriteTarget = WriteTarget> {
  /** What the settings are called in messages, e.g. "log settings". */
  settings: string;
  /** What one of them is called, e.g. "log setting". */
  setting: string;
  /** The operation that reads them, also the end of the resource's id, e.g. "logs/settings". */
  path: string;
  /** The operation that writes them, e.g. "logs/settings/edit". */
  update: string;
  /** The settings as the server reports them (plain JSON). */
  read(session: AdminSession): Promise<Settings>;
  /**
   * Sends `change` once. `current` is what `read` gave just before the first attempt; a server
   * whose write replaces the whole set reads it again here, so that a setting another client
   * changed meanwhile is sent back as it is now.
   */
  send(session: AdminSession, change: Change, current: Settings): Promise<void>;
  /**
   * Waits after a write, sent or with its answer lost, before the server is read again: a server
   * whose web server restarts after the change (SecuritySettings) waits until it answers.
   */
  afterWrite?(session: AdminSession, target: T): Promise<void>;
}

/** What a write needs of the inputs: the site, for messages, and the bound on a change. */
export interface WriteTarget {
  adminUrl: string;
  timeouts: { changeMs: number };
}

/** `whole` with `change` made: the set a server that takes the whole set is sent. */
export function withChange(whole: Settings, change: Change): Settings {
  const out: Settings = { ...whole, ...change.set };
  for (const key of change.remove) delete out[key];
  return out;
}

/**
 * Sends `change`, again while an export or import holds the site, and reads back. A lost answer
 * is settled by reading: the change the server shows is done, one it does not show is an error
 * that sends nothing again (the write may still arrive, and sending once more could undo another
 * client's change made since). A change the server does not show after answering success is an
 * error.
 */
export async function writeChange<T extends WriteTarget>(
  server: KeptServer<T>,
  target: T,
  session: AdminSession,
  change: Change,
  current: Settings,
): Promise<Settings> {
  const { adminUrl, timeouts } = target;
  try {
    await retryWhileHeld(adminUrl, timeouts.changeMs, `changing its ${server.settings}`, () =>
      server.send(session, change, current),
    );
  } catch (error) {
    if (answerMayBeLost(error)) {
      await settleLostAnswer(server, target, session, change, error);
    } else if (isHeldByExportOrImport(error)) {
      throw new Error(
        `The ${server.settings} of ${adminUrl} could not be changed within timeouts.changeMs ` +
          `(${timeouts.changeMs} ms): an export or import held the site the whole time ` +
          `(${messageOf(error)}). Nothing was changed. Raise timeouts.changeMs or run again.`,
        { cause: error },
      );
    } else {
      throw new Error(failureMessage(server.update, adminUrl, error), { cause: error });
    }
  }
  await server.afterWrite?.(session, target);
  const after = await server.read(session);
  if (!shows(after, change)) {
    throw new Error(
      `${server.update} on ${adminUrl} answered success, but the server reports ` +
        `${describe(after, change)}.`,
    );
  }
  return after;
}

async function settleLostAnswer<T extends WriteTarget>(
  server: KeptServer<T>,
  target: T,
  session: AdminSession,
  change: Change,
  error: unknown,
): Promise<void> {
  const lost = `The answer to ${server.update} on ${target.adminUrl} was lost (${messageOf(error)})`;
  let now: Settings;
  try {
    await server.afterWrite?.(session, target);
    now = await server.read(session);
  } catch (readError) {
    throw new Error(
      `${lost}, and the ${server.settings} cannot be read to tell whether it took effect ` +
        `(${messageOf(readError)}). It was not sent again; run \`pulumi up\` again once the ` +
        "server answers.",
      { cause: readError },
    );
  }
  if (!shows(now, change)) {
    throw new Error(
      `${lost}, and the server reports ${describe(now, change)}. It was not sent again; run ` +
        `\`pulumi up\` again to write the declared ${server.settings}.`,
      { cause: error },
    );
  }
  logWarn(`${lost}; the server shows the change, so it is done. It was not sent again.`);
}

/** True when `reported` shows the change done. */
function shows(reported: Settings, change: Change): boolean {
  return (
    Object.entries(change.set).every(
      ([key, value]) => Object.hasOwn(reported, key) && sameValue(reported[key], value),
    ) && change.remove.every((key) => !Object.hasOwn(reported, key))
  );
}

/** The settings of `change` the server reports otherwise, for a message. */
function describe(reported: Settings, change: Change): string {
  const wrong = Object.entries(change.set)
    .filter(([key, value]) => !Object.hasOwn(reported, key) || !sameValue(reported[key], value))
    .map(([key, value]) => `${key} ${shown(reported, key)} (wanted ${JSON.stringify(value)})`);
  const kept = change.remove
    .filter((key) => Object.hasOwn(reported, key))
    .map((key) => `${key} ${shown(reported, key)} (wanted absent)`);
  return [...wrong, ...kept].join(", ");
}
