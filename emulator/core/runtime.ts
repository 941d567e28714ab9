/**
 * What every part of a running emulator shares: options, state, counters, the export
 * lock, the request log, and the shutdown signal that ends pending delays.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerProfile } from "./products";
import type { ResolvedOptions } from "./options";
import type { Product } from "./products";
import type { StateStore } from "./state";
import { RequestLog } from "./request-log";

export type { RequestLogEntry } from "./request-log";

/** Counters of what the emulator has done since it started (not persisted). */
export interface EmulatorStats {
  /** createNewSite requests received, whatever their outcome. */
  createNewSiteRequests: number;
  /** Site creations that completed successfully. */
  sitesCreated: number;
  /** Site creations that failed (see failNextCreate). */
  siteCreationsFailed: number;
  /** Exports that took the export lock and began writing. */
  exportsStarted: number;
  /** Exports whose archive was published under its final name. */
  exportsCompleted: number;
  /** Configuration changes refused with 409 because an export was running. */
  changesRefusedDuringExport: number;
  /** importSite requests that took the lock and began replacing the configuration. */
  importsStarted: number;
  /** Imports that replaced the site configuration. */
  importsCompleted: number;
  /** Servers federated with the portal (federate answered success). */
  serversFederated: number;
  /** importRootOrIntermediate requests that imported a certificate. */
  certificatesImported: number;
  /** Servers unfederated from the portal. */
  serversUnfederated: number;
  /** Archives received by uploads/upload. */
  itemsUploaded: number;
  /** Tokens issued by both APIs. */
  tokensIssued: number;
}

/**
 * The machine's HTTPS listener as the certificate operations see it (admin/certificates.ts): the
 * certificate it started with, and a way to present another one.
 */
export interface WebServerTls {
  /** The certificate and key the emulator was started with: generated, or the user's. */
  readonly initial: { readonly cert: string; readonly key: string };
  /** Presents this certificate (chain, PEM) and key to every connection made from now on. */
  present(chainPem: string, keyPem: string): void;
}

/** Shared state of one running emulator. */
export class Runtime {
  readonly stats: EmulatorStats = {
    createNewSiteRequests: 0,
    sitesCreated: 0,
    siteCreationsFailed: 0,
    exportsStarted: 0,
    exportsCompleted: 0,
    changesRefusedDuringExport: 0,
    importsStarted: 0,
    importsCompleted: 0,
    serversFederated: 0,
    certificatesImported: 0,
    serversUnfederated: 0,
    itemsUploaded: 0,
    tokensIssued: 0,
  };
  /** Request lines kept in memory (bounded; requests.log keeps them all). */
  readonly requests = new RequestLog();
  /** True while an export runs; checked and set inside state updates, which are serialized. */
  exportRunning = false;
  /** True while an import runs: the same lock as an export (emulator/admin/site-import.ts). */
  importRunning = false;
  /** Message the next site creation fails with, if any. */
  failNextCreate: string | null;
  /**
   * `scheme://host:port` of the URLs the emulator builds (download URLs, token service): the
   * machine name when given, else the listen address; never a request's Host header, which
   * would let whoever sits in between steer where a client sends its token. Set once listening.
   */
  publicOrigin = "";
  /** When this emulator started (epoch ms): a machine's `ServerStartTime`. */
  readonly startedAt = Date.now();
  /** The HTTPS listener's certificate control; null without TLS. Set once listening. */
  webServer: WebServerTls | null = null;
  /**
   * Until when (epoch ms) the server's web server restarts after a change of its security
   * settings: its admin and REST APIs answer 503 meanwhile (admin/security.ts).
   */
  restartingUntil = 0;
  private readonly shutdown = new AbortController();

  constructor(
    readonly options: ResolvedOptions,
    readonly store: StateStore,
    readonly tlsEnabled: boolean,
  ) {
    this.failNextCreate = options.failCreate ?? null;
  }

  /** The emulated product. */
  get product(): Product {
    return this.options.product;
  }

  /** The emulated product and version, as the parsers need them. */
  get profile(): ServerProfile {
    return { product: this.options.product, version: this.options.serverVersion };
  }

  /** Aborted when the emulator closes; ends every pending emulated delay. */
  get signal(): AbortSignal {
    return this.shutdown.signal;
  }

  /** Writes a log line (to stderr unless quiet); never pass a password or token. */
  log(line: string): void {
    this.options.log(line);
  }

  /** Waits `ms`, or rejects with an AbortError when the emulator closes. */
  delay(ms: number): Promise<void> {
    return sleep(ms, undefined, { signal: this.shutdown.signal });
  }

  /** Ends every pending delay. */
  stop(): void {
    this.shutdown.abort();
  }
}
