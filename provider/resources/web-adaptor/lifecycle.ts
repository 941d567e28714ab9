/**
 * `WebAdaptor`: a Web Adaptor registered with a server site or a portal through its own
 * configuration page (as Esri's configure tool does), and unregistered from the server's or the
 * portal's `system/webadaptors` on destroy, as a Pulumi dynamic resource. The list is the evidence
 * of what is registered: create reads it first (a Web Adaptor listed already is adopted only with
 * `adoptExisting`), a lost answer of the configuration is settled by reading it (never by
 * configuring again), refresh reads it, and destroy unregisters only one this stack registered.
 * Its inputs, class and frame derive from `definition.ts` (`generated.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  answerMayBeLost,
  configureWebAdaptor,
  listWebAdaptors,
  type RegisteredWebAdaptor,
  unregisterWebAdaptor,
  type WebAdaptorRegistrar,
} from "../../client";
import { adminSessionFor } from "../common/connection/admin";
import { portalSessionFor } from "../common/connection/portal";
import { transportFor } from "../common/connection/tls";
import { sameUrl } from "../common/connection/urls";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { implementationOf } from "../common/pulumi/implementation";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { withStateOnlyChanges } from "../common/pulumi/state-diff";
import { withoutTrailingSlash } from "../../url";
import { WEB_ADAPTOR } from "./definition";
import type { WebAdaptorInputs, WebAdaptorOutputs } from "./generated";

/** Time between two readings of the list after a lost answer. */
const LIST_POLL_MS = 700;

/** Where the Web Adaptor registers: the site's admin session, or the portal's session. */
function registrarOf(inputs: WebAdaptorInputs): WebAdaptorRegistrar {
  if (inputs.mode === "server") return adminSessionFor(inputs);
  return portalSessionFor({
    sharingUrl: withoutTrailingSlash(inputs.adminUrl).replace(/\/portaladmin$/i, "/sharing/rest"),
    username: inputs.username,
    password: inputs.password,
    tls: inputs.tls,
  });
}

/** What it is registered with, for messages: "server at <adminUrl>" or "portal at <adminUrl>". */
function registrarName(inputs: WebAdaptorInputs): string {
  return `${inputs.mode === "server" ? "server" : "portal"} at ${inputs.adminUrl}`;
}

/** The list, or an error that says what could not be done and that nothing was changed. */
async function listed(inputs: WebAdaptorInputs, doing: string): Promise<RegisteredWebAdaptor[]> {
  return explained(
    () => listWebAdaptors(registrarOf(inputs)),
    (error) =>
      `Cannot ${doing}: the Web Adaptors of the ${registrarName(inputs)} cannot be read ` +
      `(${failureMessage("webadaptors", inputs.adminUrl, error)}). Nothing was changed.`,
  );
}

/** This Web Adaptor in the list: by its recorded id, else by its URL under any spelling. */
function findIn(
  list: readonly RegisteredWebAdaptor[],
  inputs: WebAdaptorInputs,
  id?: string,
): RegisteredWebAdaptor | undefined {
  return (
    (id === undefined ? undefined : list.find((w) => w.id === id)) ??
    list.find((w) => sameUrl(w.webAdaptorURL, inputs.webAdaptorUrl))
  );
}

/** The outputs of a listed Web Adaptor. */
function outputsOf(
  inputs: WebAdaptorInputs,
  state: WebAdaptorOutputs["state"],
  entry: RegisteredWebAdaptor,
): WebAdaptorOutputs {
  return {
    ...inputs,
    state,
    webAdaptorId: entry.id,
    registeredUrl: entry.webAdaptorURL,
    machineName: entry.machineName ?? "",
    isAdminEnabled: entry.isAdminEnabled,
    registeredAt: new Date().toISOString(),
  };
}

/** diff: the frame's (another URL spelling is no change; another URL or mode replaces). */
function diff(_id: string, olds: WebAdaptorOutputs, news: unknown): pulumi.dynamic.DiffResult {
  return WEB_ADAPTOR.diff(olds, withoutProvider(news));
}

/**
 * create: reads the list (a Web Adaptor listed already is adopted with `adoptExisting`, else
 * refused naming it), then configures it once and finds it in the list.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = WEB_ADAPTOR.parse(raw);
  const before = findIn(await listed(inputs, `register ${inputs.webAdaptorUrl}`), inputs);
  if (before !== undefined) {
    if (!inputs.adoptExisting) {
      throw new Error(
        `The ${registrarName(inputs)} lists the Web Adaptor ${inputs.webAdaptorUrl} already (id ` +
          `${before.id}, registered as ${before.webAdaptorURL}). It was not configured again. ` +
          "Set adoptExisting: true to take it on as it is (destroy then leaves it registered " +
          "unless unregisterAdoptedOnDestroy is set), or unregister it first.",
      );
    }
    logInfo(`The Web Adaptor ${inputs.webAdaptorUrl} is registered already; adopted.`);
    return { id: before.id, outs: outputsOf(inputs, "adopted", before) };
  }
  const entry = await configureOnce(inputs, "register");
  return { id: entry.id, outs: outputsOf(inputs, "registered", entry) };
}

/**
 * Configures the Web Adaptor once, then finds it in the list (`matches` says when the list shows
 * the configuration done). A lost answer is settled by reading the list until
 * `timeouts.configureMs`, never by configuring again.
 */
async function configureOnce(
  inputs: WebAdaptorInputs,
  doing: string,
  matches: (entry: RegisteredWebAdaptor) => boolean = () => true,
): Promise<RegisteredWebAdaptor> {
  const deadline = Date.now() + inputs.timeouts.configureMs;
  let lost: string | undefined;
  try {
    await configureWebAdaptor(
      inputs.webAdaptorUrl,
      {
        mode: inputs.mode,
        serverUrl: new URL(inputs.adminUrl).origin,
        username: inputs.username,
        password: inputs.password,
        adminAccess: inputs.adminAccess,
      },
      transportFor(inputs.webAdaptorUrl, inputs.tls, {
        timeouts: { connectMs: 10_000, headersMs: inputs.timeouts.configureMs, bodyMs: 60_000 },
      }),
    );
  } catch (error) {
    if (!answerMayBeLost(error)) {
      throw new Error(
        `${failureMessage("configure web adaptor", inputs.webAdaptorUrl, error)} The Web ` +
          `Adaptor was not registered with the ${registrarName(inputs)}.`,
        { cause: error },
      );
    }
    lost = messageOf(error);
    logWarn(
      `The answer to the configuration of ${inputs.webAdaptorUrl} was lost (${lost}); reading ` +
        `the Web Adaptors of the ${registrarName(inputs)} until timeouts.configureMs to learn ` +
        "whether it was registered. It is not configured again.",
    );
  }
  for (;;) {
    const list = await listWebAdaptors(registrarOf(inputs)).catch(() => undefined);
    const found = list === undefined ? undefined : findIn(list, inputs);
    if (found !== undefined && matches(found)) return found;
    if (lost === undefined && list !== undefined) {
      throw new Error(
        `The configuration of ${inputs.webAdaptorUrl} answered success, but the ${registrarName(inputs)} ` +
          "does not list it as configured. Check the Web Adaptor's configuration page, then run " +
          "`pulumi up` again.",
      );
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, LIST_POLL_MS));
  }
  throw new Error(
    `Cannot ${doing} ${inputs.webAdaptorUrl}: ` +
      (lost === undefined
        ? `the Web Adaptors of the ${registrarName(inputs)} could not be read`
        : `the answer to its configuration was lost (${lost}), and the ${registrarName(inputs)} ` +
          "has not listed it as configured") +
      ` within timeouts.configureMs (${inputs.timeouts.configureMs} ms). It was not configured ` +
      "again. Check the server's or portal's Web Adaptors; run `pulumi up` again (with " +
      "adoptExisting: true if it is listed).",
  );
}

/** Refresh: a Web Adaptor the list no longer names (unregistered out of band) is gone. */
async function read(id: string, props: WebAdaptorOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = WEB_ADAPTOR.parse(props);
  const entry = findIn(await listed(inputs, `refresh ${inputs.webAdaptorUrl}`), inputs, id);
  if (entry === undefined) {
    logInfo(
      `The ${registrarName(inputs)} no longer lists the Web Adaptor ${inputs.webAdaptorUrl}.`,
    );
    return {};
  }
  return {
    id: entry.id,
    props: {
      ...props,
      webAdaptorId: entry.id,
      registeredUrl: entry.webAdaptorURL,
      isAdminEnabled: entry.isAdminEnabled,
    },
  };
}

/**
 * update: another `adminAccess` configures the Web Adaptor again (the list then shows it; a lost
 * answer is settled by reading it); every other change only updates state.
 */
async function update(_id: string, olds: WebAdaptorOutputs, raw: unknown) {
  const news = WEB_ADAPTOR.parse(raw);
  const outs = withStateOnlyChanges(olds, news, [...WEB_ADAPTOR.stateOnly]);
  if (olds.adminAccess === news.adminAccess) return { outs };
  const admin = news.mode === "server" && news.adminAccess;
  const entry = await configureOnce(news, "reconfigure", (found) => found.isAdminEnabled === admin);
  return {
    outs: {
      ...outs,
      adminAccess: news.adminAccess,
      webAdaptorId: entry.id,
      registeredUrl: entry.webAdaptorURL,
      isAdminEnabled: entry.isAdminEnabled,
    },
  };
}

/**
 * Destroy: unregisters a Web Adaptor this stack registered (by its id, else its URL, as listed);
 * one it adopted is left registered unless `unregisterAdoptedOnDestroy`. One no longer listed is
 * done; a lost answer is settled by reading the list.
 */
async function remove(id: string, props: WebAdaptorOutputs): Promise<void> {
  const inputs = WEB_ADAPTOR.parse(props);
  if (props.state === "adopted" && !inputs.unregisterAdoptedOnDestroy) {
    logInfo(
      `Left the Web Adaptor ${inputs.webAdaptorUrl} registered with the ${registrarName(inputs)}: it ` +
        "was registered before this stack adopted it, so destroy does not unregister it (set " +
        "unregisterAdoptedOnDestroy: true to unregister it on destroy). It is no longer managed " +
        "by this stack.",
    );
    return;
  }
  const doing = `unregister ${inputs.webAdaptorUrl}`;
  const entry = findIn(await listed(inputs, doing), inputs, id);
  if (entry === undefined) {
    logInfo(
      `The ${registrarName(inputs)} does not list ${inputs.webAdaptorUrl}; nothing to unregister.`,
    );
    return;
  }
  try {
    await unregisterWebAdaptor(registrarOf(inputs), entry.id);
  } catch (error) {
    const gone = answerMayBeLost(error)
      ? findIn(await listed(inputs, doing), inputs, entry.id) === undefined
      : false;
    if (!gone) {
      throw new Error(failureMessage("unregister web adaptor", inputs.adminUrl, error), {
        cause: error,
      });
    }
  }
  logInfo(`Unregistered the Web Adaptor ${entry.webAdaptorURL} from the ${registrarName(inputs)}.`);
}

/**
 * The WebAdaptor implementation the host runs. Loaded by package name at run time through
 * `webAdaptorProvider` (generated.ts); tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(WEB_ADAPTOR.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
});
