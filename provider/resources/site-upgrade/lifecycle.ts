/**
 * `SiteUpgrade`: completes the upgrade of a site whose software was upgraded in place
 * (`GET`/`POST {admin_root}/upgrade`), as a Pulumi dynamic resource. The upgrade is sent once,
 * only when the site reports one due, with the care of createNewSite: never retried, and a lost
 * answer is settled by reading the status until it shows the outcome, never by a second upgrade.
 * Reads top-down as its lifecycle: the preview note, diff, create, read (refresh), update,
 * delete; then the implementation the host loads from this module's path. Its inputs, class and
 * frame derive from `definition.ts` (`generated.ts`).
 *
 * Evidence of each product's form is cited in provider/client/admin/getUpgradeStatus.ts and
 * completeUpgrade.ts (Chef's `upgrade_required?`, `complete_upgrade`, `complete_upgrade_async`
 * on every product's cookbook; DSC's ArcGIS_ServerUpgrade and ArcGIS_MissionServerUpgrade).
 */
import { withoutTrailingSlash } from "../../url";
import type * as pulumi from "@pulumi/pulumi";
import {
  answerMayBeLost,
  completeUpgrade,
  getUpgradeStatus,
  type UpgradeStatus,
  upgradeRunsAsync,
  waitForSite,
  waitForUpgrade,
} from "../../client";
import { containsUnknown } from "../common/inputs/check";
import { implementationOf } from "../common/pulumi/implementation";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { ProgressReporter } from "../common/messages/progress";
import { transportFor } from "../common/connection/tls";
import { SITE_UPGRADE } from "./definition";
import type { SiteUpgradeInputs, SiteUpgradeOutputs } from "./generated";
import type { SiteUpgradeOutcome } from "./values";

/** Time between two reads of the status while an upgrade runs or its answer was lost. */
const POLL_INTERVAL_MS = 2_000;

/** Bounds of a status read made only to tell the user what will happen (preview, diff, refresh). */
const LOOK_TIMEOUTS = { connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 };

/** The site's status, read once without retries, to say what the next step will do. */
function lookAtStatus(inputs: SiteUpgradeInputs): Promise<UpgradeStatus> {
  return getUpgradeStatus(inputs.adminUrl, {
    ...transportFor(inputs.adminUrl, inputs.tls),
    timeouts: LOOK_TIMEOUTS,
    retry: false,
  });
}

/** "from 11.1.0 to 11.3.0", when the server says. */
function versionsOf(status: UpgradeStatus): string {
  const from = status.upgradeFromVersion === undefined ? "" : ` from ${status.upgradeFromVersion}`;
  const to = status.upgradeToVersion === undefined ? "" : ` to ${status.upgradeToVersion}`;
  return from + to;
}

/**
 * preview (at check of a new SiteUpgrade, so at `pulumi preview` too): says whether its create
 * will send the upgrade, from the status the site reports now. Sends no change.
 */
async function preview(raw: Record<string, unknown>): Promise<void> {
  const inputs = SITE_UPGRADE.parse(raw);
  let status: UpgradeStatus;
  try {
    status = await lookAtStatus(inputs);
  } catch (error) {
    logInfo(
      `Cannot tell yet whether the site at ${inputs.adminUrl} must be upgraded ` +
        `(${messageOf(error)}); the create reads its status again before sending anything.`,
    );
    return;
  }
  logInfo(whatCreateDoes(inputs.adminUrl, status));
}

function whatCreateDoes(adminUrl: string, status: UpgradeStatus): string {
  if (status.required) {
    return (
      `The site at ${adminUrl} must be upgraded${versionsOf(status)}: the create of this ` +
      "SiteUpgrade sends the upgrade once and waits until the site serves again."
    );
  }
  if (status.state === "in-progress") {
    return `An upgrade of the site at ${adminUrl} runs already: the create waits for it and sends none.`;
  }
  return `No upgrade is due at ${adminUrl}: the create records that and sends nothing.`;
}

/**
 * diff: another server is a replacement (nothing to undo: the old resource's delete sends
 * nothing). A state-only input changed is an update in place. Otherwise the site's status is read:
 * an upgrade due again (the software was upgraded once more) is an update in place that completes
 * it, said in the preview's log. A status that cannot be read is said, and changes nothing.
 */
async function diff(
  _id: string,
  olds: SiteUpgradeOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.DiffResult> {
  const news = withoutProvider(rawNews);
  const { replaces, updates: stateOnly } = SITE_UPGRADE.changes(olds, news);
  if (replaces.length > 0) return { changes: true, replaces: [...replaces] };
  if (containsUnknown(news)) return { changes: stateOnly.length > 0 };
  const inputs = SITE_UPGRADE.parse(news);
  let status: UpgradeStatus;
  try {
    status = await lookAtStatus(inputs);
  } catch (error) {
    logWarn(
      `Cannot read whether the site at ${inputs.adminUrl} must be upgraded ` +
        `(${messageOf(error)}); no upgrade is planned in this run. Run again once it answers.`,
    );
    return { changes: stateOnly.length > 0 };
  }
  if (status.required || status.state === "in-progress") {
    logInfo(
      status.required
        ? `The site at ${inputs.adminUrl} must be upgraded again${versionsOf(status)}: ` +
            "`pulumi up` sends the upgrade once (an update in place)."
        : `An upgrade of the site at ${inputs.adminUrl} runs: \`pulumi up\` waits for it.`,
    );
    return { changes: true };
  }
  return { changes: stateOnly.length > 0 };
}

/** What completing (or not) found and did. */
interface Completion {
  outcome: SiteUpgradeOutcome;
  fromVersion?: string;
  toVersion?: string;
  sent: boolean;
}

/** create: completes the upgrade when one is due; records that none was, sending nothing. */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = SITE_UPGRADE.parse(raw);
  const done = await completeIfDue(inputs);
  const outs: SiteUpgradeOutputs = {
    ...inputs,
    ...recorded(done),
    upgradesSent: done.sent ? 1 : 0,
  };
  return { id: `${withoutTrailingSlash(inputs.adminUrl)}/upgrade`, outs };
}

function recorded(
  done: Completion,
): Pick<SiteUpgradeOutputs, "outcome" | "fromVersion" | "toVersion"> {
  return {
    outcome: done.outcome,
    ...(done.fromVersion === undefined ? {} : { fromVersion: done.fromVersion }),
    ...(done.toVersion === undefined ? {} : { toVersion: done.toVersion }),
  };
}

/**
 * Reads the status; when an upgrade is due (UPGRADE_REQUIRED, LAST_ATTEMPT_FAILED, `isUpgrade`),
 * sends it once and waits for its outcome; when one runs, waits for it and sends none; then waits
 * until the site serves again (a token for the given administrator, a healthy health check).
 */
async function completeIfDue(inputs: SiteUpgradeInputs): Promise<Completion> {
  const { adminUrl } = inputs;
  const transport = transportFor(adminUrl, inputs.tls);
  const status = await explained(
    () => getUpgradeStatus(adminUrl, transport),
    (error) => `${failureMessage("upgrade", adminUrl, error)} Nothing was sent.`,
  );
  const versions = {
    ...(status.upgradeFromVersion === undefined ? {} : { fromVersion: status.upgradeFromVersion }),
    ...(status.upgradeToVersion === undefined ? {} : { toVersion: status.upgradeToVersion }),
  };
  if (!status.required && status.state !== "in-progress") {
    logInfo(`No upgrade is due at ${adminUrl}; nothing was sent.`);
    return { outcome: "not-required", sent: false };
  }
  const deadline = Date.now() + inputs.timeouts.upgradeMs;
  const progress = new ProgressReporter(`the upgrade of ${adminUrl}`, inputs.timeouts.upgradeMs);
  const wait = {
    deadline,
    pollIntervalMs: POLL_INTERVAL_MS,
    onStatus: (s: { detail: string }) => progress.tick(s.detail),
  };
  if (status.state === "in-progress") {
    logInfo(`An upgrade of the site at ${adminUrl} runs already; waiting for it, sending none.`);
    await outcomeOf(inputs, wait);
    await servesAgain(inputs, deadline);
    return { outcome: "awaited", ...versions, sent: false };
  }
  await sendOnce(inputs, status, wait, progress);
  await servesAgain(inputs, deadline);
  logInfo(`Upgraded the site at ${adminUrl}${versionsOf(status)}.`);
  return { outcome: "upgraded", ...versions, sent: true };
}

/**
 * Sends the upgrade once: asynchronously where asked or, by default, where the server can (ArcGIS
 * Server whose new version is 11.4 or later), else synchronously with the request held for the
 * whole of `timeouts.upgradeMs`. A lost answer (a timeout, a proxy's 502, a cut connection) is
 * settled by reading the status until it shows the outcome: the upgrade is never sent again.
 */
async function sendOnce(
  inputs: SiteUpgradeInputs,
  status: UpgradeStatus,
  wait: { deadline: number; pollIntervalMs: number; onStatus: (s: { detail: string }) => void },
  progress: ProgressReporter,
): Promise<void> {
  const { adminUrl } = inputs;
  const serverVersion =
    status.upgradeToVersion === undefined ? undefined : Number.parseFloat(status.upgradeToVersion);
  const runAsync =
    inputs.runAsync ??
    (serverVersion !== undefined && upgradeRunsAsync(inputs.serverType, serverVersion));
  const transport = transportFor(adminUrl, inputs.tls, {
    timeouts: runAsync
      ? { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 }
      : { connectMs: 10_000, headersMs: inputs.timeouts.upgradeMs, bodyMs: 120_000 },
  });
  try {
    await progress.whileAwaiting(
      runAsync
        ? "upgrade started asynchronously; polling it"
        : "upgrade sent; the server answers once the site is upgraded",
      () =>
        completeUpgrade(
          adminUrl,
          {
            serverType: inputs.serverType,
            runAsync,
            ...(serverVersion === undefined ? {} : { serverVersion }),
            wait,
          },
          transport,
        ),
    );
  } catch (error) {
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("upgrade", adminUrl, error), { cause: error });
    }
    logWarn(
      `The answer to the upgrade of ${adminUrl} was lost (${messageOf(error)}); reading its ` +
        "status until timeouts.upgradeMs to learn the outcome. The upgrade is not sent again.",
    );
    await outcomeOf(inputs, wait);
  }
}

/** Reads the status until the upgrade that runs (or whose answer was lost) shows its outcome. */
async function outcomeOf(
  inputs: SiteUpgradeInputs,
  wait: { deadline: number; pollIntervalMs: number; onStatus: (s: { detail: string }) => void },
): Promise<void> {
  await explained(
    () => waitForUpgrade(inputs.adminUrl, wait, transportFor(inputs.adminUrl, inputs.tls)),
    (error) =>
      `${failureMessage("upgrade", inputs.adminUrl, error)} The upgrade was not sent again; ` +
      "run `pulumi up` again: it reads the status first and sends the upgrade only if the site " +
      "still reports one due.",
  );
}

/** Waits until the upgraded site issues a token again and reports itself healthy. */
async function servesAgain(inputs: SiteUpgradeInputs, deadline: number): Promise<void> {
  const progress = new ProgressReporter(
    `the upgraded site at ${inputs.adminUrl} to serve`,
    Math.max(0, deadline - Date.now()),
  );
  await explained(
    () =>
      waitForSite(
        {
          adminUrl: inputs.adminUrl,
          serverType: inputs.serverType,
          username: inputs.username,
          password: inputs.password,
          ...transportFor(inputs.adminUrl, inputs.tls),
        },
        { deadline, pollIntervalMs: POLL_INTERVAL_MS, onStatus: (s) => progress.tick(s.detail) },
      ),
    (error) =>
      `The site at ${inputs.adminUrl} was upgraded, but does not serve yet: ${messageOf(error)}. ` +
      "The upgrade is not sent again.",
  );
}

/**
 * read (refresh): reads the status and says when an upgrade is due again (the next `pulumi up`
 * completes it); state is kept as it is, since an upgrade done cannot be undone. An unreadable
 * server is an error: state is kept.
 */
async function read(id: string, props: SiteUpgradeOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = SITE_UPGRADE.parse(props);
  const status = await explained(
    () => getUpgradeStatus(inputs.adminUrl, transportFor(inputs.adminUrl, inputs.tls)),
    (error) =>
      `Cannot refresh the upgrade status of ${inputs.adminUrl}: ${messageOf(error)}. State is kept.`,
  );
  if (status.required) {
    logInfo(
      `The site at ${inputs.adminUrl} must be upgraded again${versionsOf(status)}; the next ` +
        "`pulumi up` sends the upgrade once.",
    );
  }
  return { id, props };
}

/**
 * update: completes an upgrade due again (found by diff), once, as create does; after a
 * state-only change with none due, sends nothing and keeps the record of the last upgrade.
 */
async function update(_id: string, olds: SiteUpgradeOutputs, rawNews: unknown) {
  const inputs = SITE_UPGRADE.parse(rawNews);
  const done = await completeIfDue(inputs);
  const outs: SiteUpgradeOutputs = {
    ...inputs,
    ...(done.outcome === "not-required" ? recordedOf(olds) : recorded(done)),
    upgradesSent: (olds.upgradesSent ?? 0) + (done.sent ? 1 : 0),
  };
  return { outs };
}

function recordedOf(
  olds: SiteUpgradeOutputs,
): Pick<SiteUpgradeOutputs, "outcome" | "fromVersion" | "toVersion"> {
  return {
    outcome: olds.outcome,
    ...(olds.fromVersion === undefined ? {} : { fromVersion: olds.fromVersion }),
    ...(olds.toVersion === undefined ? {} : { toVersion: olds.toVersion }),
  };
}

/** delete: an upgrade cannot be undone; destroy only forgets it, sending nothing. */
async function remove(_id: string, props: SiteUpgradeOutputs): Promise<void> {
  logInfo(
    `Left the site at ${props.adminUrl} as it is: an upgrade cannot be undone, destroy only ` +
      "removes its record from the stack.",
  );
}

/**
 * The SiteUpgrade implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(SITE_UPGRADE.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
  preview,
});
