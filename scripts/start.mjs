#!/usr/bin/env node
// @ts-check
/**
 * `npm start`: deploys the quick start (examples/quickstart, through the root Pulumi.yaml) with
 * `pulumi up` against the local emulator, then prints the stack's outputs.
 *
 * 1. Finds the Pulumi CLI (PATH, else the `pulumi` npm package, else the engine that
 *    scripts/engine.cjs builds from source with Go: minutes the first time, then cached); without
 *    any, stops at once.
 * 2. Builds the package (`npm run build`).
 * 3. Links node_modules/pulumi-arcgis-admin to the repository (see ensureSelfLink).
 * 4. Reuses the emulator a previous run left running, or starts one in the background (seeded
 *    from examples/quickstart/emulator-seed.json, data in .emulator-data/quickstart/).
 * 5. Uses the file state backend in .pulumi-state/ with the demo passphrase (a new stack is
 *    created with `pulumi stack init` while the emulator starts), and runs the real `pulumi up` of
 *    the quick start through the automation API (scripts/pulumi-driver.cjs: it sets the stack's
 *    config from the emulator's ready line, passwords as secrets through stdin, and runs the
 *    program inline), then prints the stack's outputs.
 *
 * Running it again is fine: it reuses the emulator (or its data dir) and Pulumi finds nothing to
 * change. `npm run destroy` undoes it. Flags (mostly for tests): --port N (default 20443; 0 picks
 * a free one), --stack NAME, --state-dir DIR, --data-dir DIR, --download-dir DIR, --skip-build.
 */
import fs from "node:fs";
import qs from "./quickstart.cjs";

const settings = qs.readCommandLine("npm start", [
  "Usage: npm start [-- --port N --stack NAME --state-dir DIR --data-dir DIR",
  "                    --download-dir DIR --skip-build]",
]);
/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);

/** @type {ReturnType<typeof qs.startDriver> | undefined} */
let driver;
try {
  // 1. The CLI first: without one, nothing else may happen (no build, no emulator, no state).
  const cli = await qs.resolvePulumiCli({ log });
  if (cli === undefined) {
    process.stderr.write(`\n${qs.noCliMessage("npm start")}\n\n`);
    process.exit(1);
  }
  log(`Pulumi CLI: ${cli.source}`);
  const env = qs.pulumiEnv(settings);
  // Started now: it loads the automation API while the build, the emulator and the CLI check run.
  driver = qs.startDriver(cli, env);
  const version = await qs.cliVersion(cli, { env, log });
  log(`Pulumi CLI version ${version}`);

  // 2. Build: the providers and the emulator run from dist/.
  if (!settings.skipBuild) qs.build();

  // 3. The serialized providers require the package by name from the program's folder.
  if (qs.ensureSelfLink() === "created") {
    log(`Linked node_modules/${qs.PACKAGE_NAME} to this repository.`);
  }

  // 4. The emulator; meanwhile a new stack is created and given its secrets. `pulumi stack init`
  // and `config set --secret` need nothing of the emulator; each costs the CLI's start-up and the
  // passphrase's key derivation (PBKDF2, 1,000,000 rounds): about 0.28 s, three in sequence,
  // which the emulator's start (about 0.4 s) now partly covers instead of adding to `pulumi up`.
  fs.mkdirSync(settings.stateDir, { recursive: true });
  const stack = settings.stack;
  const secrets = qs.stackSecrets();
  const stackInit = qs.stackFileExists(settings.stateDir, stack)
    ? undefined
    : newStack(cli, stack, secrets, env);
  stackInit?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  let emulator = await qs.runningEmulator(settings.dataDir);
  if (emulator !== undefined) {
    log(`Reusing the emulator (process ${emulator.pid}) at ${emulator.adminUrl}.`);
  } else {
    emulator = await qs.startEmulatorInBackground(settings);
    log(`Started the emulator (process ${emulator.pid}) at ${emulator.adminUrl}.`);
    log(`  data: ${settings.dataDir}  log: ${emulator.logFile}`);
  }

  // 5. Pulumi, with its state in the repository.
  log(`State: ${env.PULUMI_BACKEND_URL} (passphrase: ${qs.DEMO_PASSPHRASE})`);
  const initialized = await stackInit;
  const { plain } = qs.stackConfig(emulator, settings);
  const config = {
    ...Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, { value: v }])),
    // Set above on the new stack (`set`): the driver does not set them again.
    ...Object.fromEntries(
      Object.entries(secrets).map(([k, v]) => [
        k,
        { value: v, secret: true, ...(initialized ? { set: true } : {}) },
      ]),
    ),
  };
  // A run killed before it could finish (SIGKILL, a lost runner) left a lock or an operation
  // pending: finish it first, so that this `pulumi up` sends nothing twice.
  for (const line of await qs.recoverInterruptedRun(cli, {
    env,
    stack,
    stateDir: settings.stateDir,
    log,
  })) {
    log(`Recovered from an interrupted run: ${line}.`);
  }
  const result = await driver.run("up", {
    env,
    stack,
    config,
    log,
    stackFile: qs.stackFileOf(settings.stateDir, stack),
    configRecord: qs.configRecordOf(settings.stateDir, stack),
    cliVersion: version,
  });
  if (!result.ok) throw new Error("`pulumi up` failed (its output is above).");

  const outputs = result.outputs ?? {};
  console.log("\nQuick start deployed. Stack outputs:");
  for (const [key, value] of Object.entries(outputs)) {
    console.log(`  ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  console.log(
    `\nThe emulator keeps running (process ${emulator.pid}); \`npm run destroy\` deletes the ` +
      "collaboration, stops the emulator and removes its data. Downloaded backups stay in " +
      `${settings.downloadDir}.`,
  );
} catch (error) {
  driver?.close();
  process.stderr.write(
    `\nnpm start failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}

/**
 * `pulumi stack init`, then each secret with `config set --secret`, the value on stdin (never on
 * a command line). Resolves with true once all are set; throws naming the command that failed.
 *
 * @param {Awaited<ReturnType<typeof qs.resolvePulumiCli>> & {}} cli
 * @param {string} stack
 * @param {Record<string, string>} secrets
 * @param {NodeJS.ProcessEnv} env
 */
async function newStack(cli, stack, secrets, env) {
  await qs.mustRunPulumi(cli, ["stack", "init", stack, "--non-interactive"], {
    env,
    capture: true,
    log,
  });
  for (const [key, value] of Object.entries(secrets)) {
    await qs.mustRunPulumi(
      cli,
      ["config", "set", "--secret", "--stack", stack, key, "--non-interactive"],
      { env, input: value, capture: true, log },
    );
  }
  return true;
}
