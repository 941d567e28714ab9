/**
 * The self-contained plugin archive as a release has it: built by its one command
 * (toolchain/plugin-archive.cjs) and served over HTTP from a folder, as the release location of
 * the schema's `pluginDownloadURL` serves it.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { run } from "./process";
import { REPO_ROOT } from "./project";
import { runTempDir } from "./temp";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const archiveScript = require("../../toolchain/plugin-archive.cjs") as {
  archiveName(version: string, platform: string): string;
  hostPlatform(): string;
};

export const { archiveName, hostPlatform } = archiveScript;

/** The package's version, the plugin's. */
export function pluginVersion(): string {
  return (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
}

/**
 * Runs `node toolchain/plugin-archive.cjs --platform <this machine's> --out <out>` (what `npm run
 * plugin-archive` runs after the build) with a temporary folder of its own, and returns the
 * archive and what the command left in that temporary folder (nothing, when it cleans up).
 */
export async function buildHostArchive(
  out: string,
  downloadUrl: string,
): Promise<{ file: string; leftInTmp: string[]; stdout: string }> {
  const tmp = runTempDir("plugin-archive-tmp-");
  try {
    const result = await run(
      process.execPath,
      [
        path.join(REPO_ROOT, "toolchain", "plugin-archive.cjs"),
        "--platform",
        hostPlatform(),
        "--out",
        out,
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, TMPDIR: tmp, ARCGIS_ADMIN_PLUGIN_DOWNLOAD_URL: downloadUrl },
        timeoutMs: 600_000,
      },
    );
    if (result.code !== 0)
      throw new Error(`plugin-archive failed:\n${result.stdout}${result.stderr}`);
    return {
      file: path.join(out, archiveName(pluginVersion(), hostPlatform())),
      leftInTmp: fs.readdirSync(tmp),
      stdout: result.stdout,
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** A static HTTP server on 127.0.0.1 for one folder, recording the paths asked for. */
export interface ReleaseServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of `dir` (no listing, no subfolders) at `http://127.0.0.1:<port>/`. */
export async function serveReleases(dir: string): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname.slice(1));
    requests.push(name);
    const file = path.join(dir, path.basename(name));
    if (name.includes("/") || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": "application/gzip",
      "content-length": fs.statSync(file).size,
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A PATH for the `pulumi` CLI with no Node.js on it: the engine's folder (its language hosts
 * beside it), and a folder of links to the few system commands the programs' hosts and the
 * plugin's launcher use. With `systemNode`, the system's folders instead (this machine's `node`
 * there is older than the package's).
 */
export function cliPath(engineBin: string, linkDir: string, systemNode: boolean): string {
  if (systemNode) return [path.dirname(engineBin), "/usr/bin", "/bin"].join(path.delimiter);
  fs.mkdirSync(linkDir, { recursive: true });
  for (const tool of ["sh", "dirname", "python3", "uname", "git"]) {
    const found = ["/usr/bin", "/bin"].map((d) => path.join(d, tool)).find((f) => fs.existsSync(f));
    if (found !== undefined && !fs.existsSync(path.join(linkDir, tool))) {
      fs.symlinkSync(found, path.join(linkDir, tool));
    }
  }
  return [path.dirname(engineBin), linkDir].join(path.delimiter);
}
