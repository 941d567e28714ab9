/**
 * `PortalSite`: creates the site of a Portal for ArcGIS with `portaladmin/createNewSite`, as a
 * Pulumi dynamic resource. This file is its lifecycle (preview, create, read, update, delete) and
 * the implementation the provider host loads by this module path; its inputs, class and frame
 * derive from definition.ts, its reads of the portal are in portal.ts.
 *
 * createNewSite is sent once: a lost answer is settled by reading the portal (its admin root, a
 * sign-in as the declared administrator), never by sending it again; a portal that has its site is
 * adopted only with adoptExisting; destroy leaves the portal as it is (Portal for ArcGIS documents
 * no operation that deletes its site).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  answerMayBeLost,
  createPortalSite,
  isArcGISRequestError,
  portalAdminUrlOf,
  portalSiteStatus,
  waitForPortalSite,
} from "../../client";
import type { CheckFailure } from "../common/inputs/definition";
import { implementationOf } from "../common/pulumi/implementation";
import { type ResourceImplementation, withoutProvider } from "../common/pulumi/lazy-provider";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { ProgressReporter } from "../common/messages/progress";
import { lostAnswerNotice, unprovenAfterLostAnswer } from "../common/messages/one-shot";
import { withStateOnlyChanges, sameValue } from "../common/pulumi/state-diff";
import { endSentence } from "../../sentence";
import { PORTAL_SITE } from "./definition";
import type { PortalSiteInputs, PortalSiteOutputs } from "./generated";
import {
  alreadyInSiteMessage,
  isOurPortalSite,
  proveAdministrator,
  transportOf,
  whereToCheck,
} from "./portal";

/** How often a create looks at the portal, and checks whether a progress line is due. */
const POLL_INTERVAL_MS = 1_000;

/** What the stack records for a portal's site, created or adopted. */
function outputsOf(inputs: PortalSiteInputs, state: "created" | "adopted"): PortalSiteOutputs {
  return {
    ...inputs,
    state,
    createdAt: new Date().toISOString(),
    portalAdminUrl: portalAdminUrlOf(inputs.sharingUrl),
  };
}

/**
 * At `check()` of a PortalSite not in the stack yet (so at `pulumi preview` too): says whether the
 * create will send createNewSite or adopt, and refuses, naming adoptExisting, a portal that has
 * its site already when adoptExisting is not set. Sends nothing but the token-less status read.
 */
async function preview(raw: Record<string, unknown>): Promise<CheckFailure[]> {
  const inputs = PORTAL_SITE.parse(raw);
  const status = await portalSiteStatus(
    inputs.sharingUrl,
    transportOf(inputs, { timeouts: { connectMs: 10_000, headersMs: 30_000 } }),
  );
  if (status.state === "unreachable") {
    logInfo(
      `Could not tell whether the portal at ${inputs.sharingUrl} has its site ` +
        `(${status.error.message}); the create waits for it to answer, then decides.`,
    );
    return [];
  }
  if (status.state === "no-site") {
    logInfo(`The portal at ${inputs.sharingUrl} is in no site: createNewSite will be sent once.`);
    return [];
  }
  if (!inputs.adoptExisting) {
    return [{ property: "adoptExisting", reason: alreadyInSiteMessage(inputs.sharingUrl) }];
  }
  logInfo(`The portal at ${inputs.sharingUrl} has its site: it will be adopted, not created.`);
  return [];
}

async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = PORTAL_SITE.parse(raw);
  const transport = transportOf(inputs);
  const answering = new ProgressReporter(
    `the portal at ${inputs.sharingUrl} to answer`,
    inputs.timeouts.portalReadyMs,
  );
  const status = await explained(
    () =>
      waitForPortalSite(inputs.sharingUrl, transport, "answering", {
        deadline: Date.now() + inputs.timeouts.portalReadyMs,
        pollIntervalMs: POLL_INTERVAL_MS,
        onStatus: (s) => answering.tick(s.detail),
      }),
    (error) =>
      `The portal at ${inputs.sharingUrl} did not answer within timeouts.portalReadyMs ` +
      `(${inputs.timeouts.portalReadyMs} ms): ${endSentence(messageOf(error))} Check that Portal ` +
      "for ArcGIS is installed and running and that sharingUrl is right, or raise " +
      "timeouts.portalReadyMs.",
  );
  if (status.state === "in-site") return adopt(inputs);

  const deadline = Date.now() + inputs.timeouts.createMs;
  const progress = new ProgressReporter(
    `the portal's site creation at ${inputs.sharingUrl}`,
    inputs.timeouts.createMs,
  );
  let lost: string | undefined;
  try {
    // One request held until the site exists, as Chef's and DSC's are, bounded by createMs: the
    // progress lines say it is still under way.
    await progress.whileAwaiting(
      "createNewSite sent; the portal answers once its site exists",
      () =>
        createPortalSite(inputs.sharingUrl, inputs, {
          ...transportOf(inputs, {
            timeouts: { connectMs: 10_000, headersMs: inputs.timeouts.createMs, bodyMs: 120_000 },
          }),
        }),
      POLL_INTERVAL_MS,
    );
  } catch (error) {
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("createNewSite", inputs.sharingUrl, error), { cause: error });
    }
    lost = messageOf(error);
    logWarn(
      lostAnswerNotice(
        "createNewSite",
        inputs.sharingUrl,
        lost,
        "reading the portal until timeouts.createMs to learn whether its site is being created",
      ),
    );
  }
  if (lost === undefined) {
    logInfo(
      `Created the portal's site at ${inputs.sharingUrl} (administrator ${inputs.username}).`,
    );
    return { id: inputs.sharingUrl, outs: outputsOf(inputs, "created") };
  }
  // The lost answer is settled by reading the portal, never by a second createNewSite.
  try {
    await waitForPortalSite(inputs.sharingUrl, transport, "in-site", {
      deadline,
      pollIntervalMs: POLL_INTERVAL_MS,
      onStatus: (s) => progress.tick(s.detail),
    });
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    throw new Error(
      `The answer to createNewSite was lost (${lost}), and the portal at ${inputs.sharingUrl} ` +
        `had no site within timeouts.createMs (${inputs.timeouts.createMs} ms). The portal may ` +
        `still be creating it: do not run \`pulumi up\` again before checking: ${whereToCheck(inputs)}. ` +
        "Once the site exists, set adoptExisting: true to take it over. Run again without it " +
        "only when the portal is still in no site after its own creation could have ended " +
        "(raise timeouts.createMs for slow creations).",
      { cause: error },
    );
  }
  const ours = await isOurPortalSite(inputs);
  if (ours === true) {
    logInfo(
      `The portal at ${inputs.sharingUrl} has its site with the declared administrator ` +
        `${inputs.username}: recorded as created by this stack.`,
    );
    return { id: inputs.sharingUrl, outs: outputsOf(inputs, "created") };
  }
  if (!inputs.adoptExisting) {
    throw new Error(
      unprovenAfterLostAnswer(
        { operation: "createNewSite", thing: "portal's site" },
        `The portal at ${inputs.sharingUrl} has a site`,
        lost,
        ours,
      ),
    );
  }
  logWarn(`Adopting the portal's site at ${inputs.sharingUrl}: ${ours}.`);
  return adopt(inputs);
}

/** A portal that has its site: recorded as adopted once the given administrator signs in. */
async function adopt(inputs: PortalSiteInputs): Promise<pulumi.dynamic.CreateResult> {
  if (!inputs.adoptExisting) throw new Error(alreadyInSiteMessage(inputs.sharingUrl));
  await proveAdministrator(inputs, "adoptExisting is set, but");
  logInfo(
    `Adopted the portal's site at ${inputs.sharingUrl}; no createNewSite was sent. Destroy ` +
      "will leave it as it is.",
  );
  return { id: inputs.sharingUrl, outs: outputsOf(inputs, "adopted") };
}

/**
 * refresh: the portal still has its site (state kept), or its admin root answers the portal's own
 * "not initialized" document (a portal installed again: dropped from state). Anything else
 * changes nothing and says so.
 */
async function read(id: string, props: PortalSiteOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = PORTAL_SITE.parse(props);
  const status = await portalSiteStatus(inputs.sharingUrl, transportOf(inputs));
  if (status.state === "unreachable") {
    throw new Error(
      `Cannot refresh the portal's site at ${inputs.sharingUrl}: ` +
        `${endSentence(status.error.message)} Nothing was changed in state.`,
    );
  }
  if (status.state === "no-site") {
    if (!status.notInitialized) {
      throw new Error(
        `Cannot refresh the portal's site at ${inputs.sharingUrl}: its administrative root ` +
          `answers "${status.message}", not the portal's "not initialized" answer, so it is not ` +
          "shown that the site is gone. Nothing was changed in state. If it is gone, remove it " +
          "with `pulumi state delete <urn>`.",
      );
    }
    logInfo(
      `The portal at ${inputs.sharingUrl} is in no site any more (it answers that its site has ` +
        "not been initialized): removed from the stack; the next `pulumi up` creates it.",
    );
    return {};
  }
  return { id, props };
}

/**
 * update: every change that is no replacement only updates state (nothing of the account is
 * changed on the portal); new credentials are recorded only once the portal accepts them.
 */
async function update(_id: string, olds: PortalSiteOutputs, rawNews: unknown) {
  const news = PORTAL_SITE.parse(rawNews);
  if (!sameValue(olds.username, news.username) || !sameValue(olds.password, news.password)) {
    await proveAdministrator(
      news,
      "the new credentials were not recorded (state keeps the previous ones):",
    );
  }
  return { outs: withStateOnlyChanges(olds, news, PORTAL_SITE.stateOnly) };
}

/** destroy: the portal and its site are left as they are; the stack forgets them. */
function remove(_id: string, props: PortalSiteOutputs): Promise<void> {
  logInfo(
    `The portal's site at ${props.sharingUrl} was left as it is and is no longer managed by ` +
      "this stack (Portal for ArcGIS has no operation that deletes its site).",
  );
  return Promise.resolve();
}

/**
 * The PortalSite implementation the host runs. Loaded by package name at run time through
 * `portalSiteProvider` (generated.ts); tests call it directly.
 *
 * @internal
 */
export const implementation: ResourceImplementation = implementationOf(PORTAL_SITE.rules, {
  diff: (_id: string, olds: PortalSiteOutputs, news: unknown) =>
    PORTAL_SITE.diff(olds, withoutProvider(news)),
  preview,
  create,
  read,
  update,
  delete: remove,
});
