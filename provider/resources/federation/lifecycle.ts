/**
 * `Federation`: an ArcGIS server (Mission, Notebook, Video or ArcGIS Server) federated with a
 * portal, as Chef's `arcgis_enterprise_portal` actions `:federate_server` and
 * `:enable_server_function` do it: look for the server in the portal's list, federate it once,
 * then set its role and function. Reads top-down as its lifecycle: diff, create, read (refresh),
 * update, delete; then the implementation the host loads from this module's path. Its inputs, class
 * and frame derive from `definition.ts` (`generated.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  answerMayBeLost,
  type FederatedServer,
  federatedServers,
  federateServer,
  type PortalSession,
  unfederateServer,
  updateFederatedServer,
} from "../../client";
import { implementationOf } from "../common/pulumi/implementation";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { failureMessage, messageOf } from "../common/messages/failures";
import { partialCreate } from "../common/pulumi/partial-create";
import { logInfo, logWarn } from "../common/messages/log";
import { inputChanged, sameValue, withStateOnlyChanges } from "../common/pulumi/state-diff";
import { FEDERATION_DEFINITION, FEDERATION } from "./definition";
import { sameUrl } from "../common/connection/urls";
import { portalSessionFor } from "../common/connection/portal";
import { trustServerCertificate } from "./certificate";
import type { FederationInputs, FederationOutputs } from "./generated";
import { serverFunctionOf, serverUrlOf, siteRootOf } from "./server";

/** How often the portal's list is read while a lost federate answer is resolved. */
const LIST_POLL_MS = 1_000;

/** This server in the portal's list: by its services URL or its site root, in any spelling. */
function findServer(
  servers: FederatedServer[],
  inputs: FederationInputs,
): FederatedServer | undefined {
  const url = serverUrlOf(inputs);
  const root = siteRootOf(inputs.adminUrl);
  return servers.find(
    (s) => sameUrl(s.url, url) || (s.adminUrl !== undefined && sameUrl(s.adminUrl, root)),
  );
}

function describeTarget(inputs: FederationInputs): string {
  return `the server ${siteRootOf(inputs.adminUrl)} on the portal ${inputs.sharingUrl}`;
}

/**
 * diff: another portal or another server (any URL that is not another spelling) is a
 * replacement, deleted first (a server is federated with a portal once); the role or function
 * is an update in place; credentials and the other switches only update state.
 */
function diff(_id: string, olds: FederationOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews) as Partial<FederationInputs>;
  const replaces = FEDERATION.replacing.filter((key) => {
    if (key === "serverUrl") {
      // Derived from adminUrl when neither side gives it: adminUrl's own change says it.
      if (olds.serverUrl === undefined && news.serverUrl === undefined) return false;
      return !sameUrl(serverUrlOf(olds), serverUrlOf({ ...olds, ...news }));
    }
    return inputChanged(FEDERATION_DEFINITION, key, olds, news);
  });
  if (replaces.length > 0) {
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: true };
  }
  // The declared function, or the product's default when none is declared (not the recorded one).
  const merged = { ...olds, ...news, serverFunction: news.serverFunction } as FederationInputs;
  const inPlace =
    (news.serverRole ?? "FEDERATED_SERVER") !== olds.serverRole ||
    serverFunctionOf(merged) !== serverFunctionOf(olds);
  const stateOnly = FEDERATION.stateOnly.some((key) => !sameValue(olds[key], news[key]));
  // Another certificate to trust is imported in place (once per alias); the PEM's line breaks
  // are no change; a wait only updates state.
  const certificate =
    !sameValue(certificateOf(olds.serverCertificate), certificateOf(news.serverCertificate)) ||
    olds.serverCertificate?.restartWaitMs !== news.serverCertificate?.restartWaitMs;
  return {
    changes: inPlace || stateOnly || certificate || !sameValue(olds.serverType, news.serverType),
  };
}

/** The certificate to trust as compared: its alias and its PEM without whitespace. */
function certificateOf(c: Partial<FederationInputs>["serverCertificate"]) {
  return c === undefined ? undefined : { alias: c.alias, pem: c.pem.replace(/\s+/g, "") };
}

/**
 * create: reads the portal's list; a server there already is adopted only with `adoptExisting`.
 * Otherwise federates it once (a lost answer is resolved by reading the list until
 * `timeouts.federateMs`, never by federating again), then sets the declared role and function.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = FEDERATION.parse(raw);
  const session = portalSessionFor(inputs);
  const target = describeTarget(inputs);
  const existing = findServer(await federatedServers(session), inputs);
  let state: FederationOutputs["state"] = "federated";
  let server: FederatedServer;
  if (existing !== undefined) {
    if (!inputs.adoptExisting) {
      throw new Error(
        `The portal ${inputs.sharingUrl} has federated ${siteRootOf(inputs.adminUrl)} already ` +
          `(server id ${existing.id}). It is not recorded as federated by this stack. If a run ` +
          "that federated it was interrupted, or the federation is the one you want, set " +
          "adoptExisting: true and run `pulumi up` (destroy then leaves it federated unless " +
          "unfederateAdoptedOnDestroy is set).",
      );
    }
    logInfo(`Adopted ${target} (server id ${existing.id}); federate was not sent.`);
    state = "adopted";
    server = existing;
  } else {
    await trustServerCertificate(inputs, session);
    server = await federateOnce(inputs, session);
  }
  const outs = await applyRoleAndFunction(inputs, session, server, state, raw);
  return { id: outs.serverId, outs };
}

/** Sends federate once; after a lost answer, finds the outcome in the list. */
async function federateOnce(
  inputs: FederationInputs,
  session: PortalSession,
): Promise<FederatedServer> {
  const target = describeTarget(inputs);
  const deadline = Date.now() + inputs.timeouts.federateMs;
  let lost: string;
  try {
    const { serverId } = await federateServer(session, {
      url: serverUrlOf(inputs),
      adminUrl: siteRootOf(inputs.adminUrl),
      username: inputs.serverUsername,
      password: inputs.serverPassword,
    });
    const listed = (await federatedServers(session)).find((s) => s.id === serverId);
    if (listed === undefined) {
      throw new Error(
        `federate answered server id ${serverId} for ${target}, but the portal does not list it.`,
      );
    }
    return listed;
  } catch (error) {
    if (!answerMayBeLost(error)) throw federateRefused(inputs, error);
    lost = messageOf(error);
  }
  logWarn(
    `The answer to federate for ${target} was lost (${lost}); reading the portal's list until ` +
      "timeouts.federateMs to learn whether it was federated. federate is not sent again.",
  );
  for (;;) {
    const found = await federatedServers(session).then(
      (servers) => findServer(servers, inputs),
      () => undefined,
    );
    if (found !== undefined) {
      logInfo(`The lost federate had federated ${target} (server id ${found.id}).`);
      return found;
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, LIST_POLL_MS));
  }
  throw new Error(
    `The answer to federate for ${target} was lost (${lost}), and the portal has not listed the ` +
      `server within timeouts.federateMs (${inputs.timeouts.federateMs} ms). federate was not ` +
      "sent again. Check the portal's servers (Organization > Settings > Servers); run " +
      "`pulumi up` again once it lists the server (then with adoptExisting: true) or not.",
  );
}

/**
 * The failure of a refused federate. A server is federated with one portal at a time (its security
 * configuration names one portal): a refusal that says another portal has it gets its own words,
 * since nothing this stack declares can fix it.
 */
function federateRefused(inputs: FederationInputs, error: unknown): Error {
  const said = messageOf(error);
  if (
    /federated with another portal|already (federated|registered)/i.test(said) &&
    !/this portal/i.test(said)
  ) {
    return new Error(
      `The portal ${inputs.sharingUrl} refused to federate ${siteRootOf(inputs.adminUrl)}: the ` +
        `server is federated with another portal already (the portal said: ${said}). A server is ` +
        "federated with one portal at a time: unfederate it from the other portal first, or " +
        "declare this Federation against that portal. Nothing was federated.",
      { cause: error },
    );
  }
  return new Error(
    `${failureMessage("federate", inputs.sharingUrl, error)} Nothing was federated.`,
    { cause: error },
  );
}

/** Sets the declared role and function where the portal reports others; the outputs. */
async function applyRoleAndFunction(
  inputs: FederationInputs,
  session: PortalSession,
  server: FederatedServer,
  state: FederationOutputs["state"],
  raw: unknown,
): Promise<FederationOutputs> {
  const outs: FederationOutputs = {
    ...inputs,
    serverId: server.id,
    state,
    serverName: server.name ?? "",
    portalServerType: server.serverType ?? "",
  };
  const wantedFunction = serverFunctionOf(inputs);
  if (server.serverRole !== inputs.serverRole || (server.serverFunction ?? "") !== wantedFunction) {
    try {
      await updateFederatedServer(session, server.id, inputs.serverRole, wantedFunction);
    } catch (error) {
      // The server is federated: the stack keeps it (Pulumi's partial state), with the role and
      // function the portal has, so that the next `pulumi up`'s update sets the declared ones and
      // destroy unfederates what this stack federated.
      throw partialCreate(
        `${failureMessage("update (federated server)", inputs.sharingUrl, error)} The server ` +
          `is federated (server id ${server.id}) and recorded in the stack; run \`pulumi up\` ` +
          "again to set its role and function.",
        server.id,
        {
          ...outs,
          serverRole:
            (server.serverRole as FederationOutputs["serverRole"] | undefined) ??
            "FEDERATED_SERVER",
          serverFunction: server.serverFunction ?? "",
        },
        raw,
        error,
      );
    }
  }
  return outs;
}

/**
 * read (refresh): the server in the portal's list by its id; gone when the portal no longer
 * lists it (unfederated out of band: the next `pulumi up` federates it again); a role or function
 * changed on the portal is recorded, so the next preview shows it changing back.
 */
async function read(id: string, props: FederationOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = FEDERATION.parse(props);
  let servers: FederatedServer[];
  try {
    servers = await federatedServers(portalSessionFor(inputs));
  } catch (error) {
    throw new Error(
      `Cannot refresh ${describeTarget(inputs)}: ${messageOf(error)}. State is kept.`,
      { cause: error },
    );
  }
  const server = servers.find((s) => s.id === id);
  if (server === undefined) {
    logInfo(`The portal no longer lists ${describeTarget(inputs)}; it was unfederated.`);
    return {};
  }
  const now: FederationOutputs = { ...props };
  const role = server.serverRole as FederationOutputs["serverRole"] | undefined;
  if (role !== undefined && role !== props.serverRole) {
    logWarn(
      `The role of ${describeTarget(inputs)} is ${role} on the portal, not ${props.serverRole}.`,
    );
    now.serverRole = role;
  }
  const reportedFunction = server.serverFunction ?? "";
  if (reportedFunction !== serverFunctionOf(props)) {
    logWarn(
      `The function of ${describeTarget(inputs)} is "${reportedFunction}" on the portal, not ` +
        `"${serverFunctionOf(props)}".`,
    );
    now.serverFunction = reportedFunction;
  }
  const { serverId: _i, state: _s, serverName: _n, portalServerType: _t, ...recorded } = now;
  return { id, props: now, inputs: recorded };
}

/** update: the role and function in place (update is idempotent); the rest is state only. */
async function update(
  _id: string,
  olds: FederationOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  const news = FEDERATION.parse(rawNews);
  const outs = {
    ...withStateOnlyChanges(olds, news, [...FEDERATION.stateOnly]),
    serverType: news.serverType,
    serverRole: news.serverRole,
    serverFunction: news.serverFunction,
    serverCertificate: news.serverCertificate,
  } as FederationOutputs;
  if (!sameValue(certificateOf(olds.serverCertificate), certificateOf(news.serverCertificate))) {
    // A renewed or new CA for a federated server: imported unless the portal has it.
    await trustServerCertificate(news, portalSessionFor(news));
  }
  if (outs.serverCertificate === undefined) delete outs.serverCertificate;
  if (news.serverRole !== olds.serverRole || serverFunctionOf(news) !== serverFunctionOf(olds)) {
    try {
      await updateFederatedServer(
        portalSessionFor(news),
        olds.serverId,
        news.serverRole,
        serverFunctionOf(news),
      );
    } catch (error) {
      throw new Error(
        `${failureMessage("update (federated server)", news.sharingUrl, error)} State keeps ` +
          "the previous role and function.",
        { cause: error },
      );
    }
  }
  if (outs.serverFunction === undefined) delete outs.serverFunction;
  return { outs };
}

/**
 * delete: unfederates a server this stack federated (with `forceUnfederate`); one it adopted is
 * left federated unless `unfederateAdoptedOnDestroy`. No longer listed is done.
 */
async function remove(id: string, props: FederationOutputs): Promise<void> {
  const inputs = FEDERATION.parse(props);
  const target = describeTarget(inputs);
  if (props.state === "adopted" && !inputs.unfederateAdoptedOnDestroy) {
    logInfo(
      `Left ${target} federated: it was federated before this stack adopted it (set ` +
        "unfederateAdoptedOnDestroy: true to unfederate it on destroy).",
    );
    return;
  }
  const session = portalSessionFor(inputs);
  try {
    // Already unfederated (out of band, or by an earlier destroy whose answer was lost): done.
    if (!(await federatedServers(session)).some((s) => s.id === id)) {
      logInfo(`The portal no longer lists ${target}; nothing to unfederate.`);
      return;
    }
    await unfederateServer(session, id, inputs.forceUnfederate);
    logInfo(`Unfederated ${target}.`);
  } catch (error) {
    throw new Error(
      `Unfederating ${target} failed: ${messageOf(error)}. It stays in the stack; run ` +
        "`pulumi destroy` again.",
      { cause: error },
    );
  }
}

/**
 * The Federation implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(FEDERATION.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
});
