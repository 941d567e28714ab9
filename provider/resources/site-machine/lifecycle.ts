/**
 * `SiteMachine`: a server machine that joins an existing site with `joinSite`, and leaves it with
 * `machines/<name>/unregister` on destroy, as a Pulumi dynamic resource. Reads top-down as its
 * lifecycle: check (the input rules), diff, create (wait for the machine, adopt or refuse a
 * machine already in a site, watch a join under way, joinSite once, follow pollAfter), read,
 * update, delete; then the implementation the host loads from this module's path, and the
 * provider that loads it. Its inputs, class and frame derive from `definition.ts` (`generated.ts`).
 *
 * Over 300 lines: create has five outcomes (joined, adopted, refused, answer lost, a join under
 * way watched), and each is decided and explained where it happens; apart, the order of the
 * steps would no longer show.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  type AdminSession,
  answerMayBeLost,
  hasServerCode,
  isArcGISRequestError,
  isAuthError,
  joinSite,
  listMachines,
  listsMachine,
  retryWhile,
  serverProduct,
  unregisterMachine,
  waitForJoin,
} from "../../client";
import { adminSessionFor, adminTransport, waitUntilAnswering } from "../common/connection/admin";
import { containsUnknown } from "../common/inputs/check";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { implementationOf } from "../common/pulumi/implementation";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { ProgressReporter } from "../common/messages/progress";
import { inputChanged, sameValue, withStateOnlyChanges } from "../common/pulumi/state-diff";
import { SITE_MACHINE_DEFINITION, SITE_MACHINE } from "./definition";
import { endSentence } from "../../sentence";
import type { SiteMachineInputs, SiteMachineOutputs } from "./generated";

/** Time between two looks at the machine while it joins. */
const POLL_INTERVAL_MS = 700;

/** The name the site lists the machine by: `machineName`, else the host of `adminUrl`. */
function nameOf(inputs: SiteMachineInputs): string {
  return inputs.machineName ?? new URL(inputs.adminUrl).hostname;
}

/** A session on the site's machine: the machine list and unregister are asked there. */
function siteSession(inputs: SiteMachineInputs): AdminSession {
  return adminSessionFor({ ...inputs, adminUrl: inputs.siteAdminUrl });
}

/**
 * The site's machine names, or an error that says nothing was changed. With `beforeJoin`, a site
 * that refuses the credentials answers none: joinSite sends the same credentials, and the site's
 * refusal of them then names joinSite.
 */
async function siteMachines(
  inputs: SiteMachineInputs,
  doing: string,
  beforeJoin = false,
): Promise<string[]> {
  const list = () =>
    listMachines(siteSession(inputs)).catch((error: unknown) => {
      if (beforeJoin && isAuthError(error)) return [];
      throw error;
    });
  return explained(
    list,
    (error) =>
      `Cannot ${doing}: the machine list of the site at ${inputs.siteAdminUrl} cannot be read ` +
      `(${failureMessage("machines", inputs.siteAdminUrl, error)}). Nothing was changed.`,
  );
}

/**
 * Whether a replacing input names something else than the old value: URLs compared by what they
 * reach (another spelling of the same URL is no change), the machine name by the name it resolves
 * to (written out as its default, or in another case, it is the same machine).
 */
function replacingChange(
  key: (typeof SITE_MACHINE.replacing)[number],
  olds: SiteMachineOutputs,
  news: Record<string, unknown>,
): boolean {
  if (key === "machineName") {
    const name = (values: { machineName?: unknown; adminUrl?: unknown }): unknown => {
      if (typeof values.machineName === "string") return values.machineName.toLowerCase();
      if (values.machineName !== undefined || typeof values.adminUrl !== "string")
        return values.machineName;
      try {
        return new URL(values.adminUrl).hostname.toLowerCase();
      } catch {
        return values.adminUrl;
      }
    };
    return !sameValue(name(olds), name(news));
  }
  return inputChanged(SITE_MACHINE_DEFINITION, key, olds, news);
}

/**
 * diff: another machine, site or name is a replacement, the old machine unregistered first;
 * credentials, `tls`, limits and the destroy choice only update state. Another spelling of the
 * same URL, or the default machine name written out, is no change.
 */
function diff(_id: string, olds: SiteMachineOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const replaces = SITE_MACHINE.replacing.filter((key) => replacingChange(key, olds, news));
  if (replaces.length > 0) {
    // A machine is in one site at a time: it leaves the old one before it joins the new one.
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: true };
  }
  // State written before unregisterAdoptedOnDestroy existed holds none: its default applies.
  const before: Record<string, unknown> = { ...olds };
  const after: Record<string, unknown> = { ...news };
  before.unregisterAdoptedOnDestroy ??= false;
  after.unregisterAdoptedOnDestroy ??= false;
  const changed = SITE_MACHINE.stateOnly.some((key) => !sameValue(before[key], after[key]));
  return { changes: changed || containsUnknown(news) };
}

/**
 * create: waits for the machine to answer, adopts it when the site lists it already (refuses it
 * when
 * it is in another site), watches a join under way (the site lists the machine, which is in no
 * site yet), else sends joinSite once and follows the machine into the site.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = SITE_MACHINE.parse(raw);
  const name = nameOf(inputs);
  const status = await waitUntilAnswering(inputs, 1_000);
  if (status.state === "in-site") return adoptOrRefuse(inputs, name);
  const deadline = Date.now() + inputs.timeouts.joinMs;
  const listed = await siteMachines(inputs, `join ${inputs.adminUrl} to the site`, true);
  if (listsMachine(listed, name)) return joinUnderWay(inputs, name, deadline);

  let pollAfterSeconds: number | undefined;
  let lost: string | undefined;
  try {
    // One request held until the server answers, bounded by joinMs (DSC waits 360 s per try).
    const transport = adminTransport(inputs, {
      timeouts: { connectMs: 10_000, headersMs: inputs.timeouts.joinMs, bodyMs: 120_000 },
    });
    const answer = await joinSite(
      inputs.adminUrl,
      {
        serverType: inputs.serverType,
        siteAdminUrl: inputs.siteAdminUrl,
        username: inputs.username,
        password: inputs.password,
      },
      transport,
    );
    pollAfterSeconds = answer.pollAfterSeconds;
  } catch (error) {
    // A machine in a site answers 499: another client joined it since our look.
    if (hasServerCode(error, 499) || hasServerCode(error, 498)) return adoptOrRefuse(inputs, name);
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("joinSite", inputs.adminUrl, error), { cause: error });
    }
    // Never send joinSite twice: the first may still run. Watch the machine instead.
    lost = messageOf(error);
    logWarn(
      `The answer to joinSite on ${inputs.adminUrl} was lost (${lost}); watching the machine ` +
        "until timeouts.joinMs to learn whether it joins the site. joinSite is not sent again.",
    );
  }
  const unseen =
    lost === undefined
      ? `The machine '${name}' did not appear in the site`
      : `The answer to joinSite was lost (${lost}), and the machine '${name}' did not appear in the site`;
  const machines = await joined(inputs, name, deadline, pollAfterSeconds, unseen);
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "joined", name, machines) };
}

/**
 * The site lists the machine while the machine answers that it is in no site: a join is under
 * way (a killed run's, or another client's). It is watched until it ends, never sent again, and
 * the machine is then recorded as adopted: this create cannot show that it sent that join.
 */
async function joinUnderWay(
  inputs: SiteMachineInputs,
  name: string,
  deadline: number,
): Promise<pulumi.dynamic.CreateResult> {
  logWarn(
    `The site at ${inputs.siteAdminUrl} lists the machine '${name}' while ${inputs.adminUrl} ` +
      "answers that it is in no site: a join is under way (an interrupted run's, or another " +
      "client's). joinSite is not sent again; watching the machine until timeouts.joinMs.",
  );
  const machines = await joined(
    inputs,
    name,
    deadline,
    undefined,
    `The machine '${name}', which the site lists as joining, did not finish joining the site`,
  );
  logInfo(`The machine '${name}' joined the site at ${inputs.siteAdminUrl}; adopted.`);
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "adopted", name, machines) };
}

/**
 * A machine that is in a site already: adopted when the site lists it (it is in this site),
 * refused otherwise (it is in another site, or the site names it differently).
 */
async function adoptOrRefuse(
  inputs: SiteMachineInputs,
  name: string,
): Promise<pulumi.dynamic.CreateResult> {
  const machines = await siteMachines(inputs, `join ${inputs.adminUrl} to the site`);
  if (!listsMachine(machines, name)) {
    throw new Error(
      `The machine at ${inputs.adminUrl} already participates in a site, but the site at ` +
        `${inputs.siteAdminUrl} lists no machine named '${name}' (it lists ` +
        `${machines.join(", ") || "none"}): the machine is in another site. joinSite was not ` +
        "sent. Unregister it from that site first (or delete that site), then run `pulumi up` " +
        "again. If the site lists this machine under another name, set machineName to it.",
    );
  }
  logInfo(`The machine '${name}' is in the site at ${inputs.siteAdminUrl} already; adopted.`);
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "adopted", name, machines) };
}

/**
 * `pulumi import` (import.ts): the machine as the site lists it, recorded as adopted (destroy
 * leaves it in the site unless unregisterAdoptedOnDestroy). Only the site's list is read.
 *
 * @internal
 */
export async function adoptListed(
  inputs: SiteMachineInputs,
): Promise<{ id: string; outs: SiteMachineOutputs }> {
  const name = nameOf(inputs);
  const machines = await siteMachines(inputs, `import the machine '${name}'`);
  if (!listsMachine(machines, name)) {
    throw new Error(
      `Cannot import the machine at ${inputs.adminUrl}: the site at ${inputs.siteAdminUrl} lists ` +
        `no machine named '${name}' (it lists ${machines.join(", ") || "none"}). If the site ` +
        "names it otherwise, add ,machineName=<name> to the import id.",
    );
  }
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "adopted", name, machines) };
}

/**
 * Follows pollAfter, then waits until the machine is in the site and the site lists it, bounded
 * by joinMs; `unseen` opens the message when the time is up.
 */
async function joined(
  inputs: SiteMachineInputs,
  name: string,
  deadline: number,
  pollAfterSeconds: number | undefined,
  unseen: string,
): Promise<string[]> {
  const progress = new ProgressReporter(
    `machine '${name}' to join the site at ${inputs.siteAdminUrl}`,
    inputs.timeouts.joinMs,
  );
  try {
    return await waitForJoin(
      {
        adminUrl: inputs.adminUrl,
        siteAdminUrl: inputs.siteAdminUrl,
        machineName: name,
        username: inputs.username,
        password: inputs.password,
        pollAfterSeconds,
        ...adminTransport(inputs),
      },
      { deadline, pollIntervalMs: POLL_INTERVAL_MS, onStatus: (s) => progress.tick(s.detail) },
    );
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    throw new Error(
      `${unseen} at ${inputs.siteAdminUrl} within timeouts.joinMs (${inputs.timeouts.joinMs} ms); ` +
        `${endSentence(error.messages.join(" ") || error.message)} The machine may still be joining: do not ` +
        `run \`pulumi up\` again before checking that ${inputs.adminUrl}/?f=json answers code ` +
        `499 (in a site) or still "not participating in any Site". If the site lists the ` +
        "machine under another name, set machineName to it.",
      { cause: error },
    );
  }
}

/** The outputs of a machine in the site. */
function outputsOf(
  inputs: SiteMachineInputs,
  state: SiteMachineOutputs["state"],
  name: string,
  machines: string[],
): SiteMachineOutputs {
  const registeredName = machines.find((m) => m.toLowerCase() === name.toLowerCase()) ?? name;
  return { ...inputs, state, registeredName, machines, joinedAt: new Date().toISOString() };
}

/** Refresh: a machine the site no longer lists (unregistered out of band) is gone. */
async function read(id: string, props: SiteMachineOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = SITE_MACHINE.parse(props);
  const name = props.registeredName ?? nameOf(inputs);
  const machines = await siteMachines(inputs, `refresh the machine '${name}'`);
  if (!listsMachine(machines, name)) {
    logInfo(`The site at ${inputs.siteAdminUrl} no longer lists the machine '${name}'.`);
    return {};
  }
  return { id, props: { ...props, machines } };
}

/** update: state only, new credentials proven first. */
async function update(_id: string, olds: SiteMachineOutputs, rawNews: unknown) {
  const news = SITE_MACHINE.parse(rawNews);
  if (!sameValue(olds.username, news.username) || !sameValue(olds.password, news.password)) {
    await proveCredentials(news);
  }
  return { outs: withStateOnlyChanges(olds, news, [...SITE_MACHINE.stateOnly]) };
}

/**
 * Before new credentials replace the old ones in state (destroy will use them to unregister),
 * proves that the site gives them an administrator token. Nothing is changed on the server.
 */
async function proveCredentials(inputs: SiteMachineInputs): Promise<void> {
  await explained(
    () => siteSession(inputs).token(),
    (error) =>
      `The new credentials of ${inputs.username} were not recorded: the site at ` +
      `${inputs.siteAdminUrl} does not give them a token (${messageOf(error)}). State still ` +
      "holds the previous credentials; change the password on the server first.",
  );
}

/**
 * Destroy: unregisters the machine on the site's machine (which answers even when the leaving
 * machine is down), retried while an export holds the site (409), until joinMs.
 */
async function remove(_id: string, props: SiteMachineOutputs): Promise<void> {
  const inputs = SITE_MACHINE.parse(props);
  const name = props.registeredName ?? nameOf(inputs);
  if (props.state === "adopted" && !inputs.unregisterAdoptedOnDestroy) {
    // The stack took this machine on as it found it, in the site: it leaves it so.
    logInfo(
      `Left the machine '${name}' in the site at ${inputs.siteAdminUrl}: it was in the site ` +
        "before this stack adopted it, so destroy does not unregister it (set " +
        "unregisterAdoptedOnDestroy: true to unregister it on destroy). It is no longer managed " +
        "by this stack.",
    );
    return;
  }
  const machines = await siteMachines(inputs, `unregister the machine '${name}'`);
  const listed = machines.find((m) => m.toLowerCase() === name.toLowerCase());
  if (listed === undefined) {
    logInfo(`The site at ${inputs.siteAdminUrl} does not list '${name}'; nothing to unregister.`);
    return;
  }
  const session = siteSession(inputs);
  const progress = new ProgressReporter(`unregister of '${listed}'`, inputs.timeouts.joinMs);
  await explained(
    () =>
      retryWhile(
        (error) => hasServerCode(error, 409),
        {
          deadline: Date.now() + inputs.timeouts.joinMs,
          baseDelay: 1_000,
          maxDelay: 15_000,
          onRetry: () => progress.tick("an export holds the site configuration"),
        },
        () => unregisterMachine(session, listed),
      ),
    (error) => failureMessage("unregister machine", inputs.siteAdminUrl, error),
  );
  logInfo(
    `Unregistered the machine '${listed}' from the site at ${inputs.siteAdminUrl}. On the ` +
      `machine itself (${inputs.adminUrl}), ${serverProduct(inputs.serverType).label} still ` +
      "runs, in no site now: stop or uninstall it there, or use it for a new site or to join " +
      "one. Web adaptors registered for this machine are not unregistered by this resource.",
  );
}

/**
 * The SiteMachine implementation the host runs. Loaded by package name at run time through
 * `siteMachineProvider` (generated.ts); tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(SITE_MACHINE.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
});
