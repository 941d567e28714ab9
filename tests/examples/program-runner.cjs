"use strict";
/**
 * Runs a TypeScript Pulumi program the way `pulumi up` does, but against Pulumi's mocks.
 *
 * Usage: node program-runner.cjs <program file> <project> <stack>, with the program's folder as
 * cwd (what the engine passes as `--pwd` when Pulumi.yaml's `main` names a file) and the stack
 * config in PULUMI_CONFIG.
 *
 * TypeScript is set up exactly as @pulumi/pulumi/cmd/run/run.js does for a CommonJS project (the
 * same ts-node and typescript lookup through tsutils, the same options merged with the
 * tsconfig.json of the cwd, type checking on), so a program that runs here compiles under the
 * real Node.js language host too. Then setMocks records every registered resource (inputs
 * including the serialized `__provider`, and the resource options the mock monitor hides) and
 * the program's exports are resolved.
 *
 * Prints one line: RUNNER_MARK + JSON {registrations, outputs}. Exits 1 on any program error.
 */
const fs = require("node:fs");
const path = require("node:path");

const RUNNER_MARK = "__PROGRAM_RUNNER__ ";
const [programArg, project, stack] = process.argv.slice(2);
const program = path.resolve(programArg);
const failures = [];
process.on("uncaughtException", (error) => failures.push(error));
process.on("unhandledRejection", (error) => failures.push(error));

// Resolved from the program's folder, as the language host resolves @pulumi/pulumi/cmd/run.
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

// The mock monitor hands newResource only part of the request: keep the request for the options.
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

const registrations = [];
const mocks = {
  newResource(args) {
    const req = currentRequest;
    registrations.push({
      type: args.type,
      name: args.name,
      inputs: args.inputs,
      custom: args.custom === true,
      options: req && {
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        dependencies: req.getDependenciesList(),
      },
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
  let toolchain;
  const outputs = {};
  try {
    toolchain = registerTypeScript();
    await pulumi.runtime.setMocks(mocks, project, stack, false);
    const exported = require(program);
    for (const [key, value] of Object.entries(exported)) outputs[key] = await resolved(value);
    await pulumi.runtime.disconnect();
  } catch (error) {
    failures.push(error);
  }
  await new Promise((resolve) => setImmediate(resolve));
  if (pulumi.log.hasErrors()) failures.push(new Error("the program logged errors (see above)"));
  const printed = new Set();
  for (const failure of failures) {
    const text = (failure && failure.stack) || String(failure);
    if (!printed.has(text)) console.error(text);
    printed.add(text);
  }
  const line = RUNNER_MARK + JSON.stringify({ registrations, outputs, toolchain }) + "\n";
  process.stdout.write(line, () => process.exit(failures.length > 0 ? 1 : 0));
})();
