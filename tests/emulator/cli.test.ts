/**
 * The `arcgis-admin-emulator` CLI as a real child process, from the emulator sources transpiled
 * with the TypeScript compiler API (tools/harness/spawn-emulator.ts: a full
 * `tsc -p tsconfig.build.json` would also compile, and depend on, the provider).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { Agent } from "undici";
import { send, SITE_ADMIN, type Answer } from "../../tools/harness/emulator-http";
import { runTempDir } from "../../tools/harness/temp";
import { readZip } from "../../tools/harness/zip";
import { buildEmulatorCli, READY_LINE_KEYS } from "../../tools/harness/spawn-emulator";

const REPO = path.resolve(__dirname, "../..");
let cli: string;

interface Ready {
  adminUrl: string;
  sharingUrl: string;
  healthUrl: string;
  caCertFile: string | null;
  portalId: string;
  serverType: string;
  serverVersion: string;
}

/** A spawned emulator. */
class Spawned {
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  ready!: Ready;
  agent!: Agent;

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (this.stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
  }

  static async start(args: string[]): Promise<Spawned> {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, NODE_PATH: path.join(REPO, "node_modules") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const spawned = new Spawned(child);
    await Promise.race([
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (spawned.stdout.includes("\n")) {
            child.stdout.off("data", check);
            resolve();
          }
        };
        child.stdout.on("data", check);
      }),
      spawned.exited.then(({ code }) => {
        throw new Error(`emulator exited (${code}) before it was ready: ${spawned.stderr}`);
      }),
    ]);
    spawned.ready = JSON.parse(spawned.stdout.split("\n")[0]!) as Ready;
    const ca =
      spawned.ready.caCertFile === null
        ? undefined
        : readFileSync(spawned.ready.caCertFile, "utf8");
    spawned.agent = new Agent(ca === undefined ? {} : { connect: { ca } });
    return spawned;
  }

  admin(op: string, form: Record<string, string> = {}): Promise<Answer> {
    return send(this.agent, "POST", `${this.ready.adminUrl}/${op}`, {
      form: { f: "json", ...form },
    });
  }

  async adminToken(): Promise<string> {
    const answer = await this.admin("generateToken", SITE_ADMIN);
    if (typeof answer.json?.token !== "string") throw new Error(`no token: ${answer.text}`);
    return answer.json.token as string;
  }

  async stop(
    signal: NodeJS.Signals = "SIGTERM",
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill(signal);
    const result = await this.exited;
    await this.agent.close();
    return result;
  }
}

/** Runs the CLI to completion (for --help and bad flags). */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, NODE_PATH: path.join(REPO, "node_modules") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    // "close" waits for stdout and stderr to be read to the end; "exit" may come first.
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  cli = await buildEmulatorCli();
});

describe("the arcgis-admin-emulator CLI", () => {
  let dataDir: string;
  const running: Spawned[] = [];
  beforeEach(async () => {
    dataDir = runTempDir("arcgis-emu-test-");
  });
  afterEach(async () => {
    for (const s of running.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) await s.stop("SIGKILL");
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const start = async (args: string[]): Promise<Spawned> => {
    const s = await Spawned.start(args);
    running.push(s);
    return s;
  };

  it("is the package's bin, with a node shebang", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8"));
    expect(pkg.bin["arcgis-admin-emulator"]).toBe("dist/emulator/cli.js");
    expect(
      readFileSync(path.join(REPO, "emulator", "cli.ts"), "utf8").startsWith(
        "#!/usr/bin/env node\n",
      ),
    ).toBe(true);
  });

  it("--help documents every flag, the ready line, the seed format and the default credentials", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    for (const flag of [
      "--host",
      "--port",
      "--data-dir",
      "--seed",
      "--no-tls",
      "--cert",
      "--key",
      "--create-delay",
      "--export-delay",
      "--join-delay",
      "--join-poll-after",
      "--export-root",
      "--machine-name",
      "--token-lifetime",
      "--export-padding-bytes",
      "--fail-create",
      "--upgrade-from",
      "--upgrade-delay",
      "--restart-delay",
      "--quiet",
      "--server-type",
      "--server-version",
      "--export-url-form",
      "--headers-timeout",
      "--request-timeout",
      "--keep-alive-timeout",
      "--idle-timeout",
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain('"adminUrl"');
    expect(stdout).toContain('"guestPortalIds"');
    expect(stdout).toContain("portaladmin / emulator-Admin-1");
  });

  it("refuses bad flags with a message on stderr and a non-zero exit", async () => {
    const badPort = await run(["--port", "eighty", "--data-dir", dataDir]);
    expect(badPort.code).not.toBe(0);
    expect(badPort.stderr).toContain("--port");
    const halfTls = await run(["--cert", "/tmp/cert.pem", "--data-dir", dataDir]);
    expect(halfTls.code).not.toBe(0);
    expect(halfTls.stderr).toContain("--cert and --key");
    expect(halfTls.stdout).toBe("");
    const badType = await run(["--server-type", "portal", "--data-dir", dataDir]);
    expect(badType.code).not.toBe(0);
    expect(badType.stderr).toContain("--server-type");
    expect(badType.stderr).toContain("mission-server");
    const badVersion = await run(["--server-version", "eleven", "--data-dir", dataDir]);
    expect(badVersion.code).not.toBe(0);
    expect(badVersion.stderr).toContain("--server-version");
    const badTimeout = await run(["--idle-timeout", "0", "--data-dir", dataDir]);
    expect(badTimeout.code).not.toBe(0);
    expect(badTimeout.stderr).toContain("--idle-timeout");
  });

  it("prints exactly one JSON ready line on stdout, logs to stderr, and stops cleanly on SIGTERM", async () => {
    const s = await start(["--data-dir", dataDir]);
    expect(Object.keys(s.ready)).toEqual(READY_LINE_KEYS);
    expect(s.ready.adminUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin$/);
    const port = new URL(s.ready.adminUrl).port;
    expect(s.ready.sharingUrl).toBe(`https://127.0.0.1:${port}/portal/sharing/rest`);
    // The default product is the spec's: Mission Server, whose health check is rest/healthcheck.
    expect(s.ready.healthUrl).toBe(`https://127.0.0.1:${port}/arcgis/rest/healthcheck`);
    expect(s.ready.serverType).toBe("mission-server");
    expect(s.ready.serverVersion).toBe("11.3.0");
    expect(s.ready.caCertFile).toBe(path.join(dataDir, "tls", "cert.pem"));
    expect(s.ready.portalId).toMatch(/^[A-Z0-9]+$/);
    const root = await send(s.agent, "GET", `${s.ready.adminUrl}/?f=json`);
    expect(root.json.error.message).toContain("not participating in any Site");

    const { code } = await s.stop("SIGTERM");
    expect(code).toBe(0);
    expect(s.stdout.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(s.stderr).toContain("listening");
    expect(s.stderr).toContain("stopped");
    await expect(fs.access(path.join(dataDir, "emulator.pid"))).rejects.toThrow();
  });

  it("stops cleanly on SIGINT", async () => {
    const s = await start(["--data-dir", dataDir, "--quiet"]);
    const { code } = await s.stop("SIGINT");
    expect(code).toBe(0);
    expect(s.stderr).not.toContain("listening");
  });

  it("keeps its state across a restart", async () => {
    let s = await start(["--data-dir", dataDir, "--create-delay", "50"]);
    expect((await s.admin("createNewSite", SITE_ADMIN)).json.status).toBe("success");
    const portalId = s.ready.portalId;
    await s.stop();
    s = await start(["--data-dir", dataDir]);
    expect(s.ready.portalId).toBe(portalId);
    expect((await send(s.agent, "GET", `${s.ready.adminUrl}/?f=json`)).json.error.code).toBe(499);
    expect(typeof (await s.adminToken())).toBe("string");
  });

  it("after a SIGKILL during an export shows no partial archive under a final name, keeps its state, and exports again", async () => {
    const folder = path.join(dataDir, "backups");
    await fs.mkdir(folder);
    let s = await start(["--data-dir", dataDir, "--create-delay", "0", "--export-delay", "5000"]);
    await s.admin("createNewSite", SITE_ADMIN);
    const token = await s.adminToken();
    const exporting = s.admin("exportSite", { location: folder, token }).catch(() => null);
    await until(async () => (await fs.readdir(folder)).some((n) => n.endsWith(".partial")));
    const { signal } = await s.stop("SIGKILL");
    expect(signal).toBe("SIGKILL");
    await exporting;
    expect((await fs.readdir(folder)).filter((n) => n.endsWith(".agssite"))).toEqual([]);
    expect(() => JSON.parse(readFileSync(path.join(dataDir, "state.json"), "utf8"))).not.toThrow();

    s = await start(["--data-dir", dataDir, "--export-delay", "0"]);
    expect(await fs.readdir(folder)).toEqual([]);
    const fresh = await s.adminToken();
    const answer = await s.admin("exportSite", { location: folder, token: fresh });
    expect(answer.json.status).toBe("success");
    expect(await fs.readdir(folder)).toEqual([path.basename(answer.json.location as string)]);
  });

  it("maps --fail-create, --machine-name, --token-lifetime, --export-root and --export-padding-bytes", async () => {
    const root = runTempDir("arcgis-emu-cli-root-");
    try {
      const s = await start([
        "--data-dir",
        dataDir,
        "--create-delay",
        "0",
        "--export-delay",
        "0",
        "--fail-create",
        "Failed to create the site. No license.",
        "--machine-name",
        "cli-machine",
        "--token-lifetime",
        "0.5",
        "--export-root",
        root,
        "--export-root",
        dataDir,
        "--export-padding-bytes",
        "4096",
      ]);
      const failed = await s.admin("createNewSite", SITE_ADMIN);
      expect(failed.json.error).toEqual({
        code: 500,
        message: "Failed to create the site. No license.",
      });
      const root0 = await send(s.agent, "GET", `${s.ready.adminUrl}/?f=json`);
      expect(root0.json.error.message).toContain("'cli-machine'");
      expect(root0.json.error.message).toContain("No license.");
      expect((await s.admin("createNewSite", SITE_ADMIN)).json.status).toBe("success");
      const tokenAnswer = await s.admin("generateToken", SITE_ADMIN);
      expect(tokenAnswer.json.expires - Date.now()).toBeLessThan(31_000);
      const token = tokenAnswer.json.token as string;
      const inRoot = await s.admin("exportSite", { location: root, token });
      expect(inRoot.json.status).toBe("success");
      const padding = (await readZip(inRoot.json.location as string)).find(
        (e) => e.name === "padding.bin",
      );
      expect(padding?.uncompressedSize).toBe(4096);
      expect((await s.admin("exportSite", { location: dataDir, token })).json.status).toBe(
        "success",
      );
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it("maps --server-type, --server-version and --export-url-form", async () => {
    const s = await start([
      "--data-dir",
      dataDir,
      "--server-type",
      "arcgis-server",
      "--server-version",
      "10.9.1",
      "--export-url-form",
      "file",
      "--create-delay",
      "0",
      "--export-delay",
      "0",
    ]);
    const origin = new URL(s.ready.adminUrl).origin;
    expect(s.ready).toMatchObject({ serverType: "arcgis-server", serverVersion: "10.9.1" });
    expect(s.ready.healthUrl).toBe(`${origin}/arcgis/rest/info/healthCheck`);
    const info = await send(s.agent, "GET", `${origin}/arcgis/rest/info?f=json`);
    expect(info.json).toMatchObject({ currentVersion: 10.91, fullVersion: "10.9.1" });
    // ArcGIS Server's dialect: its error format, and its default export URL form overridden.
    const root = await send(s.agent, "GET", `${s.ready.adminUrl}/?f=json`);
    expect(root.json).toMatchObject({ status: "error", code: 500 });
    expect((await s.admin("createNewSite", SITE_ADMIN)).json.status).toBe("success");
    const token = await s.adminToken();
    const exported = await s.admin("exportSite", { token });
    const download = await send(
      s.agent,
      "GET",
      `${exported.json.location as string}?token=${token}`,
    );
    expect(download.headers["content-type"]).toBe("application/octet-stream");
  });

  it("maps --upgrade-from and --upgrade-delay: the site waits for its upgrade", async () => {
    const first = await start([
      "--data-dir",
      dataDir,
      "--server-version",
      "11.2",
      "--create-delay",
      "0",
    ]);
    expect((await first.admin("createNewSite", SITE_ADMIN)).json.status).toBe("success");
    await first.stop();
    const s = await start([
      "--data-dir",
      dataDir,
      "--upgrade-from",
      "11.2",
      "--upgrade-delay",
      "0",
    ]);
    const due = await send(s.agent, "GET", `${s.ready.adminUrl}/upgrade?f=json`);
    expect(due.json).toEqual({ isUpgrade: true });
    expect((await s.admin("upgrade")).json).toEqual({ status: "success" });
    expect(await s.adminToken()).toEqual(expect.any(String));
  });

  it("takes the product from the seed's server, and refuses to open another product's site", async () => {
    const seedFile = path.join(dataDir, "seed.json");
    await fs.writeFile(
      seedFile,
      JSON.stringify({
        server: { type: "video-server", version: "12.0" },
        portal: { id: "SEEDED", users: [{ username: "u1", password: "p1", role: "org_admin" }] },
      }),
    );
    const s = await start(["--data-dir", dataDir, "--seed", seedFile, "--create-delay", "0"]);
    expect(s.ready).toMatchObject({ serverType: "video-server", serverVersion: "12.0.0" });
    expect((await s.admin("createNewSite", SITE_ADMIN)).json.status).toBe("success");
    await s.stop();
    const other = await run(["--data-dir", dataDir, "--server-type", "mission-server"]);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain("holds a site of a video-server");
  });

  it("starts the portal in no site with --portal-no-site, and refuses it with --seed", async () => {
    const s = await start([
      "--data-dir",
      dataDir,
      "--portal-no-site",
      "--portal-create-delay",
      "0",
    ]);
    const portalAdmin = s.ready.sharingUrl.replace(/\/sharing\/rest$/, "/portaladmin");
    expect((await send(s.agent, "GET", `${portalAdmin}/?f=json`)).json.status).toBe("error");
    const created = await send(s.agent, "POST", `${portalAdmin}/createNewSite`, {
      form: {
        username: "cliadmin",
        password: "Cli-Portal-Pass-5",
        fullname: "CLI Administrator",
        email: "cli@example.com",
        contentStore: JSON.stringify({ type: "fileStore", provider: "FileSystem" }),
        f: "json",
      },
    });
    expect(created.json).toEqual({ status: "success" });
    expect((await send(s.agent, "GET", `${portalAdmin}/?f=json`)).json.error.code).toBe(499);
    await s.stop();
    const seedFile = path.join(dataDir, "seed.json");
    await fs.writeFile(
      seedFile,
      JSON.stringify({
        portal: { id: "P", users: [{ username: "u", password: "p", role: "org_admin" }] },
      }),
    );
    const refused = await run(["--data-dir", dataDir, "--portal-no-site", "--seed", seedFile]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--portal-no-site");
  });

  it("starts a Web Adaptor with --web-adaptor, its URL last on the ready line, refusing until registered", async () => {
    const s = await start(["--data-dir", dataDir, "--web-adaptor", "gis"]);
    const ready = s.ready as typeof s.ready & { webAdaptorUrl?: string };
    expect(Object.keys(ready)).toEqual([...READY_LINE_KEYS, "webAdaptorUrl"]);
    expect(new URL(ready.webAdaptorUrl!).pathname).toBe("/gis");
    expect((await send(s.agent, "GET", `${ready.webAdaptorUrl!}/webadaptor`)).status).toBe(200);
    const info = await send(s.agent, "GET", `${ready.webAdaptorUrl!}/rest/info?f=json`);
    expect(info.status).toBe(503);
    await s.stop();
    const refused = await run(["--data-dir", dataDir, "--web-adaptor", "a/b"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--web-adaptor");
  });

  it("serves plain HTTP with --no-tls and the seed's portal with --seed", async () => {
    const seedFile = path.join(dataDir, "seed.json");
    await fs.writeFile(
      seedFile,
      JSON.stringify({
        portal: {
          id: "CLISEEDPORTAL",
          users: [{ username: "u1", password: "p1", role: "org_admin" }],
        },
      }),
    );
    const s = await start(["--data-dir", dataDir, "--no-tls", "--seed", seedFile]);
    expect(s.ready.caCertFile).toBeNull();
    expect(s.ready.adminUrl).toMatch(/^http:\/\//);
    expect(s.ready.portalId).toBe("CLISEEDPORTAL");
    const token = await send(s.agent, "POST", `${s.ready.sharingUrl}/generateToken`, {
      form: { username: "u1", password: "p1", f: "json" },
    });
    expect(typeof token.json.token).toBe("string");
  });
});
