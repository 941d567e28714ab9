/**
 * Downloads of a site export under the faults that threaten the machine running Pulumi: a body
 * that never ends (it must not fill the disk), a body that trickles one byte every two seconds (it
 * must not outlive timeouts.exportMs), and a provider host killed with SIGKILL in the middle of a
 * download (its hidden partial file must not stay in the folder forever).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { verifyArchive } from "../../provider/client";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  startFaultProxy,
  type Fault,
  type FaultProxy,
  proxiedAdminUrl,
} from "../../tools/harness/fault-proxy";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";
import { sleep } from "../../tools/harness/until";
import { runTempDir } from "../../tools/harness/temp";

const figures = new SuiteFigures("faults-downloads");
afterAll(() => figures.write());

const REPO = path.resolve(__dirname, "../..");
const ADMIN = { username: "siteadmin", password: "download-Fault-Pw-6e2a" };

let emu: TestEmulator;
let proxy: FaultProxy;
let adminUrl: string;
const dirs: string[] = [];

async function tempDir(prefix: string): Promise<string> {
  const dir = runTempDir(prefix);
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  emu = await startTestEmulator({ tls: false, createDelayMs: 50, exportDelayMs: 50 });
  // The Host header is kept, so the download URL the emulator answers points at the proxy.
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin, { preserveHost: true });
  adminUrl = proxiedAdminUrl(proxy, emu);
  const created = await site.create(
    (await site.check({}, siteInputs(emu, { adminUrl, ...ADMIN, runAsync: false }))).inputs,
  );
  expect(created.outs.state).toBe("created");
});

afterEach(() => proxy.setRule(() => undefined));

afterAll(async () => {
  await proxy?.close();
  await emu?.close();
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function exportInputs(extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await siteExport.check({}, { adminUrl, ...ADMIN, ...extra });
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

/** Applies `fault` to the archive downloads (GET .../uploads/<id>) only. */
function onDownloads(fault: Fault): void {
  proxy.setRule(({ method, path: p }) =>
    method === "GET" && p.includes("/arcgis/admin/uploads/") ? fault : undefined,
  );
}

describe("SiteExport download: a body that never ends", () => {
  it("stops at maxDownloadBytes with an error naming it, and keeps nothing", async () => {
    const downloads = await tempDir("faults-endless-");
    const limit = 8 * 1024 * 1024;
    onDownloads({ kind: "endless-body" });
    const sentBefore = proxy.bytesSent();
    const outcome = await measure(
      siteExport.create(await exportInputs({ downloadTo: downloads, maxDownloadBytes: limit })),
    );
    const error = errorOf(outcome);
    expect(error.message).toMatch(
      new RegExp(
        `downloadExport on .* failed: the file grew past the limit, more than the download limit of ${limit} bytes \\(maxDownloadBytes\\); nothing was kept`,
      ),
    );
    expect(error.message).not.toContain(ADMIN.password);
    // Nothing stays in the folder: no archive, no partial file.
    expect(await fs.readdir(downloads)).toEqual([]);
    const sent = proxy.bytesSent() - sentBefore;
    expect(sent).toBeGreaterThan(limit);
    figures.record(
      "endless download body stopped at maxDownloadBytes",
      { faultsInjected: 1, faultsSurvived: 1, dataLost: 0 },
      { limitBytes: limit, bytesSentByServer: sent, tookMs: outcome.ms },
    );
  }, 60_000);

  it("has a generous default limit of 4 GiB", async () => {
    const inputs = await exportInputs({ downloadTo: "./backups" });
    expect(inputs.maxDownloadBytes).toBe(4 * 1024 ** 3);
  });

  it("refuses at once a download whose Content-Length is above the limit", async () => {
    const downloads = await tempDir("faults-announced-");
    proxy.setRule(({ method, path: p }) =>
      method === "GET" && p.includes("/arcgis/admin/uploads/")
        ? {
            kind: "answer",
            status: 200,
            body: "PK",
            contentType: "application/octet-stream",
            // The announced size alone decides: the limit is judged before anything is written.
            headers: { "content-length": "1000000" },
          }
        : undefined,
    );
    const outcome = await measure(
      siteExport.create(await exportInputs({ downloadTo: downloads, maxDownloadBytes: 1000 })),
    );
    expect(errorOf(outcome).message).toMatch(
      /the server announces 1000000 bytes, more than the download limit of 1000 bytes \(maxDownloadBytes\)/,
    );
    expect(await fs.readdir(downloads)).toEqual([]);
    figures.record("download announced above maxDownloadBytes", {
      faultsInjected: 1,
      faultsSurvived: 1,
      dataLost: 0,
    });
  });
});

describe("SiteExport download: a body that trickles", () => {
  it("ends within timeouts.exportMs (the whole export, download included), keeping nothing", async () => {
    const downloads = await tempDir("faults-trickle-");
    onDownloads({ kind: "trickle", everyMs: 2000 });
    const outcome = await measure(
      siteExport.create(
        await exportInputs({ downloadTo: downloads, timeouts: { exportMs: 3000 } }),
      ),
    );
    const error = errorOf(outcome);
    expect(error.message).toMatch(
      /Downloading the export .*\/uploads\/\w+ to .* did not complete within timeouts\.exportMs \(3000 ms\), which bounds the whole export, download included\. The partial file was removed\./,
    );
    expect(await fs.readdir(downloads)).toEqual([]);
    figures.record(
      "download trickling 1 byte every 2 s under timeouts.exportMs 3000",
      { faultsInjected: 1, faultsSurvived: 1, dataLost: 0 },
      { exportMs: 3000, tookMs: outcome.ms },
    );
  }, 30_000);
});

/**
 * Transpiles provider/client into `outDir` (as tools/harness/spawn-emulator.ts does for the
 * emulator), so that a child process can run the real download code and be killed.
 */
async function transpileClient(root: string): Promise<string> {
  const outDir = path.join(root, "client");
  const walk = async (rel: string): Promise<void> => {
    const src = path.join(REPO, "provider", "client", rel);
    await fs.mkdir(path.join(outDir, rel), { recursive: true });
    for (const entry of await fs.readdir(src, { withFileTypes: true })) {
      const relChild = path.join(rel, entry.name);
      if (entry.isDirectory()) await walk(relChild);
      else if (entry.name.endsWith(".ts")) {
        const { outputText } = ts.transpileModule(
          await fs.readFile(path.join(src, entry.name), "utf8"),
          {
            fileName: entry.name,
            compilerOptions: {
              module: ts.ModuleKind.CommonJS,
              target: ts.ScriptTarget.ES2023,
              esModuleInterop: true,
            },
          },
        );
        await fs.writeFile(path.join(outDir, relChild.replace(/\.ts$/, ".js")), outputText);
      }
    }
  };
  await walk("");
  // The client loads the Node.js version check, the URL helper and the sentence ending from the
  // folder above.
  for (const name of ["node-version", "url", "sentence"]) {
    const { outputText } = ts.transpileModule(
      await fs.readFile(path.join(REPO, "provider", `${name}.ts`), "utf8"),
      {
        fileName: `${name}.ts`,
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2023,
          esModuleInterop: true,
        },
      },
    );
    await fs.writeFile(path.join(outDir, "..", `${name}.js`), outputText);
  }
  return path.join(outDir, "index.js");
}

/** A child process downloading `url` into `dir` with the real client code. */
function downloadingChild(client: string, url: string, dir: string): ChildProcess {
  const script =
    "const [client, url, dir] = process.argv.slice(1);" +
    "require(client).downloadToFile({ url, operation: 'downloadExport', dest: { dir } })" +
    ".catch((e) => { console.error(e.message); process.exit(1); });";
  return spawn(process.execPath, ["-e", script, client, url, dir], {
    env: { ...process.env, NODE_PATH: path.join(REPO, "node_modules") },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** Waits until a hidden `.part` file that is not in `known` appears in `dir`; returns its name. */
async function newPartial(dir: string, known: readonly string[]): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = (await fs.readdir(dir)).find(
      (n) => n.startsWith(".") && n.endsWith(".part") && !known.includes(n),
    );
    if (found !== undefined) return found;
    await sleep(50);
  }
  throw new Error(`no new partial file appeared in ${dir}`);
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(child.signalCode ?? child.exitCode);
  }
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
}

describe("a download killed with SIGKILL", () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) {
      child.kill("SIGKILL");
      await exited(child);
    }
  });

  it("leaves a partial file that the next download into the folder removes, and only that one", async () => {
    const downloads = await tempDir("faults-killed-");
    const client = await transpileClient(await tempDir("faults-client-"));
    // The children download from a URL whose answer trickles, so they are mid-download for good.
    proxy.setRule(({ path: p }) =>
      p.includes("/uploads/trickle") ? { kind: "trickle", everyMs: 100 } : undefined,
    );
    const killed = downloadingChild(client, `${adminUrl}/uploads/trickle-1`, downloads);
    children.push(killed);
    const killedPartial = await newPartial(downloads, []);
    const alive = downloadingChild(client, `${adminUrl}/uploads/trickle-2`, downloads);
    children.push(alive);
    const alivePartial = await newPartial(downloads, [killedPartial]);
    killed.kill("SIGKILL");
    expect(await exited(killed)).toBe("SIGKILL");
    // What kill -9 leaves behind: the hidden partial file, for good.
    expect(await fs.readdir(downloads)).toContain(killedPartial);

    // Other files that must stay: someone else's hidden .part file, and a fresh partial file of
    // the old naming (no pid: only age tells). One of the old naming not written for 2 hours goes.
    const foreign = ".notes.part";
    const freshOld = ".20260101-000000-UTC.agssite.0123456789ab.part";
    const staleOld = ".20250101-000000-UTC.agssite.ba9876543210.part";
    for (const name of [foreign, freshOld, staleOld]) {
      await fs.writeFile(path.join(downloads, name), "partial");
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await fs.utimes(path.join(downloads, staleOld), twoHoursAgo, twoHoursAgo);
    await fs.utimes(path.join(downloads, foreign), twoHoursAgo, twoHoursAgo);

    // The next download into that folder, through the resource.
    const outcome = await measure(siteExport.create(await exportInputs({ downloadTo: downloads })));
    const { outs } = valueOf(outcome);
    await verifyArchive(outs.localPath as string);
    const after = (await fs.readdir(downloads)).sort();
    expect(after).toEqual(
      [path.basename(outs.localPath as string), alivePartial, foreign, freshOld].sort(),
    );
    expect(after).not.toContain(killedPartial);
    expect(after).not.toContain(staleOld);
    figures.record(
      "provider SIGKILLed mid-download, then the next download into the folder",
      { faultsInjected: 1, faultsSurvived: 1, dataLost: 0 },
      { removedStalePartials: 2, keptLiveOrForeign: 3 },
    );
  }, 60_000);
});
