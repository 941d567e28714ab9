#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `pulumi-language-nodejs` for an engine built from source: the engine starts it as it starts
 * Pulumi's own host (found beside the CLI), and its `Run` starts the program the way Pulumi's
 * host does, through `@pulumi/pulumi/cmd/run` of the SDK the program resolves. It stands in for
 * the Go binary of a normal Pulumi install, which the Go module proxy does not serve; with a CLI
 * from Pulumi's installer this file is never used.
 *
 * Usage (by the engine): pulumi-language-nodejs [--logtostderr] [-v=N] [--tracing URL] <engine>
 * The gRPC stubs and grpc-js are the ones the project's own `@pulumi/pulumi` ships, resolved from
 * the working directory the engine starts the host in (the project folder).
 */
const { spawn } = require("node:child_process");
const path = require("node:path");

const VERSION = (/^--host-version=(.+)$/.exec(process.argv[2] ?? "") ?? [])[1] ?? "3.0.0";
const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const engineAddress = args[args.length - 1] ?? "";

/**
 * The `@pulumi/pulumi` folder the project resolves, or an exit with what to do: without the SDK
 * no program can run (Pulumi's own host says the same).
 *
 * @param {string} from
 * @returns {string}
 */
function sdkDir(from) {
  try {
    return path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [from] }));
  } catch {
    process.stderr.write(
      `It looks like the Pulumi SDK has not been installed in ${from}: run \`npm install\` there ` +
        "(the program needs @pulumi/pulumi in its node_modules).\n",
    );
    process.exit(1);
  }
}

/**
 * `require`, typed `unknown`: each caller states what it expects of the module.
 *
 * @param {string} id
 * @returns {unknown}
 */
function load(id) {
  return require(id);
}

const sdk = sdkDir(process.cwd());
const grpc = /** @type {typeof import("@grpc/grpc-js")} */ (
  load(require.resolve("@grpc/grpc-js", { paths: [sdk] }))
);
const services = /** @type {typeof import("@pulumi/pulumi/proto/language_grpc_pb")} */ (
  load(path.join(sdk, "proto", "language_grpc_pb.js"))
);
const messages = /** @type {typeof import("@pulumi/pulumi/proto/language_pb")} */ (
  load(path.join(sdk, "proto", "language_pb.js"))
);
const pluginMessages = /** @type {typeof import("@pulumi/pulumi/proto/plugin_pb")} */ (
  load(path.join(sdk, "proto", "plugin_pb.js"))
);
const { Empty } = /** @type {typeof import("google-protobuf/google/protobuf/empty_pb")} */ (
  load(require.resolve("google-protobuf/google/protobuf/empty_pb.js", { paths: [sdk] }))
);

/**
 * Programs running now, so that Cancel and SIGINT can interrupt them.
 *
 * @type {Set<import("node:child_process").ChildProcess>}
 */
const running = new Set();

/**
 * The runtime options of Pulumi.yaml (`runtime.options`), as plain values.
 *
 * @param {import("@pulumi/pulumi/proto/language_pb").ProgramInfo | undefined} info
 * @returns {Record<string, unknown>}
 */
function optionsOf(info) {
  return /** @type {Record<string, unknown>} */ (info?.getOptions()?.toJavaScript() ?? {});
}

/**
 * Starts the program through the SDK's own entry point and answers as Pulumi's host does: bail
 * when the SDK already reported the error (exit code 32), else the exit code.
 *
 * @param {import("@pulumi/pulumi/proto/language_pb").RunRequest} req
 * @returns {Promise<import("@pulumi/pulumi/proto/language_pb").RunResponse>}
 */
function run(req) {
  const info = req.getInfo();
  const options = optionsOf(info);
  const programDir = info?.getProgramDirectory() || req.getPwd();
  const runEntry = require.resolve("@pulumi/pulumi/cmd/run", { paths: [programDir] });
  const nodeargs = typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/) : [];
  const flags = [
    `--monitor=${req.getMonitorAddress()}`,
    `--engine=${engineAddress}`,
    `--organization=${req.getOrganization()}`,
    `--project=${req.getProject()}`,
    `--root-directory=${info?.getRootDirectory() ?? req.getPwd()}`,
    `--stack=${req.getStack()}`,
    `--pwd=${req.getPwd()}`,
    ...(req.getDryrun() ? ["--dry-run"] : []),
    ...(req.getQuerymode() ? ["--query-mode"] : []),
    `--parallel=${req.getParallel()}`,
  ];
  const config = Object.fromEntries(req.getConfigMap().toArray());
  const env = {
    ...process.env,
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
    PULUMI_NODEJS_TYPESCRIPT: String(options.typescript !== false),
    ...(typeof options.tsconfig === "string"
      ? { PULUMI_NODEJS_TSCONFIG_PATH: options.tsconfig }
      : {}),
  };
  const entry = info?.getEntryPoint() || req.getProgram() || ".";
  const child = spawn(
    process.execPath,
    [...nodeargs.filter(Boolean), runEntry, ...flags, entry, ...req.getArgsList()],
    { cwd: req.getPwd(), env, stdio: ["ignore", "inherit", "inherit"] },
  );
  running.add(child);
  return new Promise((resolve) => {
    const answer = new messages.RunResponse();
    child.on("error", (error) => {
      running.delete(child);
      answer.setError(`Could not start the program: ${error.message}`);
      resolve(answer);
    });
    child.on("exit", (code, signal) => {
      running.delete(child);
      if (code === 32) answer.setBail(true);
      else if (code !== 0) {
        answer.setError(
          code === null
            ? `Program exited after signal ${signal}`
            : `Program exited with non-zero exit code: ${code}`,
        );
      }
      resolve(answer);
    });
  });
}

/** Interrupts every running program as Ctrl-C would; harmless when none runs. */
function cancelAll() {
  for (const child of running) child.kill("SIGINT");
}

/**
 * A unary handler from an async function, with any error as the call's error.
 *
 * @param {(req: any) => unknown} fn
 * @returns {import("@grpc/grpc-js").handleUnaryCall<any, any>}
 */
function unary(fn) {
  return (call, callback) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (value) => callback(null, value),
        (/** @type {unknown} */ error) =>
          callback({
            code: grpc.status.UNKNOWN,
            details: error instanceof Error ? error.message : String(error),
          }),
      );
  };
}

const handlers = {
  getPluginInfo: unary(() => new pluginMessages.PluginInfo().setVersion(VERSION)),
  handshake: unary(() => new messages.LanguageHandshakeResponse()),
  about: unary(() =>
    new messages.AboutResponse().setExecutable(process.execPath).setVersion(process.version),
  ),
  // Dynamic providers run in the bundled pulumi-resource-pulumi-nodejs; a project's resource
  // plugins are installed by `pulumi plugin install`, so nothing is required from here.
  getRequiredPlugins: unary(() => new messages.GetRequiredPluginsResponse()),
  getRequiredPackages: unary(() => new messages.GetRequiredPackagesResponse()),
  getProgramDependencies: unary(() => new messages.GetProgramDependenciesResponse()),
  run: unary(run),
  cancel: unary(() => {
    cancelAll();
    return new Empty();
  }),
};

const server = new grpc.Server();
server.addService(services.LanguageRuntimeService, handlers);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    process.stderr.write(`The Node.js language host could not listen: ${error.message}\n`);
    process.exit(1);
  }
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
});

/** Ends the host and its programs. */
function stop() {
  cancelAll();
  server.forceShutdown();
  process.exit(0);
}

// The engine ends a host with SIGINT (then SIGKILL after 5 s): exit at once, programs first.
process.on("SIGINT", stop);

// A killed CLI sends no SIGINT: like Pulumi's own hosts (rpcutil.Healthcheck in sdk/v3), ask the
// engine's gRPC health service every five minutes and stop once it no longer answers, so that no
// host outlives its engine. An engine without the service (UNIMPLEMENTED) counts as alive.
const HEALTHCHECK_MS = Number(process.env.ARCGIS_ADMIN_HOST_HEALTHCHECK_MS) || 5 * 60_000;
if (engineAddress !== "") {
  const engine = new grpc.Client(engineAddress, grpc.credentials.createInsecure());
  const check = () =>
    engine.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      () => Buffer.alloc(0),
      (/** @type {Buffer} */ answer) => answer,
      Buffer.alloc(0),
      (error) => {
        if (error && error.code !== grpc.status.UNIMPLEMENTED) stop();
        else setTimeout(check, HEALTHCHECK_MS).unref();
      },
    );
  setTimeout(check, HEALTHCHECK_MS).unref();
}
