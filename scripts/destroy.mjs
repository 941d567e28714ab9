#!/usr/bin/env node
// @ts-check
/** `npm run destroy`: undoes `npm start` (the stack stays, empty, and so do downloaded backups). */
import fs from "node:fs";
import qs from "./quickstart.cjs";

const usage = "Usage: npm run destroy [-- --port N --stack NAME --state-dir DIR --data-dir DIR]";

await qs.runCommand("npm run destroy", usage, async ({ settings, env, pulumi }) => {
  const { stack, stateDir, dataDir } = settings;
  // An absent state folder has no stack; `pulumi stack ls` would create the backend's files.
  const listing = fs.existsSync(stateDir)
    ? (await pulumi(["stack", "ls", "--json"], { capture: true })).stdout
    : "[]";
  const stacks = /** @type {{name: string, resourceCount?: number}[]} */ (qs.parseJson(listing));
  const found = stacks.find((s) => s.name === stack || s.name.endsWith(`/${stack}`));
  if ((found?.resourceCount ?? 0) > 0) {
    // The destroy deletes the collaboration on the emulator.
    if ((await qs.daemon().findRunning(dataDir)) === undefined) {
      const emulator = await qs.startEmulatorInBackground(settings);
      qs.log(`Started the emulator (process ${emulator.pid}) for the destroy.`);
    }
    await qs.recoverKilledRun(pulumi, settings);
    await qs.runRecorded(pulumi, settings, "destroy");
  } else {
    qs.log(`No resources in stack ${stack} (${env.PULUMI_BACKEND_URL}): nothing to destroy.`);
  }
  const stopped = await qs.daemon().stopDetached(dataDir);
  if (stopped !== undefined) qs.log(`Stopped the emulator (process ${stopped}).`);
  if (qs.removeEmulatorData(dataDir)) qs.log(`Removed the emulator's files from ${dataDir}.`);
  console.log(
    `\nQuick start destroyed. Downloaded backups, if any, are still in ${settings.downloadDir}.`,
  );
});
