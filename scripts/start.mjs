#!/usr/bin/env node
// @ts-check
/** `npm start`: the quick start (Pulumi.yaml) on the local emulator, with plain `pulumi` commands. */
import fs from "node:fs";
import path from "node:path";
import qs from "./quickstart.cjs";

const usage = `Usage: npm start [-- --port N --stack NAME --state-dir DIR --data-dir DIR
                    --download-dir DIR --skip-build]`;

await qs.runCommand("npm start", usage, async ({ settings, env, pulumi }) => {
  const { stack } = settings;
  // The build also links node_modules/pulumi-arcgis-admin here (scripts/self-link.cjs).
  if (!settings.skipBuild) qs.build();
  const running = await qs.daemon().findRunning(settings.dataDir);
  if (running) qs.log(`Reusing the emulator (process ${running.pid}) at ${running.adminUrl}.`);
  // Started while the stack is prepared, which needs nothing of it.
  const starting = running ? Promise.resolve(running) : qs.startEmulatorInBackground(settings);
  starting.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  qs.log(`State: ${env.PULUMI_BACKEND_URL} (passphrase: ${qs.DEMO_PASSPHRASE})`);
  fs.mkdirSync(settings.stateDir, { recursive: true }); // a file backend needs its folder
  await pulumi(["stack", "select", "--create", stack, "--non-interactive"]);
  // A password already in the stack's config is not set again: a CLI start and a key derivation less.
  const stackFile = path.join(qs.REPO_ROOT, `Pulumi.${stack}.yaml`);
  const stored = fs.existsSync(stackFile) ? fs.readFileSync(stackFile, "utf8") : "";
  for (const [key, value] of Object.entries(qs.readSeed().secret)) {
    if (stored.includes(`${key}:\n    secure:`)) continue;
    await pulumi(["config", "set", "--secret", "--stack", stack, key], { input: value });
  }
  const killed = await qs.recoverKilledRun(pulumi, settings);
  const emulator = await starting;
  if (!running) qs.log(`Started the emulator (process ${emulator.pid}) at ${emulator.adminUrl}.`);
  if (!running) qs.log(`  data: ${settings.dataDir}  log: ${emulator.logFile}`);
  // The plain values go with `up` (`--config` saves them first). After a killed run, the site on
  // the emulator is the one that run created, and the quick start adopts it.
  const { plain } = qs.stackConfig(emulator, settings);
  const config = Object.entries(plain).flatMap(([key, value]) => ["--config", `${key}=${value}`]);
  if (killed) config.push("--config", "adoptExistingSite=true");
  await qs.runRecorded(pulumi, settings, "up", ...config);
  console.log(
    `\nThe emulator keeps running (process ${emulator.pid}); \`npm run destroy\` deletes the ` +
      "collaboration, stops the emulator and removes its data. Downloaded backups stay in " +
      `${settings.downloadDir}.`,
  );
});
