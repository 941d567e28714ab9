/**
 * The outputs of a `Site`: what the server reports (machines, version, log settings, directories,
 * configuration store), how it differs from the program, and whether a site that appeared after
 * a lost answer is the one this stack asked for.
 *
 * A little over 300 lines: the outputs, their drift and the site-identity check all read the
 * same server answers, one after the other on one kept-alive connection.
 */
import {
  type AdminSession,
  editLogSettings,
  getConfigStore,
  getLogSettings,
  isArcGISRequestError,
  listDirectories,
  listMachines,
  serverInfo,
  type ServerInfo,
} from "../../client";
import { messageOf } from "../common/messages/failures";
import { logWarn } from "../common/messages/log";
import type { SiteOutputs } from "./generated";

export type { SiteOutputs } from "./generated";
import type { SiteServer } from "./server";
import { endSentence } from "../../sentence";
import type { SiteInputs, SiteLogSettings } from "./generated";

export type { SiteReportedConfigStore, SiteReportedDirectory } from "./values";

function versionText(info: ServerInfo | undefined): string | undefined {
  if (info === undefined) return undefined;
  return info.fullVersion ?? String(info.currentVersion);
}

/**
 * The outputs right after createNewSite's own success answer, with no request: the inputs, and
 * the version read before createNewSite. The server gives that answer once the site exists with
 * the account, config store, directories and log settings it was sent. Esri's Ansible
 * `create_site` sends nothing after it (Esri/arcgis-gitops create_site.py at 1254036: the
 * conformance flow ansible-arcgis-server-create-site-flow), and Chef's `create_site`
 * (Esri/arcgis-cookbook cookbooks/arcgis-mission/libraries/server_admin_client.rb at a9047ed)
 * reads no machines or log settings after it. So they are left unset, as are the directories and
 * config store, not copied from the inputs, until the next `pulumi refresh` reads them.
 * The create returns as the answer arrives: no token, no reads.
 */
export function answeredOutputs(server: SiteServer): SiteOutputs {
  const outs: SiteOutputs = { ...server.inputs, state: "created", createdAt: now() };
  const version = versionText(server.info);
  if (version !== undefined) outs.serverVersion = version;
  return outs;
}

/**
 * The outputs read from the server (after a watched creation, and at adoption): the inputs, the
 * machines, the version, the log settings, the directories and the config store, with one token
 * and the reads one after the other. Declared log settings the server reports differently are
 * written with logs/settings/edit (as DSC does after creating a site); only a created site is
 * changed.
 */
export async function outputsOf(
  server: SiteServer,
  state: SiteOutputs["state"],
): Promise<SiteOutputs> {
  const { inputs, session, info } = server;
  // One token, then the reads one after the other on one kept-alive connection (side by side,
  // each would open a connection of its own: a TLS handshake on both sides per read).
  await session.token();
  const machines = await listMachines(session);
  const storage = await storageReport(inputs, session);
  // Once a site exists, Video Server's rest/info wants a token (its documentation).
  const version =
    info !== undefined
      ? versionText(info)
      : await session
          .token()
          .then((token) => serverInfo(inputs.adminUrl, { ...server.transport, token }))
          .then(versionText, () => undefined);
  const serverLogSettings = await logSettingsOf(server, state);
  const outs: SiteOutputs = { ...inputs, state, createdAt: now(), machines };
  Object.assign(outs, storage);
  if (version !== undefined) outs.serverVersion = version;
  if (serverLogSettings !== undefined) outs.serverLogSettings = serverLogSettings;
  return outs;
}

function now(): string {
  return new Date().toISOString();
}

/**
 * The site's log settings as reported; at creation, the declared ones written first where the
 * server reports others. Undefined (with a warning) when they cannot be read.
 */
async function logSettingsOf(
  server: SiteServer,
  state: SiteOutputs["state"],
): Promise<SiteOutputs["serverLogSettings"]> {
  const { inputs, session } = server;
  try {
    let reported = await getLogSettings(session);
    const wanted = inputs.logSettings;
    if (state === "created" && wanted !== undefined && logSettingsDiffer(reported, wanted)) {
      await editLogSettings(session, wanted);
      reported = await getLogSettings(session);
    }
    return reportedLogSettings(reported);
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(
      `Could not read or apply the log settings of the site at ${inputs.adminUrl}: ` +
        `${endSentence(error.message)} Check them in the server's administrator directory.`,
    );
    return undefined;
  }
}

function logSettingsDiffer(
  reported: Record<string, unknown>,
  wanted: NonNullable<SiteInputs["logSettings"]>,
): boolean {
  return (Object.keys(wanted) as Array<keyof typeof wanted>).some(
    (key) => wanted[key] !== undefined && reported[key] !== wanted[key],
  );
}

/**
 * The directories and configuration store as the server reports them, each best effort (a server
 * that does not answer one of them is logged and the output left out).
 */
async function storageReport(
  inputs: SiteInputs,
  session: AdminSession,
): Promise<Pick<SiteOutputs, "serverDirectories" | "serverConfigStore">> {
  const report: Pick<SiteOutputs, "serverDirectories" | "serverConfigStore"> = {};
  // One after the other, on the connection the reads before them used: side by side, the second
  // would open a connection of its own (a TLS handshake on both sides) to save one round trip.
  try {
    report.serverDirectories = (await listDirectories(session)).map((d) => ({
      name: d.name,
      path: d.path,
    }));
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not read the directories of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  try {
    const store = await getConfigStore(session);
    report.serverConfigStore = {
      ...(store.type === undefined ? {} : { type: store.type }),
      ...(store.connectionString === undefined ? {} : { connectionString: store.connectionString }),
    };
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(
      `Could not read the configuration store of the site at ${inputs.adminUrl}: ${error.message}`,
    );
  }
  return report;
}

/**
 * Each difference between the declared inputs and what the server reports, by name:
 * `logSettings.logLevel: DEBUG declared, WARNING on the server`. Only what the server reports is
 * compared; directory names in any letter case (the server does not tell them apart).
 *
 * @internal
 */
export function siteDrift(inputs: SiteInputs, reported: SiteOutputs): string[] {
  const lines: string[] = [];
  const show = (v: unknown) => JSON.stringify(v);
  if (inputs.logSettings !== undefined && reported.serverLogSettings !== undefined) {
    for (const [key, declared] of Object.entries(inputs.logSettings)) {
      const now = reported.serverLogSettings[key];
      if (declared !== undefined && now !== undefined && now !== declared) {
        lines.push(`logSettings.${key}: ${show(declared)} declared, ${show(now)} on the server`);
      }
    }
  }
  if (inputs.directories !== undefined && reported.serverDirectories !== undefined) {
    for (const dir of inputs.directories) {
      const now = reported.serverDirectories.find(
        (d) => d.name.toLowerCase() === dir.name.toLowerCase(),
      );
      if (now === undefined) lines.push(`directories[${show(dir.name)}]: not on the server`);
      else if (now.path !== dir.physicalPath) {
        lines.push(
          `directories[${show(dir.name)}].physicalPath: ${show(dir.physicalPath)} declared, ` +
            `${show(now.path)} on the server`,
        );
      }
    }
  }
  const store = inputs.configStoreConnection;
  const storeNow = reported.serverConfigStore;
  if (store !== undefined && storeNow !== undefined) {
    if (storeNow.type !== undefined && storeNow.type !== store.type) {
      lines.push(
        `configStoreConnection.type: ${show(store.type)} declared, ${show(storeNow.type)} on the server`,
      );
    }
    if (
      storeNow.connectionString !== undefined &&
      storeNow.connectionString !== store.connectionString
    ) {
      lines.push(
        `configStoreConnection.connectionString: ${show(store.connectionString)} declared, ` +
          `${show(storeNow.connectionString)} on the server`,
      );
    }
  }
  return lines;
}

/** The declared log settings with the values the server reports for the same fields. */
export function logSettingsAsReported(
  declared: SiteLogSettings,
  reported: Record<string, string | number | boolean>,
): SiteLogSettings {
  const out: Record<string, unknown> = { ...declared };
  for (const key of Object.keys(declared)) {
    if (reported[key] !== undefined) out[key] = reported[key];
  }
  return out as unknown as SiteLogSettings;
}

/** Plain scalar fields only: outputs must be plain JSON. */
export function reportedLogSettings(reported: Record<string, unknown>) {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(reported)) {
    if (["string", "number", "boolean"].includes(typeof value)) {
      out[key] = value as string | number | boolean;
    }
  }
  return out;
}

/**
 * What the server has now, for `read`: state follows it, so that `pulumi refresh` shows drift and
 * the next `pulumi up` corrects what it can (log settings) and refuses what it cannot (the rest).
 */
export async function currentOutputs(server: SiteServer, props: SiteOutputs): Promise<SiteOutputs> {
  const { inputs, session } = server;
  const now: SiteOutputs = { ...props };
  try {
    now.machines = await listMachines(session);
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not list the machines of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  const version = versionText(
    await serverInfo(inputs.adminUrl, {
      ...server.transport,
      token: await session.token().catch(() => undefined),
    }).catch(() => undefined),
  );
  if (version !== undefined) now.serverVersion = version;
  try {
    now.serverLogSettings = reportedLogSettings(await getLogSettings(session));
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not read the log settings of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  Object.assign(now, await storageReport(inputs, session));
  const drift = siteDrift(inputs, now);
  for (const line of drift) {
    logWarn(`The site at ${inputs.adminUrl} differs from state: ${line}.`);
  }
  if (inputs.logSettings !== undefined && now.serverLogSettings !== undefined) {
    now.logSettings = logSettingsAsReported(inputs.logSettings, now.serverLogSettings);
  }
  return now;
}

/**
 * After a lost answer, tells whether the site that appeared is the one this stack asked for:
 * the config store, directories and log settings the server reports must match what was sent
 * (at least one of them compared, none different). Returns true, or why not.
 */
export async function isOurSite(server: SiteServer): Promise<true | string> {
  const { inputs, session } = server;
  const compared: string[] = [];
  const differences: string[] = [];
  /**
   * Reads one part of the site and records how it differs from what was sent; `differ` answers
   * undefined when the server reports nothing to compare it with.
   */
  const compare = async <T>(
    part: string,
    read: () => Promise<T>,
    differ: (reported: T) => string[] | undefined,
  ): Promise<void> => {
    try {
      const found = differ(await read());
      if (found === undefined) return;
      compared.push(part);
      differences.push(...found);
    } catch (e) {
      differences.push(`its ${part} could not be read (${messageOf(e)})`);
    }
  };
  /** One reported value against the one sent: none to compare, the same, or the difference. */
  const against = (reported: string | undefined, sent: string, difference: string) =>
    reported === undefined ? undefined : reported === sent ? [] : [difference];
  const { configStoreConnection: store, directories, logSettings } = inputs;
  if (store) {
    await compare(
      "config store",
      () => getConfigStore(session),
      (r) => against(r.connectionString, store.connectionString, "its config store is elsewhere"),
    );
  }
  if (directories) {
    await compare(
      "directories",
      () => listDirectories(session),
      (reported) => {
        if (reported.length === 0) return undefined;
        const byName = new Map(reported.map((d) => [d.name.toLowerCase(), d.path]));
        return directories
          .filter((d) => byName.get(d.name.toLowerCase()) !== d.physicalPath)
          .map((d) => `its directory ${d.name} is not at ${d.physicalPath}`);
      },
    );
  }
  if (logSettings) {
    await compare(
      "log settings",
      () => getLogSettings(session),
      (r) => against(r.logDir, logSettings.logDir, "its logs are in another directory"),
    );
  }
  if (differences.length > 0) return differences.join("; ");
  if (compared.length === 0) {
    return (
      "nothing this stack sent can be compared with what the server reports (give " +
      "configStoreConnection or directories to make a site recognisable)"
    );
  }
  return true;
}
