#!/usr/bin/env node
/**
 * `arcgis-admin-emulator`: starts the emulator, prints one JSON ready line on stdout, logs
 * to stderr, and stops cleanly on SIGINT or SIGTERM.
 */
import "./process/start-with-heap-bounds";
import "./process/cli-node-check";
import * as fs from "node:fs";
import * as path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import {
  DEFAULT_CREATE_DELAY_MS,
  DEFAULT_DATA_DIR,
  DEFAULT_EXPORT_DELAY_MS,
  DEFAULT_IMPORT_DELAY_MS,
  DEFAULT_PORTAL_ADMIN,
  type EmulatorOptions,
} from "./core/options";
import { MAX_BODY_BYTES } from "./core/http";
import {
  EXPORT_URL_FORMS,
  parseServerVersion,
  productOf,
  SERVER_TYPES,
  type ExportUrlForm,
  type ServerType,
} from "./core/products";
import type { EmulatorEndpoints, RunningEmulator } from "./core/endpoints";
import { startEmulator } from "./start";
import { watchAncestors } from "./process/parent-watch";
import { findRunning, startDetached, stopDetached } from "./process/daemon";

function wholeNumber(max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n > max) {
      throw new InvalidArgumentError(`Expected a whole number from 0 to ${max}.`);
    }
    return n;
  };
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("Expected a number above 0.");
  return n;
}

function positiveWholeNumber(value: string): number {
  const n = wholeNumber()(value);
  if (n === 0) throw new InvalidArgumentError("Expected a whole number above 0.");
  return n;
}

function version(value: string): string {
  try {
    return parseServerVersion(value).full;
  } catch {
    throw new InvalidArgumentError("Expected a version such as 11.3 or 10.8.1.");
  }
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

interface CliFlags {
  host: string;
  port: number;
  dataDir: string;
  seed?: string;
  tls: boolean;
  cert?: string;
  key?: string;
  createDelay: number;
  exportDelay: number;
  importDelay: number;
  joinDelay?: number;
  joinPollAfter?: number;
  exportRoot?: string[];
  machineName?: string;
  serverType?: ServerType;
  serverVersion?: string;
  exportUrlForm?: ExportUrlForm;
  headersTimeout?: number;
  requestTimeout?: number;
  keepAliveTimeout?: number;
  idleTimeout?: number;
  tokenLifetime?: number;
  exportPaddingBytes: number;
  failCreate?: string;
  upgradeFrom?: string;
  upgradeDelay?: number;
  restartDelay?: number;
  portalNoSite: boolean;
  portalCreateDelay?: number;
  webAdaptor?: string;
  webAdaptorPort?: number;
  quiet: boolean;
  readyFile?: string;
  exitWithParent: boolean;
  detach: boolean;
  stop: boolean;
}

/** The command line parser (exported for its help text). */
export function buildProgram(): Command {
  return new Command()
    .name("arcgis-admin-emulator")
    .description(
      "Local emulator of an ArcGIS server (Mission, ArcGIS, Notebook or Video Server: admin API under /arcgis/admin) and a portal (sharing API under /portal/sharing/rest).",
    )
    .addOption(
      new Option(
        "--server-type <type>",
        "product to emulate (default: mission-server, or the seed's server.type)",
      ).choices(SERVER_TYPES),
    )
    .option(
      "--server-version <version>",
      `version rest/info reports (default per product: ${SERVER_TYPES.map((t) => `${t} ${productOf(t).defaultVersion}`).join(", ")})`,
      version,
    )
    .addOption(
      new Option(
        "--export-url-form <form>",
        "exportSite's download URL without 'location': file (serves the archive) or item (describes an uploaded item; archive at .../download); default: item on arcgis-server, file otherwise",
      ).choices(EXPORT_URL_FORMS),
    )
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on; 0 picks a free one", wholeNumber(65535), 0)
    .option(
      "--data-dir <dir>",
      "where state, certificate, archives and requests.log live",
      DEFAULT_DATA_DIR,
    )
    .option(
      "--seed <file>",
      "JSON file with the portal's id, users and collaborations (format below)",
    )
    .option("--no-tls", "serve plain HTTP instead of HTTPS")
    .option(
      "--cert <file>",
      "PEM certificate to serve (with --key) instead of the generated self-signed one",
    )
    .option("--key <file>", "PEM private key of --cert")
    .option(
      "--create-delay <ms>",
      "how long createNewSite takes",
      wholeNumber(),
      DEFAULT_CREATE_DELAY_MS,
    )
    .option(
      "--export-delay <ms>",
      "how long exportSite takes",
      wholeNumber(),
      DEFAULT_EXPORT_DELAY_MS,
    )
    .option("--join-delay <ms>", "how long joinSite takes (default 20)", wholeNumber())
    .option(
      "--join-poll-after <seconds>",
      "the pollAfter joinSite answers (default 0)",
      wholeNumber(),
    )
    .option(
      "--import-delay <ms>",
      "how long importSite takes (the export/import lock is held meanwhile)",
      wholeNumber(),
      DEFAULT_IMPORT_DELAY_MS,
    )
    .option(
      "--export-root <dir>",
      "folder exportSite may write into with 'location' (repeatable; default: the data dir)",
      collect,
    )
    .option(
      "--machine-name <name>",
      "name of the emulated machine, also the host of the URLs it builds (default: this host's name; URLs then use the listen address)",
    )
    .option(
      "--headers-timeout <ms>",
      "time to receive a request's headers (and a TLS handshake)",
      positiveWholeNumber,
    )
    .option("--request-timeout <ms>", "time to receive a whole request", positiveWholeNumber)
    .option(
      "--keep-alive-timeout <ms>",
      "how long a kept-alive connection may wait for its next request",
      positiveWholeNumber,
    )
    .option(
      "--idle-timeout <ms>",
      "a connection without traffic for this long is closed",
      positiveWholeNumber,
    )
    .option(
      "--token-lifetime <minutes>",
      "every token lasts this long, whatever 'expiration' asks (fractions allowed)",
      positiveNumber,
    )
    .option(
      "--export-padding-bytes <n>",
      "add an incompressible entry of n bytes to each archive (download benchmarks)",
      wholeNumber(),
      0,
    )
    .option("--fail-create <message>", "the first site creation fails with this message")
    .option(
      "--upgrade-from <version>",
      "start the data dir's site in the 'upgrade required' state, as after installing --server-version over a site of this older version; the 'upgrade' operation completes it",
    )
    .option(
      "--upgrade-delay <ms>",
      "how long the 'upgrade' operation takes (default 500)",
      wholeNumber(),
    )
    .option(
      "--restart-delay <ms>",
      "how long a machine's web server takes to restart after its certificate, or ArcGIS Server's security settings, changed (default 200)",
      wholeNumber(),
    )
    .option(
      "--portal-no-site",
      "start the portal in no site, with no users, as a fresh Portal for ArcGIS is: portaladmin/createNewSite creates its administrator (a new data dir only; not with --seed)",
      false,
    )
    .option(
      "--portal-create-delay <ms>",
      "how long the portal's createNewSite takes (default 500)",
      wholeNumber(),
    )
    .option(
      "--web-adaptor <context>",
      "also start a Web Adaptor at {scheme}://{host}:{port}/<context>, unconfigured until its <context>/webadaptor page registers it with the server or the portal; it then forwards what it receives to them",
    )
    .option(
      "--web-adaptor-port <port>",
      "port of the Web Adaptor; 0 (the default) picks a free one",
      wholeNumber(65535),
    )
    .option("--quiet", "no log lines on stderr", false)
    .option(
      "--ready-file <file>",
      "also write the ready line to this file (atomically) once listening; removed on stop",
    )
    .option(
      "--no-exit-with-parent",
      "keep running when the process that started it (npx, npm run, a CI step) is gone; by default the emulator stops then",
    )
    .option(
      "--detach",
      "start it in the background (logs in <data dir>/emulator.log), print its ready line once it listens, and return",
      false,
    )
    .option("--stop", "stop the emulator started with --detach on --data-dir, and return", false)
    .addHelpText(
      "after",
      "\nOnce listening it prints one JSON line on stdout:\n" +
        '  {"adminUrl":...,"sharingUrl":...,"healthUrl":...,"caCertFile":...,"portalId":...,"serverType":...,"serverVersion":...}\n' +
        '(with --web-adaptor, also "webAdaptorUrl"), then logs to stderr. SIGINT or SIGTERM stops it.\n' +
        "\nSeed file:\n" +
        '  {"server":{"type":"mission-server","version":"11.3"},   (optional)\n' +
        '   "portal":{"id":"...","users":[{"username":"...","password":"...","role":"org_admin"|"org_user"}],\n' +
        '   "collaborations":[{"id":"...","name":"...","description":"...","hostPortalId":"...","guestPortalIds":["..."]}]}}\n' +
        `Without --seed the portal has one org_admin: ${DEFAULT_PORTAL_ADMIN.username} / ${DEFAULT_PORTAL_ADMIN.password}.\n` +
        `Request bodies are limited to ${MAX_BODY_BYTES} bytes.\n` +
        "Control endpoints (emulator only): GET /__emulator/stats, GET /__emulator/requests,\n" +
        "POST /__emulator/expire-tokens, POST /__emulator/fail-next-create (message).",
    );
}

function toOptions(flags: CliFlags): EmulatorOptions {
  if ((flags.cert === undefined) !== (flags.key === undefined)) {
    throw new Error("--cert and --key must be given together.");
  }
  if (!flags.tls && flags.cert !== undefined)
    throw new Error("--cert/--key cannot be combined with --no-tls.");
  return {
    host: flags.host,
    port: flags.port,
    dataDir: flags.dataDir,
    createDelayMs: flags.createDelay,
    exportDelayMs: flags.exportDelay,
    importDelayMs: flags.importDelay,
    ...(flags.joinDelay === undefined ? {} : { joinDelayMs: flags.joinDelay }),
    ...(flags.joinPollAfter === undefined ? {} : { joinPollAfterSeconds: flags.joinPollAfter }),
    exportPaddingBytes: flags.exportPaddingBytes,
    quiet: flags.quiet,
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(!flags.tls
      ? { tls: false as const }
      : flags.cert !== undefined && flags.key !== undefined
        ? { tls: { certFile: flags.cert, keyFile: flags.key } }
        : {}),
    ...(flags.exportRoot === undefined ? {} : { exportRoots: flags.exportRoot }),
    ...(flags.machineName === undefined ? {} : { machineName: flags.machineName }),
    ...(flags.serverType === undefined ? {} : { serverType: flags.serverType }),
    ...(flags.serverVersion === undefined ? {} : { serverVersion: flags.serverVersion }),
    ...(flags.exportUrlForm === undefined ? {} : { exportUrlForm: flags.exportUrlForm }),
    serverTimeouts: {
      ...(flags.headersTimeout === undefined ? {} : { headersMs: flags.headersTimeout }),
      ...(flags.requestTimeout === undefined ? {} : { requestMs: flags.requestTimeout }),
      ...(flags.keepAliveTimeout === undefined ? {} : { keepAliveMs: flags.keepAliveTimeout }),
      ...(flags.idleTimeout === undefined ? {} : { idleMs: flags.idleTimeout }),
    },
    ...(flags.tokenLifetime === undefined ? {} : { tokenLifetimeMinutes: flags.tokenLifetime }),
    ...(flags.failCreate === undefined ? {} : { failCreate: flags.failCreate }),
    ...(flags.upgradeFrom === undefined ? {} : { upgradeFrom: flags.upgradeFrom }),
    ...(flags.upgradeDelay === undefined ? {} : { upgradeDelayMs: flags.upgradeDelay }),
    ...(flags.restartDelay === undefined ? {} : { restartDelayMs: flags.restartDelay }),
    ...(flags.portalNoSite ? { portalNoSite: true } : {}),
    ...(flags.portalCreateDelay === undefined
      ? {}
      : { portalCreateDelayMs: flags.portalCreateDelay }),
    ...(flags.webAdaptor === undefined
      ? {}
      : {
          webAdaptor: {
            context: flags.webAdaptor,
            ...(flags.webAdaptorPort === undefined ? {} : { port: flags.webAdaptorPort }),
          },
        }),
  };
}

/** The ready line: exactly these fields, in this order (the last only with a Web Adaptor). */
export function readyLine(emulator: EmulatorEndpoints): string {
  const { adminUrl, sharingUrl, healthUrl, caCertFile, portalId, serverType, serverVersion } =
    emulator;
  const line = {
    adminUrl,
    sharingUrl,
    healthUrl,
    caCertFile,
    portalId,
    serverType,
    serverVersion,
  };
  // Only with --web-adaptor: without it the line is as it always was.
  const { webAdaptorUrl } = emulator;
  return JSON.stringify(webAdaptorUrl === undefined ? line : { ...line, webAdaptorUrl });
}

async function main(): Promise<void> {
  const program = buildProgram();
  program.parse();
  const options = toOptions(program.opts<CliFlags>());
  const flags = program.opts<CliFlags>();
  if (flags.detach && flags.stop) throw new Error("--detach and --stop cannot be combined.");
  if (flags.stop) return stopInBackground(flags.dataDir);
  if (flags.detach) return startInBackground(flags);

  // Signal handlers go in before anything is printed: a supervisor that stops the emulator
  // as soon as it reads the ready line must get a clean stop, not the default kill.
  let emulator: RunningEmulator | null = null;
  let stopSignal: NodeJS.Signals | null = null;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopSignal !== null) {
      // A second signal while stopping: give up waiting.
      process.exit(1);
    }
    stopSignal = signal;
    process.stderr.write(`arcgis-admin-emulator: ${signal} received, stopping\n`);
    // Still starting: main() stops it once it is up.
    if (emulator !== null) closeAndExit(emulator);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  emulator = await startEmulator(options);
  if (stopSignal !== null) {
    closeAndExit(emulator);
    return;
  }
  if (flags.exitWithParent) {
    watchAncestors((pid) => {
      process.stderr.write(
        `arcgis-admin-emulator: the process that started it (pid ${pid}) is gone, stopping\n`,
      );
      stop("SIGTERM");
    });
  }
  const line = readyLine(emulator);
  if (flags.readyFile !== undefined) {
    readyFile = path.resolve(flags.readyFile);
    const temp = `${readyFile}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${line}\n`);
    fs.renameSync(temp, readyFile);
  }
  process.stdout.write(`${line}\n`);
}

/** `--detach`: this same CLI, in the background, with the other flags as given. */
async function startInBackground(flags: CliFlags): Promise<void> {
  const running = await findRunning(flags.dataDir);
  if (running !== undefined) {
    throw new Error(
      `An emulator (process ${running.pid}) already runs on ${running.dataDir} at ${running.adminUrl}; stop it first (--stop).`,
    );
  }
  const emulator = await startDetached({
    dataDir: flags.dataDir,
    args: process.argv.slice(2).filter((arg) => arg !== "--detach"),
    cli: __filename,
    ...(flags.readyFile === undefined ? {} : { readyFile: flags.readyFile }),
  });
  if (!flags.quiet) {
    process.stderr.write(
      `arcgis-admin-emulator: running in the background (process ${emulator.pid}, log ${emulator.logFile})\n`,
    );
  }
  process.stdout.write(`${readyLine(emulator)}\n`);
}

/** `--stop`: the emulator `--detach` started on this data dir. */
async function stopInBackground(dataDir: string): Promise<void> {
  const pid = await stopDetached(dataDir);
  process.stderr.write(
    pid === undefined
      ? `arcgis-admin-emulator: no emulator runs on ${path.resolve(dataDir)}\n`
      : `arcgis-admin-emulator: stopped the emulator (process ${pid})\n`,
  );
}

/** The ready file written at start, removed at stop (a stale one would announce a dead port). */
let readyFile: string | undefined;

function closeAndExit(emulator: RunningEmulator): void {
  if (readyFile !== undefined) fs.rmSync(readyFile, { force: true });
  emulator.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`arcgis-admin-emulator: error while stopping: ${String(error)}\n`);
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `arcgis-admin-emulator: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
