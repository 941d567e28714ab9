/**
 * The provider host keeps nothing per resource once its operation has ended: its memory is flat in
 * the number of sites once the modules are loaded. A child Node process runs what Pulumi's
 * dynamic-provider host runs for a fleet (host-memory-program.cjs: the built providers of a Site,
 * its SiteExport and its LogSettings, through up, an unchanged up, refresh and destroy, site after
 * site), against one emulator per site that this process starts and, once the site is done, stops
 * (the emulators' memory is not the host's; a stopped server closes its connections, as an idle
 * one does after its keep-alive timeout, and undici then drops that server's connection pool, as
 * the host's would). After a warm-up of more sites than the process-wide token cache keeps (its
 * limit lowered in the child, so that a few dozen sites fill it), the
 * child reads its heap after full collections, and again after further sites: the growth per
 * further site stays under a bound below what keeping anything of a site costs (its token, its
 * inputs; docs/fleet.md has the figures).
 */
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { tail } from "../../tools/harness/process";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

const PROGRAM = path.join(__dirname, "host-memory-program.cjs");
/**
 * The limit the child gives the process-wide token cache, below its default (which a test of a
 * few seconds cannot fill), so that the cache is full before the first reading.
 */
const TOKEN_CACHE_LIMIT = 32;
/** Sites before the first reading: the modules loaded, the token cache full. */
const WARM_UP = TOKEN_CACHE_LIMIT + 4;
/** Sites between the two readings. */
const FURTHER = 30;
/** The most a further site may add to the heap, or to the memory outside it, in bytes. */
const BOUND_PER_SITE = 512;
/**
 * V8's optimizing and baseline compilers off, feedback allocated at a function's first call,
 * bytecode never flushed: what the compilers make and the feedback they gather grows for minutes
 * in any process, as functions grow hot, bounded by the code and not by the sites; without them
 * the heap grows only by what the program keeps.
 */
const V8_FLAGS = [
  "--expose-gc",
  "--no-opt",
  "--no-maglev",
  "--no-sparkplug",
  "--no-lazy-feedback-allocation",
  "--no-flush-bytecode",
];

interface Reading {
  sites: number;
  heapUsed: number;
  external: number;
}

let dir: string;
let tls: { certFile: string; keyFile: string };
beforeAll(async () => {
  dir = runTempDir("host-memory-");
  // One certificate for every emulator (as figure 10's fleet): the host trusts one CA.
  const first = await startTestEmulator({ createDelayMs: 0 });
  try {
    tls = { certFile: path.join(dir, "cert.pem"), keyFile: path.join(dir, "key.pem") };
    fs.copyFileSync(first.caCertFile!, tls.certFile);
    fs.copyFileSync(path.join(path.dirname(first.caCertFile!), "key.pem"), tls.keyFile);
  } finally {
    await first.close();
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the child over `readAt` site counts, one emulator per site; its readings. */
async function runFleet(readAt: readonly number[], downloads: string): Promise<Reading[]> {
  const child = fork(PROGRAM, [], {
    cwd: REPO_ROOT,
    execArgv: V8_FLAGS,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: {
      ...process.env,
      REPO_ROOT,
      HOST_MEMORY_CA: tls.certFile,
      HOST_MEMORY_DOWNLOADS: downloads,
      HOST_MEMORY_READ_AT: JSON.stringify(readAt),
      HOST_MEMORY_TOKEN_CACHE_LIMIT: String(TOKEN_CACHE_LIMIT),
    },
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const running = new Map<number, TestEmulator>();
  try {
    return await new Promise<Reading[]>((resolve, reject) => {
      const failed = (error: unknown) =>
        reject(error instanceof Error ? error : new Error(String(error)));
      child.on("error", failed);
      child.on("exit", (code, signal) =>
        failed(new Error(`the host's child ended (${code ?? signal}):\n${tail(stderr)}`)),
      );
      child.on("message", (message: { site?: number; done?: number; readings?: Reading[] }) => {
        if (message.readings !== undefined) return resolve(message.readings);
        void (async () => {
          if (message.site !== undefined) {
            const emu = await startTestEmulator({ createDelayMs: 0, exportDelayMs: 0, tls });
            running.set(message.site, emu);
            child.send({ adminUrl: emu.adminUrl });
          } else if (message.done !== undefined) {
            const emu = running.get(message.done)!;
            running.delete(message.done);
            await emu.close();
            fs.rmSync(emu.dataDir, { recursive: true, force: true });
            child.send({});
          }
        })().catch(failed);
      });
    });
  } finally {
    child.kill();
    await Promise.all([...running.values()].map((emu) => emu.close()));
  }
}

it("keeps nothing per site once its resources' operations have ended", async () => {
  const downloads = path.join(dir, "downloads");
  const [warm, last] = await runFleet([WARM_UP, WARM_UP + FURTHER], downloads);
  // Every site's export was downloaded: the lifecycle ran against its server.
  expect(fs.readdirSync(downloads)).toHaveLength(WARM_UP + FURTHER);
  const perSite = (key: "heapUsed" | "external") => (last![key] - warm![key]) / FURTHER;
  expect(perSite("heapUsed")).toBeLessThanOrEqual(BOUND_PER_SITE);
  expect(perSite("external")).toBeLessThanOrEqual(BOUND_PER_SITE);
}, 120_000);
