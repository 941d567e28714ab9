/**
 * Start-up of the emulator: opens (or seeds) the state of a data dir under its lock, loads or makes
 * the TLS material, listens, and hands back its addresses and control surface.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import {
  DEFAULT_PORTAL_ADMIN,
  resolveOptions,
  seedHash,
  type EmulatorOptions,
  type EmulatorSeed,
  type ResolvedOptions,
} from "./core/options";
import { ADMIN_PREFIX } from "./admin/api";
import type { RunningEmulator } from "./core/endpoints";
import { Runtime } from "./core/runtime";
import { lockDataDir } from "./process/lock";
import { registerMachine } from "./core/registry";
import { CONTROL_PREFIX, expireTokens, healthPath, RequestHandler } from "./server";
import { SHARING_PREFIX } from "./portal/sharing-api";
import { finishCreationLater, removeAbandonedArchives } from "./admin/site";
import { upgradeAtStart } from "./admin/upgrade";
import { certificateAtStart } from "./admin/certificates";
import { STATE_FILE, StateStore, type EmulatorState } from "./core/state";
import { loadTls, selfSignedTls, type TlsMaterial } from "./process/tls";
import { hashPassword } from "./core/tokens";
import { finishPortalSiteLater } from "./portal/site";
import { WebAdaptor } from "./web-adaptor/web-adaptor";

/** The site of a portal that starts with one (seeded or default). */
const READY_PORTAL_SITE: EmulatorState["portal"]["site"] = {
  status: "ready",
  completesAt: null,
  administrator: null,
  contentStore: null,
};

/** A portal in no site (`portalNoSite`): no users until createNewSite (portal/site.ts). */
function portalInNoSite(): EmulatorState["portal"] {
  return {
    id: randomBytes(8).toString("hex").toUpperCase(),
    name: "Emulated Portal",
    seedHash: "no-site",
    users: [],
    collaborations: [],
    servers: [],
    certificates: [],
    oauthApps: [],
    webAdaptors: [],
    site: { status: "none", completesAt: null, administrator: null, contentStore: null },
  };
}

/** A portal with its site, as the seed (or the default administrator) makes it. */
async function portalFromSeed(seed: EmulatorSeed | null): Promise<EmulatorState["portal"]> {
  if (seed === null) {
    return {
      id: randomBytes(8).toString("hex").toUpperCase(),
      name: "Emulated Portal",
      seedHash: "default",
      users: [
        {
          username: DEFAULT_PORTAL_ADMIN.username,
          passwordHash: await hashPassword(DEFAULT_PORTAL_ADMIN.password),
          role: "org_admin",
        },
      ],
      collaborations: [],
      servers: [],
      certificates: [],
      oauthApps: [],
      webAdaptors: [],
      site: READY_PORTAL_SITE,
    };
  }
  const now = Date.now();
  return {
    id: seed.portal.id,
    name: seed.portal.name ?? "Emulated Portal",
    seedHash: seedHash(seed),
    users: await Promise.all(
      seed.portal.users.map(async (u) => ({
        username: u.username,
        passwordHash: await hashPassword(u.password),
        role: u.role,
      })),
    ),
    // Creation times follow the seed's order, which the paged list keeps.
    collaborations: seed.portal.collaborations.map((c, i) => ({
      ...c,
      created: now + i,
      modified: now + i,
    })),
    servers: [],
    certificates: [],
    oauthApps: [],
    webAdaptors: [],
    site: READY_PORTAL_SITE,
  };
}

/**
 * Opens the state of the data dir. A seed is applied to a new data dir, and again whenever
 * a different seed is given (the portal is rebuilt; the site is kept). Without a seed an
 * existing portal is kept as it is.
 */
async function openState(options: ResolvedOptions): Promise<StateStore> {
  const store = await StateStore.open(options.dataDir, async () => ({
    formatVersion: 1,
    tokenSecret: randomBytes(32).toString("hex"),
    tokenEpoch: 0,
    site: null,
    lastCreateFailure: null,
    portal: options.portalNoSite ? portalInNoSite() : await portalFromSeed(options.seed),
    pendingArchives: [],
    keystore: { entries: [], selfSignedDeleted: false },
  }));
  if (options.portalNoSite && store.current.portal.seedHash !== "no-site") {
    options.log("portalNoSite applies to a new data dir only; this one keeps its portal");
  }
  const { seed } = options;
  if (seed !== null && store.current.portal.seedHash !== seedHash(seed)) {
    const portal = await portalFromSeed(seed);
    await store.update((draft) => {
      draft.portal = portal;
    });
    options.log("the portal was rebuilt from the new seed");
  }
  return store;
}

/** Listens on `port` (0: a free one) of `host`; rejects if it cannot. */
function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Removes temporary state files a killed write-file-atomic left behind. */
async function removeStaleStateFiles(dataDir: string): Promise<void> {
  const stale = new RegExp(`^${STATE_FILE.replace(".", "\\.")}\\.\\d+$`);
  for (const name of await fs.readdir(dataDir)) {
    if (stale.test(name)) await fs.rm(path.join(dataDir, name), { force: true });
  }
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

async function tlsMaterial(options: ResolvedOptions): Promise<TlsMaterial | null> {
  if (options.tls === false) return null;
  if (options.tls === "generate")
    return selfSignedTls(options.dataDir, [options.host, options.machineName]);
  return loadTls(options.tls.certFile, options.tls.keyFile);
}

/**
 * Starts an emulator and resolves once it listens.
 *
 * @param options - see {@link EmulatorOptions}; every field is optional.
 * @returns its addresses, `close()`, and the control surface.
 * @example
 * ```ts
 * import { startEmulator } from "pulumi-arcgis-admin/emulator";
 * const emu = await startEmulator({ dataDir: "/tmp/emu", createDelayMs: 200, quiet: true });
 * // POST `${emu.adminUrl}/createNewSite` ... trust emu.caCertFile as the CA
 * await emu.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = await resolveOptions(options);
  await fs.mkdir(resolved.dataDir, { recursive: true });
  const unlock = await lockDataDir(resolved.dataDir);
  try {
    const store = await openState(resolved);
    const existing = store.current.site?.serverType ?? null;
    if (existing !== null && existing !== resolved.product.type) {
      throw new Error(
        `The data dir ${resolved.dataDir} holds a site of a ${existing}; start it with serverType ${existing} (--server-type ${existing}), or use another data dir.`,
      );
    }
    // `--upgrade-from`, or an upgrade a stop cut short (admin/upgrade.ts).
    const upgradeState = upgradeAtStart({ options: resolved }, store.current.site);
    if (upgradeState !== undefined) {
      await store.update((draft) => {
        if (draft.site !== null) draft.site.upgrade = upgradeState;
      });
      if (upgradeState?.status === "required") {
        resolved.log(
          `the site waits for the upgrade from ${upgradeState.fromVersion} to ${resolved.serverVersion.full}`,
        );
      }
    }
    await removeStaleStateFiles(resolved.dataDir);
    const tls = await tlsMaterial(resolved);
    const rt = new Runtime(resolved, store, tls !== null);
    await removeAbandonedArchives(rt);
    const handler = new RequestHandler(rt);
    const timeouts = resolved.serverTimeouts;
    const serverOptions: http.ServerOptions = {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // Node checks the two timeouts above on this interval (30 s by default).
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(30_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
      ),
    };
    // The certificate the machine's webServerCertificateAlias names (admin/certificates.ts).
    const presented =
      tls === null ? null : certificateAtStart(store.current, resolved.machineName, tls);
    const server =
      tls === null || presented === null
        ? http.createServer(serverOptions, handler.listener)
        : https.createServer(
            // A connection that never completes its TLS handshake never reaches HTTP.
            {
              ...serverOptions,
              cert: presented.cert,
              key: presented.key,
              handshakeTimeout: timeouts.headersMs,
            },
            handler.listener,
          );
    if (tls !== null && server instanceof https.Server) {
      rt.webServer = {
        initial: { cert: tls.cert, key: tls.key },
        // Connections made from now on get the new certificate; open ones keep theirs.
        present: (cert, key) => server.setSecureContext({ cert, key }),
      };
    }
    handler.applyIdleTimeout(server, timeouts.idleMs);
    // A Web Adaptor, when asked for: a web server of its own, with the TLS material the emulator
    // started with (emulator/web-adaptor/web-adaptor.ts).
    const adaptor =
      resolved.webAdaptor === null
        ? null
        : new WebAdaptor(rt, resolved.webAdaptor.context, handler.listener);
    const adaptorServer =
      adaptor === null
        ? null
        : tls === null
          ? http.createServer(serverOptions, adaptor.listener)
          : https.createServer(
              {
                ...serverOptions,
                cert: tls.cert,
                key: tls.key,
                handshakeTimeout: timeouts.headersMs,
              },
              adaptor.listener,
            );
    if (adaptorServer !== null) handler.applyIdleTimeout(adaptorServer, timeouts.idleMs);
    try {
      await listen(server, resolved.port, resolved.host);
      if (adaptorServer !== null) {
        await listen(adaptorServer, resolved.webAdaptor?.port ?? 0, resolved.host);
      }
    } catch (error) {
      server.close();
      await handler.close();
      throw error;
    }
    server.on("error", (error) => rt.log(`server error: ${error.message}`));
    adaptorServer?.on("error", (error) => rt.log(`web adaptor error: ${error.message}`));

    const { port } = server.address() as AddressInfo;
    const scheme = tls === null ? "http" : "https";
    const base = `${scheme}://${urlHost(resolved.host)}:${port}`;
    const originHost = urlHost(resolved.urlHost ?? resolved.host);
    rt.publicOrigin = `${scheme}://${originHost}:${port}`;
    if (adaptor !== null && adaptorServer !== null) {
      const adaptorPort = (adaptorServer.address() as AddressInfo).port;
      adaptor.listening(`${scheme}://${originHost}:${adaptorPort}`, adaptorPort);
      rt.log(`web adaptor listening on ${adaptor.url}`);
    }
    const site = store.current.site;
    const resumed =
      site?.status === "creating"
        ? finishCreationLater(rt, site).then(
            () => undefined,
            (error: unknown) => rt.log(`resumed site creation failed: ${String(error)}`),
          )
        : Promise.resolve();
    if (site?.status === "creating") rt.log("resuming a site creation interrupted by a restart");
    const portalSite = store.current.portal.site;
    const portalResumed =
      portalSite.status === "creating"
        ? finishPortalSiteLater(rt, portalSite).then(
            () => rt.log("resumed the portal site creation a restart interrupted"),
            () => undefined,
          )
        : Promise.resolve();
    const forget = registerMachine(rt, port);

    let closing: Promise<void> | null = null;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const adaptorClosed = new Promise<void>((resolve) =>
          adaptorServer === null ? resolve() : adaptorServer.close(() => resolve()),
        );
        forget();
        rt.stop();
        // Pending operations end at once (their delays are aborted) and answer; a long
        // download gets a moment, then its connection is cut.
        await Promise.race([handler.settled(), setTimeout(1000, undefined, { ref: false })]);
        server.closeAllConnections();
        adaptorServer?.closeAllConnections();
        await handler.close();
        await closed;
        await adaptorClosed;
        await resumed;
        await portalResumed;
        await store.idle();
        await unlock();
        rt.log("stopped");
      })();
      return closing;
    };

    rt.log(
      `${resolved.product.name} ${resolved.serverVersion.full} listening on ${base} (data dir ${resolved.dataDir})`,
    );
    return {
      adminUrl: `${base}${ADMIN_PREFIX}`,
      sharingUrl: `${base}${SHARING_PREFIX}`,
      healthUrl: `${base}${healthPath(resolved.product)}`,
      caCertFile: tls?.caCertFile ?? null,
      portalId: store.current.portal.id,
      serverType: resolved.product.type,
      serverVersion: resolved.serverVersion.full,
      ...(adaptor === null ? {} : { webAdaptorUrl: adaptor.url }),
      dataDir: resolved.dataDir,
      controlUrl: `${base}${CONTROL_PREFIX}`,
      close,
      stats: () => ({ ...rt.stats }),
      requestLog: () => rt.requests.list(),
      expireTokens: () => expireTokens(rt),
      failNextCreate: (message: string) => {
        rt.failNextCreate = message;
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}
