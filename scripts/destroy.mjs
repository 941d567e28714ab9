#!/usr/bin/env node
// @ts-check
/**
 * `npm run destroy`: undoes `npm start`. When the stack holds resources (`pulumi stack ls`), makes
 * sure the emulator runs (the destroy deletes the collaboration on it) and runs
 * `pulumi destroy --yes`; then stops the emulator and removes its data, so that the next
 * `npm start` begins afresh. The stack is kept, empty; backups stay in site-exports/.
 *
 * Takes the same flags as scripts/start.mjs.
 */
import fs from "node:fs";
import qs from "./quickstart.cjs";

const settings = qs.readCommandLine("npm run destroy", [
  "Usage: npm run destroy [-- --port N --stack NAME --state-dir DIR --data-dir DIR]",
]);
/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);

try {
  const cli = await qs.resolvePulumiCli({ log });
  if (cli === undefined) {
    process.stderr.write(`\n${qs.noCliMessage("npm run destroy")}\n\n`);
    process.exit(1);
  }
  log(`Pulumi CLI: ${cli.source}`);
  const env = qs.pulumiEnv(settings);
  const stack = settings.stack;
  // An absent state folder has no stack; `pulumi stack ls` would create the backend's files.
  const listing = fs.existsSync(settings.stateDir)
    ? await qs.mustRunPulumi(cli, ["stack", "ls", "--json"], { env, log, capture: true })
    : { stdout: "[]" };
  const stacks = /** @type {{name: string, resourceCount?: number}[]} */ (
    qs.parseJson(listing.stdout)
  );
  const found = stacks.find((s) => s.name === stack || s.name.endsWith(`/${stack}`));
  if ((found?.resourceCount ?? 0) > 0) {
    if ((await qs.runningEmulator(settings.dataDir)) === undefined) {
      const emulator = await qs.startEmulatorInBackground(settings);
      log(`Started the emulator (process ${emulator.pid}) for the destroy.`);
    }
    const killed = qs.killedRun(settings.stateDir);
    if (killed !== undefined) {
      log(`The last \`pulumi ${killed}\` was killed; finishing it with pulumi cancel and refresh.`);
      await qs.recoverKilledRun(
        (args) => qs.runPulumi(cli, args, { env, log }),
        stack,
        settings.stateDir,
      );
    }
    const destroyed = await qs.runRecorded(
      cli,
      ["destroy", "--yes", "--skip-preview", "--stack", stack],
      settings.stateDir,
      { env, log },
    );
    if (destroyed.code !== 0) throw new Error("`pulumi destroy` failed (its output is above).");
  } else {
    log(`No resources in stack ${stack} (${env.PULUMI_BACKEND_URL}): nothing to destroy.`);
  }

  const stopped = await qs.stopEmulator(settings.dataDir);
  if (stopped !== undefined) log(`Stopped the emulator (process ${stopped}).`);
  if (qs.removeEmulatorData(settings.dataDir))
    log(`Removed the emulator's files from ${settings.dataDir}.`);
  console.log(
    `\nQuick start destroyed. Downloaded backups, if any, are still in ${settings.downloadDir}.`,
  );
} catch (error) {
  process.stderr.write(
    `\nnpm run destroy failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
