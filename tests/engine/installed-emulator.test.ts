/**
 * The emulator as users get it: from the packed package installed in another project, through
 * its `arcgis-admin-emulator` bin and through `require("pulumi-arcgis-admin/emulator")`.
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { runTempDir } from "../../tools/harness/temp";
import { prepareConsumer, type Consumer, closeAll } from "../../tools/harness/consumer";

const run = promisify(execFile);
let consumer: Consumer;

beforeAll(async () => {
  consumer = await prepareConsumer();
}, 180_000);

afterAll(() => closeAll(consumer));

/** The bin as npm would link it: the file package.json's `bin` names, run with this Node. */
function binPath(): string {
  const pkgDir = path.join(consumer.dir, "node_modules", "pulumi-arcgis-admin");
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  return path.join(pkgDir, pkg.bin["arcgis-admin-emulator"]!);
}

describe("the installed emulator", () => {
  it("ships its bin with a node shebang", () => {
    expect(fs.readFileSync(binPath(), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  });

  it("prints exactly one ready line from the bin and stops on SIGTERM", async () => {
    const dataDir = runTempDir("installed-emu-");
    const child = spawn(process.execPath, [binPath(), "--data-dir", dataDir], {
      cwd: consumer.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line: ${stdout}`)), 30_000);
      child.stdout.on("data", () => {
        if (stdout.includes("\n")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const ready = JSON.parse(stdout.trim()) as Record<string, unknown>;
    expect(Object.keys(ready).sort()).toEqual(
      [
        "adminUrl",
        "caCertFile",
        "healthUrl",
        "portalId",
        "sharingUrl",
        "serverType",
        "serverVersion",
      ].sort(),
    );
    expect(ready).toMatchObject({ serverType: "mission-server", serverVersion: "11.3.0" });
    expect(ready.adminUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin$/);
    expect(fs.existsSync(ready.caCertFile as string)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
  });

  it("starts from code through the package's ./emulator export", async () => {
    const script = `
      const { startEmulator } = require("pulumi-arcgis-admin/emulator");
      (async () => {
        const dataDir = ${JSON.stringify(runTempDir("installed-emu-code-"))};
        const emu = await startEmulator({ dataDir, quiet: true });
        console.log(JSON.stringify({ adminUrl: emu.adminUrl, portalId: emu.portalId }));
        await emu.close();
      })();
    `;
    const { stdout } = await run(process.execPath, ["-e", script], { cwd: consumer.dir });
    const out = JSON.parse(stdout.trim()) as { adminUrl: string; portalId: string };
    expect(out.adminUrl).toMatch(/\/arcgis\/admin$/);
    expect(out.portalId.length).toBeGreaterThan(0);
  });
});
