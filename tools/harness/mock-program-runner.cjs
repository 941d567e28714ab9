"use strict";
/**
 * Runs a Pulumi program the way `pulumi up` (or `pulumi preview`) does, but against Pulumi's
 * mocks, and records every resource it registers. The one runner of the suites: the engine
 * harness (tools/harness/consumer.ts) and the example suites (tools/harness/example-programs.ts) both
 * spawn it.
 *
 * Usage: node mock-program-runner.cjs <program file> <project> <stack> [update|preview], with the
 * program's folder as cwd (what the engine passes as `--pwd`) and the stack config in
 * PULUMI_CONFIG. @pulumi/pulumi is resolved from the cwd, as the language host resolves it.
 *
 * A `.ts` program gets TypeScript set up exactly as @pulumi/pulumi/cmd/run/run.js does for a
 * CommonJS project (the same ts-node and typescript lookup through tsutils, the same options
 * merged with the tsconfig.json of the cwd, type checking on), so a program that runs here
 * compiles under the real Node.js language host too. setMocks records every registered resource
 * (inputs including the serialized `__provider`, and the resource options the mock monitor
 * hides); outside a preview the program's exports are resolved.
 *
 * Prints one line: RUNNER_MARK + JSON {registrations, outputs, toolchain}. Exits 1 on any
 * program error (a throw, a failed registration such as an unserializable `__provider`, or an
 * error logged).
 */
const fs = require("node:fs");
const path = require("node:path");

const RUNNER_MARK = "__PROGRAM_RUNNER__ ";
const [programArg, project, stack, mode] = process.argv.slice(2);
const program = path.resolve(programArg);
const preview = mode === "preview";
const failures = [];
process.on("uncaughtException", (error) => failures.push(error));
process.on("unhandledRejection", (error) => failures.push(error));

const pulumiDir = path.dirname(
  require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd()] }),
);
const pulumi = require(pulumiDir);
const { MockMonitor } = require(path.join(pulumiDir, "runtime", "mocks"));

function registerTypeScript() {
  const tsutils = require(path.join(pulumiDir, "tsutils"));
  const semver = require(require.resolve("semver", { paths: [pulumiDir] }));
  const tsConfigPath = process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? "tsconfig.json";
  const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
  const transpileOnlyEnv = process.env.PULUMI_NODEJS_TRANSPILE_ONLY;
  const transpileOnly = transpileOnlyEnv ? transpileOnlyEnv === "true" : compilerOptions.noCheck;
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const ts = require(typescriptRequire);
  const tsVersion = semver.parse(ts.version);
  const useNodeNext = tsVersion && tsVersion.compare(new semver.SemVer("4.7.0")) >= 0;
  require(tsnodeRequire).register({
    compiler: typescriptRequire,
    transpileOnly,
    project: tsConfigPath,
    skipProject: !fs.existsSync(tsConfigPath),
    compilerOptions: {
      target: "ES2020",
      module: useNodeNext ? "nodenext" : "commonjs",
      moduleResolution: useNodeNext ? "nodenext" : "node",
      sourceMap: "true",
      ...compilerOptions,
    },
  });
  return { typescript: ts.version, tsNode: tsnodeRequire };
}

// newResource only sees type/name/inputs/provider/custom/id. The request holds the resource
// options too (additionalSecretOutputs matters for secrets), and the monitor calls newResource
// synchronously, so remember the request.
let currentRequest;
const originalRegister = MockMonitor.prototype.registerResource;
MockMonitor.prototype.registerResource = function (req, callback) {
  currentRequest = req;
  try {
    return originalRegister.call(this, req, callback);
  } finally {
    currentRequest = undefined;
  }
};

function optionsOf(req) {
  if (!req) return null;
  return {
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    deleteBeforeReplace: req.getDeletebeforereplacedefined()
      ? req.getDeletebeforereplace()
      : undefined,
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    protect: req.getProtect(),
    retainOnDelete: req.getRetainondelete(),
    parent: req.getParent(),
    dependencies: req.getDependenciesList(),
  };
}

const registrations = [];
const mocks = {
  newResource(args) {
    registrations.push({
      type: args.type,
      name: args.name,
      inputs: args.inputs,
      custom: args.custom === true,
      options: optionsOf(currentRequest),
    });
    return { id: `${args.name}-id`, state: args.inputs };
  },
  call(args) {
    return args.inputs;
  },
};

function resolved(value) {
  if (!pulumi.Output.isInstance(value)) return Promise.resolve(value);
  return new Promise((resolve) => value.apply((v) => resolve(v === undefined ? null : v)));
}

(async () => {
  let toolchain = null;
  const outputs = {};
  try {
    if (program.endsWith(".ts")) toolchain = registerTypeScript();
    await pulumi.runtime.setMocks(mocks, project, stack, preview);
    let exported = require(program);
    if (exported && typeof exported.then === "function") exported = await exported;
    // In a preview unknown outputs never resolve: only an update reports the exports.
    if (!preview && exported && typeof exported === "object") {
      for (const [key, value] of Object.entries(exported)) outputs[key] = await resolved(value);
    }
    // Waits until every queued resource operation (serialization of __provider included) has
    // finished.
    await pulumi.runtime.disconnect();
  } catch (error) {
    failures.push(error);
  }
  // Give rejections that were raised during disconnect a turn to surface.
  await new Promise((resolve) => setImmediate(resolve));
  if (pulumi.log.hasErrors()) failures.push(new Error("the program logged errors (see above)"));
  // One failed registration rejects every output of the resource: print each distinct error once.
  const printed = new Set();
  for (const failure of failures) {
    const text = (failure && failure.stack) || String(failure);
    if (!printed.has(text)) console.error(text);
    printed.add(text);
  }
  const line = RUNNER_MARK + JSON.stringify({ registrations, outputs, toolchain }) + "\n";
  process.stdout.write(line, () => process.exit(failures.length > 0 ? 1 : 0));
})();
