/**
 * toolchain/engine.cjs, the engine build: which version it picks (the newest the Go module proxy
 * lists, or the newest cached one offline), the checked ARCGIS_ADMIN_PULUMI_VERSION, its cache,
 * its launcher, and its failure without Go.
 * (The build itself runs before Jest in `npm test`; here it is found in the cache.)
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { engine } from "../../tools/harness/real-stack";
import { runTempDir } from "../../tools/harness/temp";
import * as script from "../../toolchain/engine.cjs";

const SCRIPT = path.join(REPO_ROOT, "toolchain", "engine.cjs");

/** A Go module proxy in a folder (GOPROXY=file://...) that serves these versions of pkg/v3. */
function fileProxy(versions: readonly string[]): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = runTempDir("engine-proxy-");
  const list = path.join(dir, "github.com", "pulumi", "pulumi", "pkg", "v3", "@v");
  fs.mkdirSync(list, { recursive: true });
  fs.writeFileSync(path.join(list, "list"), versions.map((v) => `${v}\n`).join(""));
  // `go list -m -versions` reads the newest one's go.mod for retractions.
  for (const v of versions) {
    fs.writeFileSync(path.join(list, `${v}.info`), JSON.stringify({ Version: v }));
    fs.writeFileSync(path.join(list, `${v}.mod`), "module github.com/pulumi/pulumi/pkg/v3\n");
  }
  // A local folder has no checksum database to check its go.mod files against.
  return { dir, env: { ...process.env, GOPROXY: `file://${dir}`, GOSUMDB: "off", GOFLAGS: "" } };
}

/** An engine cache holding a complete (fake) engine of each version. */
function fakeCache(versions: readonly string[]): string {
  const cache = runTempDir("engine-cache-");
  for (const v of versions) {
    const bin = path.join(cache, `v${v}`, "bin");
    fs.mkdirSync(bin, { recursive: true });
    for (const f of ["pulumi", script.LAUNCHER]) {
      fs.writeFileSync(path.join(bin, f), `#!/bin/sh\necho v${v}\n`, { mode: 0o755 });
    }
  }
  return cache;
}

const lockedSdk = (): string =>
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")).packages[
    "node_modules/@pulumi/pulumi"
  ].version as string;

/** A release with the locked SDK's major and minor and a higher minor: newer than it. */
function newerThanSdk(by: number): string {
  const [major, minor] = lockedSdk().split(".");
  return `${major}.${Number(minor) + by}.0`;
}

it("builds the newest release the Go module proxy lists at or above the locked @pulumi/pulumi", () => {
  const older = "3.1.0";
  const newest = newerThanSdk(4);
  const proxy = fileProxy([
    `v${older}`,
    `v${newerThanSdk(2)}`,
    `v${newest}`,
    `v${newerThanSdk(9)}-alpha.1`,
  ]);
  try {
    expect(script.resolveVersions(proxy.env).versions).toEqual([newest, newerThanSdk(2)]);
  } finally {
    fs.rmSync(proxy.dir, { recursive: true, force: true });
  }
});

it("uses the newest cached engine, and says so, when the proxy cannot be asked", async () => {
  const cache = fakeCache(["3.1.0", "3.200.0"]);
  const lines: string[] = [];
  try {
    const env = { ...process.env, GOPROXY: "off", ARCGIS_ADMIN_ENGINE_CACHE: cache };
    const found = await script.ensureEngine({ env, log: (l: string) => lines.push(l) });
    expect(found).toMatchObject({ version: "3.200.0", built: false });
    expect(found.bin).toBe(path.join(cache, "v3.200.0", "bin", "pulumi"));
    expect(lines.join("\n")).toContain("Could not ask the Go module proxy");
    expect(lines.join("\n")).toContain("using the newest cached one, v3.200.0");
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

it("uses a cached engine of the newest listed version without building it again", async () => {
  const newest = newerThanSdk(4);
  const proxy = fileProxy([`v${newerThanSdk(2)}`, `v${newest}`]);
  const cache = fakeCache([newerThanSdk(2), newest]);
  const lines: string[] = [];
  try {
    const env = { ...proxy.env, ARCGIS_ADMIN_ENGINE_CACHE: cache };
    const found = await script.ensureEngine({ env, log: (l: string) => lines.push(l) });
    expect(found).toMatchObject({ version: newest, built: false });
    expect(lines).toEqual([]);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.rmSync(proxy.dir, { recursive: true, force: true });
  }
});

describe("ARCGIS_ADMIN_PULUMI_VERSION", () => {
  it.each(["3.274.1", "v3.274.1", "3.275.0-alpha.1"])("accepts %s", (given) => {
    expect(script.candidateVersions({ ARCGIS_ADMIN_PULUMI_VERSION: given })).toEqual([
      given.replace(/^v/, ""),
    ]);
  });

  it.each([
    "x/../outside",
    "3.274.1/../../x",
    "3.274.1+build",
    "03.274.1",
    "4.0.0",
    "3.274",
    "latest",
  ])("refuses %j, naming the variable", (given) => {
    expect(() => script.candidateVersions({ ARCGIS_ADMIN_PULUMI_VERSION: given })).toThrow(
      /^ARCGIS_ADMIN_PULUMI_VERSION must be a version of github\.com\/pulumi\/pulumi\/pkg\/v3 such as 3\.274\.1/,
    );
  });

  it("never runs a pulumi outside the cache that a path in it names", () => {
    const cache = fakeCache([]);
    const outside = fakeCache(["3.1.0"]);
    try {
      const relative = path.relative(cache, path.join(outside, "v3.1.0"));
      const env = {
        ...process.env,
        ARCGIS_ADMIN_ENGINE_CACHE: cache,
        ARCGIS_ADMIN_PULUMI_VERSION: `x/${relative}`,
      };
      const result = spawnSync(process.execPath, [SCRIPT, "--print-root"], {
        encoding: "utf8",
        env,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("ARCGIS_ADMIN_PULUMI_VERSION must be a version");
      expect(script.cachedEngine(`x/${relative}`, env)).toBeUndefined();
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

it("reuses the cached engine: a pulumi that reports its version, and the launcher", async () => {
  const cached = await engine();
  const builtAt = fs.statSync(cached.bin).mtimeMs;
  // Found again, not built again: the same binary, untouched (a time bound would count load).
  const found = await engine();
  expect(found).toMatchObject({ built: false, bin: cached.bin, version: cached.version });
  expect(fs.statSync(found.bin).mtimeMs).toBe(builtAt);
  expect(found.bin).toBe(path.join(found.root, "bin", "pulumi"));
  expect(found.root.startsWith(REPO_ROOT)).toBe(false);
  const version = spawnSync(found.bin, ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  expect(version.stdout.trim()).toBe(`v${found.version}`);
  const launcher = path.join(found.root, "bin", "pulumi-resource-pulumi-nodejs");
  expect(fs.readFileSync(launcher, "utf8")).toBe(script.launcherScript());
  expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
});

it("fails at once, saying what to install, when Go is missing", () => {
  const cache = runTempDir("engine-cache-");
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: path.dirname(process.execPath),
      ARCGIS_ADMIN_ENGINE_CACHE: cache,
    };
    delete env.GOROOT;
    // Bounded, so that a script that waited for something would fail here rather than hang.
    const result = spawnSync(process.execPath, [SCRIPT], {
      encoding: "utf8",
      env,
      timeout: 60_000,
    });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "Building the Pulumi engine needs Go, and there is no `go` on PATH",
    );
    expect(result.stderr).toContain("https://go.dev/doc/install");
    expect(fs.readdirSync(cache)).toEqual([]);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

describe("Pulumi YAML's language host", () => {
  it("is built in its own Go module, at the pulumi-yaml version and the pkg/v3 it requires", async () => {
    const cached = await script.ensureLanguageYaml({ log: () => {} });
    const builtAt = fs.statSync(cached.bin).mtimeMs;
    const yaml = await script.ensureLanguageYaml({ log: () => {} });
    expect(fs.statSync(yaml.bin).mtimeMs).toBe(builtAt);
    expect(yaml.bin).toBe(
      path.join(
        script.cacheRoot(),
        "pulumi-language-yaml",
        "v1.25.0",
        "bin",
        "pulumi-language-yaml",
      ),
    );
    const info = spawnSync("go", ["version", "-m", yaml.bin], { encoding: "utf8" });
    expect(info.stdout).toMatch(/mod\s+github\.com\/pulumi\/pulumi-yaml\s+v1\.25\.0/);
    // pulumi-yaml v1.25.0's own requirement, not the engine's pkg/v3 (with which it does not build).
    expect(info.stdout).toMatch(/dep\s+github\.com\/pulumi\/pulumi\/pkg\/v3\s+v3\.206\.0/);
  });

  it("is what `npm run engine` prints after the engine", () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /Pulumi engine v[\d.]+: .*\n.*Pulumi YAML language host v1\.25\.0: .*pulumi-language-yaml\/v1\.25\.0\/bin\/pulumi-language-yaml \(cached\)/,
    );
  });

  it("fails at once, saying what to install, when Go is missing", () => {
    const cache = runTempDir("engine-cache-");
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: path.dirname(process.execPath),
        ARCGIS_ADMIN_ENGINE_CACHE: cache,
      };
      delete env.GOROOT;
      const run = spawnSync(
        process.execPath,
        [
          "-e",
          `require(${JSON.stringify(SCRIPT)}).ensureLanguageYaml().catch((e) => { console.error(e.message); process.exit(1); })`,
        ],
        { encoding: "utf8", env },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        "Building Pulumi YAML's language host v1.25.0 needs Go, and there is no `go` on PATH",
      );
      expect(fs.readdirSync(cache)).toEqual([]);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });
});

describe("the dynamic-provider launcher", () => {
  /**
   * A `node` that logs each start into `<dir>/node-starts.log`, then runs the real one: PATH
   * for a launcher, and how many Node processes it started.
   */
  function countingNode(dir: string): { env: NodeJS.ProcessEnv; starts: () => number } {
    const bin = path.join(dir, "counting-node");
    fs.mkdirSync(bin, { recursive: true });
    const log = path.join(dir, "node-starts.log");
    fs.writeFileSync(
      path.join(bin, "node"),
      `#!/bin/sh\necho start >> '${log}'\nexec '${process.execPath}' "$@"\n`,
      { mode: 0o755 },
    );
    return {
      env: { ...process.env, PATH: [bin, "/usr/bin", "/bin"].join(":") },
      starts: () =>
        fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n").length : 0,
    };
  }

  /**
   * Runs the launcher from `cwd`, with a counting `node` on PATH and two engine arguments; the
   * host at `host` (relative to `root`) prints where it ran from and its arguments.
   */
  function launch(
    root: string,
    host: string,
    cwd: string,
  ): { stdout: string; status: number | null; nodeStarts: number } {
    const file = path.join(root, host);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      "console.log(JSON.stringify([__filename, ...process.argv.slice(2)]));\n",
    );
    fs.mkdirSync(cwd, { recursive: true });
    const launcher = path.join(root, "launcher");
    fs.writeFileSync(launcher, script.launcherScript(), { mode: 0o755 });
    const node = countingNode(runTempDir("node-", root));
    const run = spawnSync(launcher, ["127.0.0.1:1234", "extra"], {
      cwd,
      encoding: "utf8",
      env: node.env,
    });
    return { stdout: run.stdout.trim(), status: run.status, nodeStarts: node.starts() };
  }
  const HOST = "node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";

  it("runs the host of the project folder, or of the nearest parent folder that has one (a workspace's hoisted one), with the engine's arguments and one Node start", () => {
    const root = fs.realpathSync(runTempDir("launcher-"));
    try {
      const project = path.join(root, "ws", "packages", "infra");
      const hoisted = launch(path.join(root, "ws"), HOST, project);
      expect(hoisted.status).toBe(0);
      expect(JSON.parse(hoisted.stdout)).toEqual([
        path.join(root, "ws", HOST),
        "127.0.0.1:1234",
        "extra",
      ]);
      // Found by the shell: no second Node start to resolve it (about 35 ms before every host).
      expect(hoisted.nodeStarts).toBe(1);
      // The project's own one comes first.
      const own = launch(project, HOST, project);
      expect(JSON.parse(own.stdout)[0]).toBe(path.join(project, HOST));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("otherwise asks Node to resolve @pulumi/pulumi (NODE_PATH), and fails when it cannot", () => {
    const root = fs.realpathSync(runTempDir("launcher-"));
    try {
      const elsewhere = path.join(root, "global");
      const file = path.join(elsewhere, "@pulumi/pulumi/cmd/dynamic-provider/index.js");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, "console.log(__filename);\n");
      const project = path.join(root, "project");
      fs.mkdirSync(project);
      const launcher = path.join(root, "launcher");
      fs.writeFileSync(launcher, script.launcherScript(), { mode: 0o755 });
      const env = {
        ...process.env,
        PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      };
      const viaNodePath = spawnSync(launcher, ["127.0.0.1:1"], {
        cwd: project,
        encoding: "utf8",
        env: { ...env, NODE_PATH: elsewhere },
      });
      expect(viaNodePath.stdout.trim()).toBe(file);
      const none = spawnSync(launcher, ["127.0.0.1:1"], { cwd: project, encoding: "utf8", env });
      expect(none.status).not.toBe(0);
      expect(none.stdout).toBe("");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("replaces the launcher of a cached engine written by an older script", () => {
    const cache = fakeCache(["3.200.0"]);
    try {
      const launcher = path.join(cache, "v3.200.0", "bin", script.LAUNCHER);
      fs.writeFileSync(launcher, "#!/bin/sh\necho old\n", { mode: 0o755 });
      const found = script.cachedEngine("3.200.0", {
        ...process.env,
        ARCGIS_ADMIN_ENGINE_CACHE: cache,
      });
      expect(found?.version).toBe("3.200.0");
      expect(fs.readFileSync(launcher, "utf8")).toBe(script.launcherScript());
      expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });
});
