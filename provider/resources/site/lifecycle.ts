/**
 * `Site`: creates a site on an ArcGIS Mission, ArcGIS, Notebook or Video Server with
 * `createNewSite`, in that product's dialect, as a Pulumi dynamic resource. This file is its
 * lifecycle (create, diff, update, read, delete) and the implementation the provider host loads
 * by this module path; the inputs, class and frame derive from definition.ts, the outputs in
 * report.ts, the
 * server checks in server.ts, the waits in waits.ts.
 *
 * Somewhat over 300 lines: the five operations and the implementation stay together so that the
 * file reads top-down as the lifecycle; everything they call lives in those files.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  answerMayBeLost,
  createNewSite,
  deleteSite,
  editLogSettings,
  getLogSettings,
  hasServerCode,
  isArcGISRequestError,
  isAuthError,
  retryWhile,
  siteStatus,
  type ArcGISRequestError,
} from "../../client";
import { containsUnknown } from "../common/inputs/check";
import { implementationOf } from "../common/pulumi/implementation";
import { type ResourceImplementation, withoutProvider } from "../common/pulumi/lazy-provider";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { ProgressReporter } from "../common/messages/progress";
import { lostAnswerNotice, unprovenAfterLostAnswer } from "../common/messages/one-shot";
import {
  answeredOutputs,
  currentOutputs,
  isOurSite,
  logSettingsAsReported,
  outputsOf,
  reportedLogSettings,
  siteDrift,
  type SiteOutputs,
} from "./report";
import {
  alreadyInSiteMessage,
  isAlreadyInSite,
  noSiteIsConclusive,
  proveCredentials,
  requireVersion,
  siteServer,
  type SiteServer,
  statusByToken,
  transportOf,
} from "./server";
import { retryWhileHeld, waitUntilAnswering } from "../common/connection/admin";
import { DEFAULT_SITE_TIMING, siteReady, type SiteTiming } from "./waits";
import { sameValue, withStateOnlyChanges } from "../common/pulumi/state-diff";
import { endSentence } from "../../sentence";
import {
  APPLIED_INPUTS,
  changedDefiningInputs,
  CREDENTIAL_INPUTS,
  siteChangeRefusals,
} from "./changes";
import { SITE } from "./definition";

function diff(_id: string, olds: SiteOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const changedDefining = changedDefiningInputs({ ...olds }, news);
  const changedStateOnly = [...CREDENTIAL_INPUTS, ...SITE.stateOnly, ...APPLIED_INPUTS].filter(
    (key) => !sameValue(olds[key], news[key]),
  );
  if (changedDefining.length === 0) {
    return { changes: changedStateOnly.length > 0 };
  }
  // Unknown values (preview) are compared again at `pulumi up`, when they are known.
  if (changedDefining.some((key) => containsUnknown(news[key]))) {
    return { changes: true };
  }
  // check() refuses a change the site cannot take, from the same old and new inputs; this is
  // the same rule for outputs that check() did not compare.
  const [refusal] = siteChangeRefusals({ ...olds }, news);
  if (refusal !== undefined) throw new Error(refusal.reason);
  return { changes: true, replaces: [...changedDefining], deleteBeforeReplace: true };
}

async function create(raw: unknown, timing: SiteTiming): Promise<pulumi.dynamic.CreateResult> {
  const inputs = SITE.parse(raw);
  // The server, its session, version and credentials: worked out here once, handed on below.
  const server = siteServer(inputs, { ownTokens: true });
  // The version (rest/info, no token) is read after the status check, on its connection: side by
  // side it would open a connection of its own (a TLS handshake on both sides) for a round trip.
  const status = await waitUntilAnswering(inputs, timing.serverPollIntervalMs);
  if (status.state === "in-site") return adopt(server);
  await requireVersion(server, "createNewSite");

  const createDeadline = Date.now() + inputs.timeouts.createMs;
  let lost: string | undefined;
  try {
    // Synchronous by default, as Esri's tools do: one request held until the site exists
    // (Chef: up to 3600 s; DSC: 1000 s, doubled for cloud stores), bounded by createMs.
    const transport = transportOf(inputs, {
      timeouts: inputs.runAsync
        ? { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 }
        : { connectMs: 10_000, headersMs: inputs.timeouts.createMs, bodyMs: 120_000 },
    });
    const params: Parameters<typeof createNewSite>[1] = {
      serverType: inputs.serverType,
      username: inputs.username,
      password: inputs.password,
      runAsync: inputs.runAsync,
    };
    if (inputs.configStoreConnection) params.configStoreConnection = inputs.configStoreConnection;
    if (inputs.directories) params.directories = inputs.directories;
    if (inputs.logSettings) params.logSettings = inputs.logSettings;
    const progress = new ProgressReporter(
      `site creation on ${inputs.adminUrl}`,
      inputs.timeouts.createMs,
    );
    // A synchronous createNewSite holds its one request open for the whole creation (minutes on
    // real servers): without progress lines `pulumi up` would show nothing until it ends.
    await progress.whileAwaiting(
      inputs.runAsync
        ? "createNewSite sent, waiting for its answer"
        : "createNewSite sent; the server answers once the site exists",
      () => createNewSite(inputs.adminUrl, params, transport),
      timing.progressIntervalMs,
    );
  } catch (error) {
    if (isAlreadyInSite(error)) {
      // Another client created a site (or is creating one) since our status check: wait until
      // it is ready before reading it.
      if (inputs.adoptExisting) {
        await siteReady(server, createDeadline, undefined, timing);
        return adopt(server);
      }
      throw new Error(alreadyInSiteMessage(inputs.adminUrl), { cause: error });
    }
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("createNewSite", inputs.adminUrl, error), { cause: error });
    }
    // Never send createNewSite twice: the first may still run. Watch the machine instead.
    lost = messageOf(error);
    logWarn(
      lostAnswerNotice(
        "createNewSite",
        inputs.adminUrl,
        lost,
        "watching the machine until timeouts.createMs to learn whether the site is being created",
      ),
    );
  }
  // A synchronous answer comes once the site exists (Esri's Chef and Ansible flows read nothing
  // more before going on): only an asynchronous start or a lost answer is watched until ready.
  if (inputs.runAsync || lost !== undefined) await siteReady(server, createDeadline, lost, timing);
  if (lost !== undefined) {
    const ours = await isOurSite(server);
    if (ours !== true) {
      if (!inputs.adoptExisting) {
        throw new Error(
          unprovenAfterLostAnswer(
            { operation: "createNewSite", thing: "site" },
            `A site appeared on ${inputs.adminUrl}`,
            lost,
            ours,
          ),
        );
      }
      logWarn(`Adopting the site at ${inputs.adminUrl}: ${ours}.`);
      return adopt(server);
    }
  }
  // createNewSite's own success answer comes once the site exists as it was sent: the create
  // returns with it (no token, no reads; see answeredOutputs). After a watch, the server is read.
  if (!inputs.runAsync && lost === undefined)
    return { id: inputs.adminUrl, outs: answeredOutputs(server) };
  return { id: inputs.adminUrl, outs: await outputsOf(server, "created") };
}

async function adopt(server: SiteServer): Promise<pulumi.dynamic.CreateResult> {
  const { inputs } = server;
  if (!inputs.adoptExisting) throw new Error(alreadyInSiteMessage(inputs.adminUrl));
  let outs: SiteOutputs;
  try {
    outs = await outputsOf(server, "adopted");
  } catch (error) {
    if (isArcGISRequestError(error) && isAuthError(error)) {
      throw new Error(
        `adoptExisting is set, but the given credentials could not obtain an administrator ` +
          `token from ${inputs.adminUrl} (${(error as ArcGISRequestError).message}). Give the ` +
          "existing site's primary administrator (or another administrator) credentials.",
        { cause: error },
      );
    }
    throw error;
  }
  logInfo(`Adopted the existing site at ${inputs.adminUrl}; no createNewSite was sent.`);
  for (const line of siteDrift(inputs, outs)) {
    logWarn(`The adopted site at ${inputs.adminUrl} differs from the program: ${line}.`);
  }
  // State holds what the server has: the next `pulumi up` applies the declared log settings.
  if (inputs.logSettings !== undefined && outs.serverLogSettings !== undefined) {
    outs.logSettings = logSettingsAsReported(inputs.logSettings, outs.serverLogSettings);
  }
  return { id: inputs.adminUrl, outs };
}

async function read(id: string, props: SiteOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = SITE.parse(props);
  const server = siteServer(inputs);
  const status =
    (await statusByToken(server)) ?? (await siteStatus(inputs.adminUrl, server.transport));
  if (status.state === "unreachable") {
    throw new Error(
      `Cannot refresh the site at ${inputs.adminUrl}: ${endSentence(status.error.message)} Nothing was ` +
        "changed in state.",
    );
  }
  if (status.state === "no-site") {
    const conclusive = await noSiteIsConclusive(server, status);
    if (conclusive !== true) {
      throw new Error(
        `Cannot refresh the site at ${inputs.adminUrl}: the server does not confirm that the ` +
          `site is gone (${conclusive}). Nothing was changed in state. If the site was deleted, ` +
          "remove it from the stack with `pulumi state delete <urn>`.",
      );
    }
    logInfo(`The machine at ${inputs.adminUrl} is no longer in a site.`);
    return {};
  }
  return { id, props: await currentOutputs(server, props) };
}

async function update(_id: string, olds: SiteOutputs, rawNews: unknown) {
  const news = SITE.parse(rawNews);
  const server = siteServer(news);
  if (CREDENTIAL_INPUTS.some((key) => !sameValue(olds[key], news[key]))) {
    await proveCredentials(server);
  }
  const outs = withStateOnlyChanges(olds, news, [
    ...CREDENTIAL_INPUTS,
    ...SITE.stateOnly,
    ...APPLIED_INPUTS,
  ]);
  if (news.logSettings !== undefined && !sameValue(olds.logSettings, news.logSettings)) {
    const { session } = server;
    const wanted = news.logSettings;
    outs.serverLogSettings = await explained(
      async () => {
        // An export or import holds the site: the server refuses without acting, so wait for it
        // (as LogSettings does) rather than fail the update, within timeouts.createMs.
        await retryWhileHeld(
          news.adminUrl,
          news.timeouts.createMs,
          "applying its logSettings",
          () => editLogSettings(session, wanted),
        );
        return reportedLogSettings(await getLogSettings(session));
      },
      (error) => failureMessage("logs/settings/edit", news.adminUrl, error),
    );
    logInfo(`Applied logSettings to the site at ${news.adminUrl} (logs/settings/edit).`);
  }
  return { outs };
}

async function remove(_id: string, props: SiteOutputs, timing: SiteTiming): Promise<void> {
  const inputs = SITE.parse(props);
  if (!inputs.deleteSiteOnDestroy) {
    logInfo(
      `The site at ${inputs.adminUrl} was left running and is no longer managed by this stack ` +
        "(deleteSiteOnDestroy is false).",
    );
    return;
  }
  const server = siteServer(inputs);
  const status = await siteStatus(inputs.adminUrl, server.transport);
  if (status.state === "unreachable") {
    throw new Error(
      `Cannot delete the site at ${inputs.adminUrl}: ${endSentence(status.error.message)} deleteSite was ` +
        "not sent and the site stays in the stack; run `pulumi destroy` again once the server " +
        "answers.",
    );
  }
  if (status.state === "no-site") {
    const conclusive = await noSiteIsConclusive(server, status);
    if (conclusive === true) {
      logInfo(`The machine at ${inputs.adminUrl} is in no site already; nothing to delete.`);
      return;
    }
    throw new Error(
      `Cannot delete the site at ${inputs.adminUrl}: the server does not confirm that the site ` +
        `is gone (${conclusive}). deleteSite was not sent and the site stays in the stack. If ` +
        "it was deleted, remove it with `pulumi state delete <urn>`.",
    );
  }
  const { session } = server;
  const progress = new ProgressReporter(
    `deleteSite on ${inputs.adminUrl}`,
    inputs.timeouts.createMs,
  );
  // An export holds the site: wait for it rather than fail the destroy.
  await explained(
    () =>
      retryWhile(
        (error) => hasServerCode(error, 409),
        {
          deadline: Date.now() + inputs.timeouts.createMs,
          baseDelay: timing.deleteRetryBaseMs,
          maxDelay: timing.deleteRetryMaxMs,
          onRetry: () => progress.tick("an export holds the site configuration"),
        },
        () => deleteSite(session),
      ),
    (error) => failureMessage("deleteSite", inputs.adminUrl, error),
  );
  logInfo(`Deleted the site at ${inputs.adminUrl}.`);
}

function implementationWith(timing: SiteTiming): ResourceImplementation {
  return implementationOf(SITE.rules, {
    refusals: siteChangeRefusals,
    diff,
    create: (raw: unknown) => create(raw, timing),
    read,
    update,
    delete: (id: string, props: SiteOutputs) => remove(id, props, timing),
  });
}

/**
 * The Site implementation the host runs. Loaded by package name at run time through
 * `siteProvider` (generated.ts); tests call it directly.
 *
 * @internal
 */
export const implementation: ResourceImplementation = implementationWith(DEFAULT_SITE_TIMING);

/**
 * The Site implementation polling with other intervals, so that tests need not wait 700 ms
 * between two looks in real time. A stack never uses it.
 *
 * @internal
 */
export function withTiming(timing: Partial<SiteTiming>): ResourceImplementation {
  return implementationWith({ ...DEFAULT_SITE_TIMING, ...timing });
}
