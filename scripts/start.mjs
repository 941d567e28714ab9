#!/usr/bin/env node
// @ts-check
/**
 * `npm start`: deploys the quick start (the root Pulumi.yaml, examples/quickstart) against the
 * local emulator with the Pulumi CLI, as a user would type it:
 * `pulumi stack select --create`, `pulumi config set --secret` (on stdin) and
 * `pulumi up --yes --config ...`, whose
 * display ends with the stack's outputs. The CLI is `pulumi` on PATH, else the
 * engine scripts/engine.cjs builds. The emulator runs in the background until `npm run destroy`.
 *
 * Flags (mostly for tests): --port N (default 20443; 0 picks a free one), --stack NAME,
 * --state-dir DIR, --data-dir DIR, --download-dir DIR, --skip-build.
 */
import fs from "node:fs";
import path from "node:path";
import qs from "./quickstart.cjs";

const settings = qs.readCommandLine("npm start", [
  "Usage: npm start [-- --port N --stack NAME --state-dir DIR --data-dir DIR",
  "                    --download-dir DIR --skip-build]",
]);
/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);

try {
  const cli = await qs.resolvePulumiCli({ log });
  if (cli === undefined) {
    process.stderr.write(`\n${qs.noCliMessage("npm start")}\n\n`);
    process.exit(1);
  }
  log(`Pulumi CLI: ${cli.source}`);
  // The build also links node_modules/pulumi-arcgis-admin here (scripts/self-link.cjs).
  if (!settings.skipBuild) qs.build();

  // The emulator starts in the background while the stack is prepared: that needs nothing of it.
  const running = await qs.runningEmulator(settings.dataDir);
  if (running !== undefined) {
    log(`Reusing the emulator (process ${running.pid}) at ${running.adminUrl}.`);
  }
  const starting = running === undefined ? qs.startEmulatorInBackground(settings) : undefined;
  starting?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile

  const env = qs.pulumiEnv(settings);
  const stack = settings.stack;
  /** @type {(args: string[], options?: {input?: string, capture?: boolean}) => ReturnType<typeof qs.runPulumi>} */
  const pulumi = (args, options = {}) => qs.runPulumi(cli, args, { env, log, ...options });
  log(`State: ${env.PULUMI_BACKEND_URL} (passphrase: ${qs.DEMO_PASSPHRASE})`);
  fs.mkdirSync(settings.stateDir, { recursive: true }); // a file backend needs its folder
  await qs.mustRunPulumi(cli, ["stack", "select", "--create", stack, "--non-interactive"], {
    env,
    log,
  });
  // The passwords are fixed demo values: one already stored (encrypted) in the stack's config
  // file is not set again, which saves a CLI start and a key derivation each.
  const stackFile = path.join(qs.REPO_ROOT, `Pulumi.${stack}.yaml`);
  const stored = fs.existsSync(stackFile) ? fs.readFileSync(stackFile, "utf8") : "";
  for (const [key, value] of Object.entries(qs.stackSecrets())) {
    if (stored.includes(`${key}:\n    secure:`)) continue;
    await qs.mustRunPulumi(cli, ["config", "set", "--secret", "--stack", stack, key], {
      env,
      log,
      input: value,
    });
  }
  // A run killed before it could finish left its lock and its creates pending: Pulumi's own
  // commands finish it, and the site that run created is then adopted, not created again.
  const killed = qs.killedRun(settings.stateDir);
  if (killed !== undefined) {
    log(`The last \`pulumi ${killed}\` was killed; finishing it with pulumi cancel and refresh.`);
    await qs.recoverKilledRun(pulumi, stack, settings.stateDir);
  }
  const emulator = running ?? (await /** @type {NonNullable<typeof starting>} */ (starting));
  if (running === undefined) {
    log(`Started the emulator (process ${emulator.pid}) at ${emulator.adminUrl}.`);
    log(`  data: ${settings.dataDir}  log: ${emulator.logFile}`);
  }
  const { plain } = qs.stackConfig(emulator, settings);
  // The plain values go with `up` itself (`--config`: saved to the stack's config first).
  const config = Object.entries(plain).flatMap(([k, v]) => ["--config", `${k}=${v}`]);
  // After a killed run, the site on the machine is the one that run created (the emulator and
  // its data are the quick start's own): the quick start adopts it (examples/quickstart).
  if (killed !== undefined) config.push("--config", "adoptExistingSite=true");
  const up = await qs.runRecorded(
    cli,
    ["up", "--yes", "--skip-preview", "--stack", stack, ...config],
    settings.stateDir,
    { env, log },
  );
  if (up.code !== 0) throw new Error("`pulumi up` failed (its output is above).");
  console.log(
    `\nThe emulator keeps running (process ${emulator.pid}); \`npm run destroy\` deletes the ` +
      "collaboration, stops the emulator and removes its data. Downloaded backups stay in " +
      `${settings.downloadDir}.`,
  );
} catch (error) {
  process.stderr.write(
    `\nnpm start failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
