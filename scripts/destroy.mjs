#!/usr/bin/env node
// @ts-check
/**
 * `npm run destroy`: undoes `npm start`.
 *
 * 1. Finds the Pulumi CLI, exactly as `npm start` does; without one, stops at once.
 * 2. When the stack holds resources: makes sure the emulator runs (the destroy talks to it: it deletes the
 *    collaboration) and runs the real `pulumi destroy` (through scripts/pulumi-driver.cjs).
 * 3. Stops the emulator and removes its data dir, so that the next `npm start` begins afresh
 *    (the site was left on the emulator, as Site leaves sites by default, and the collaboration
 *    is gone). The stack itself is kept, empty, and backups stay in site-exports/.
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

/** @type {ReturnType<typeof qs.startDriver> | undefined} */
let driver;
try {
  const cli = await qs.resolvePulumiCli({ log });
  if (cli === undefined) {
    process.stderr.write(`\n${qs.noCliMessage("npm run destroy")}\n\n`);
    process.exit(1);
  }
  log(`Pulumi CLI: ${cli.source}`);
  const env = qs.pulumiEnv(settings);
  const stack = settings.stack;
  // Destroy only a stack that holds resources: an absent or empty one needs no emulator. The
  // count comes from the stack's checkpoint; `pulumi stack ls` only when it cannot be read.
  let resources = fs.existsSync(settings.stateDir)
    ? qs.stackResourceCount(settings.stateDir, stack)
    : 0;
  if (resources === undefined) {
    const listing = await qs.mustRunPulumi(cli, ["stack", "ls", "--json"], {
      env,
      log,
      capture: true,
    });
    /** @type {unknown} */
    const parsed = JSON.parse(listing.stdout);
    const stacks = /** @type {{name: string, resourceCount?: number}[]} */ (parsed);
    const found = stacks.find((s) => s.name === stack || s.name.endsWith(`/${stack}`));
    resources = found === undefined ? 0 : (found.resourceCount ?? Infinity);
  }
  if (resources > 0) {
    // Started now: it loads the automation API while the CLI check and the emulator run.
    driver = qs.startDriver(cli, env);
    const version = await qs.cliVersion(cli, { env, log });
    qs.ensureSelfLink();
    if ((await qs.runningEmulator(settings.dataDir)) === undefined) {
      const emulator = await qs.startEmulatorInBackground(settings);
      log(`Started the emulator (process ${emulator.pid}) for the destroy.`);
    }
    const result = await driver.run("destroy", {
      env,
      stack,
      log,
      cliVersion: version,
      stackFile: qs.stackFileOf(settings.stateDir, stack),
    });
    if (!result.ok) throw new Error("`pulumi destroy` failed (its output is above).");
  } else {
    log(`No resources in stack ${stack} (${env.PULUMI_BACKEND_URL}): nothing to destroy.`);
  }

  const stopped = await qs.stopEmulator(settings.dataDir);
  if (stopped !== undefined) log(`Stopped the emulator (process ${stopped}).`);
  if (qs.removeEmulatorData(settings.dataDir)) {
    if (!fs.existsSync(settings.dataDir)) log(`Removed ${settings.dataDir}.`);
    else {
      const kept = fs.readdirSync(settings.dataDir).filter((name) => !name.startsWith("."));
      log(
        `Removed the emulator's files from ${settings.dataDir}` +
          (kept.length > 0 ? `; kept what else is there: ${kept.join(", ")}.` : "."),
      );
    }
  }
  console.log(
    `\nQuick start destroyed. Downloaded backups, if any, are still in ${settings.downloadDir}.`,
  );
} catch (error) {
  driver?.close();
  process.stderr.write(
    `\nnpm run destroy failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
