// @ts-check
"use strict";
/**
 * Starts the object store object-store.cjs builds (SeaweedFS's `weed server -s3`) for the tests
 * and benchmarks: on free 127.0.0.1 ports with a temporary data folder and one S3 identity (static
 * credentials it makes up); it waits until S3 answers a signed request, and returns its endpoint,
 * credentials and `stop()`, which ends it and removes the folder. A port taken by another process
 * before `weed` binds it means a new start on fresh ports, a few times at most.
 */
const { spawn } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { ToolchainError, sleep } = require("../cache.cjs");
const { ensureObjectStore } = require("../object-store.cjs");

/** How long `weed server` may take to answer S3 once started. */
const START_TIMEOUT_MS = 60_000;
/** The ports `weed server` is given, one per listener it opens. */
const PORT_NAMES = /** @type {const} */ ([
  "master",
  "master.grpc",
  "volume",
  "volume.grpc",
  "filer",
  "filer.grpc",
  "s3",
  "s3.grpc",
]);
/** How many times a store is started with fresh ports when one of them was taken meanwhile. */
const START_ATTEMPTS = 5;

/**
 * @typedef {Record<(typeof PORT_NAMES)[number], number>} StorePorts
 * @typedef {(names: readonly (typeof PORT_NAMES)[number][]) => Promise<StorePorts>} PortPicker
 */

/**
 * Distinct TCP ports on 127.0.0.1 that were free when asked. They are released before `weed`
 * binds them, so another process may take one meanwhile: {@link startObjectStore} then starts
 * again with fresh ones. All are held until the last is picked, so the OS cannot hand out one
 * twice.
 *
 * @type {PortPicker}
 */
async function freePorts(names) {
  /** @type {net.Server[]} */
  const servers = [];
  try {
    /** @type {Record<string, number>} */
    const ports = {};
    for (const name of names) {
      const server = net.createServer();
      servers.push(server);
      await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve(undefined));
      });
      const address = server.address();
      ports[name] = typeof address === "object" && address !== null ? address.port : 0;
    }
    return /** @type {StorePorts} */ (ports);
  } finally {
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
    );
  }
}

/** One start of `weed server` that failed because a port it was given was taken. */
class PortTakenError extends ToolchainError {}

/**
 * @typedef {{endpoint: string, region: string, accessKeyId: string, secretAccessKey: string,
 *   dataDir: string, pid: number, attempts: number, output: () => string,
 *   stop: () => Promise<void>}} RunningObjectStore
 */

/**
 * Starts `weed server -s3` on free loopback ports with a temporary data folder and one identity,
 * creates `buckets`, and resolves once S3 answers signed requests.
 *
 * The ports are picked, released, then bound by `weed`, and another process can take one in
 * between; `weed` then exits saying "address already in use", and the store is started again with
 * fresh ports, up to `attempts` times in all (`attempts` on the result says how many it took).
 * `pickPorts` replaces the port picker (tests hand it a taken port).
 *
 * @param {{bin?: string, buckets?: string[], env?: NodeJS.ProcessEnv, pickPorts?: PortPicker,
 *   attempts?: number}} [options]
 * @returns {Promise<RunningObjectStore>}
 */
async function startObjectStore({
  bin,
  buckets = [],
  env = process.env,
  pickPorts = freePorts,
  attempts = START_ATTEMPTS,
} = {}) {
  const weed = bin ?? (await ensureObjectStore({ env, log: () => {} })).bin;
  /** @type {PortTakenError | undefined} */
  let last;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      const store = await startOnce(weed, buckets, env, await pickPorts(PORT_NAMES));
      return { ...store, attempts: attempt };
    } catch (error) {
      if (!(error instanceof PortTakenError)) throw error;
      last = error;
    }
  }
  const tries = `${attempts} ${attempts === 1 ? "try" : "tries"}`;
  throw new ToolchainError(
    `weed server could not start in ${tries}: each time, a port it was given was taken before ` +
      `it could bind it.\n${last?.message ?? ""}`,
  );
}

/**
 * One start of `weed server` on these ports; a PortTakenError when it exits because one was
 * taken.
 *
 * @param {string} weed
 * @param {string[]} buckets
 * @param {NodeJS.ProcessEnv} env
 * @param {StorePorts} ports
 * @returns {Promise<Omit<RunningObjectStore, "attempts">>}
 */
async function startOnce(weed, buckets, env, ports) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "object-store-"));
  const accessKeyId = `test${crypto.randomBytes(8).toString("hex")}`;
  const secretAccessKey = crypto.randomBytes(24).toString("base64url");
  const s3Config = path.join(dataDir, "s3.json");
  fs.writeFileSync(
    s3Config,
    JSON.stringify({
      identities: [
        {
          name: "tests",
          credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }],
          actions: ["Admin", "Read", "List", "Tagging", "Write"],
        },
      ],
    }),
    { mode: 0o600 },
  );
  const data = path.join(dataDir, "data");
  fs.mkdirSync(data);
  const args = [
    // glog's files (one per severity, and a FATAL one on a failed start) in the data folder too.
    `-logdir=${dataDir}`,
    "server",
    "-s3",
    "-filer",
    "-ip=127.0.0.1",
    "-ip.bind=127.0.0.1",
    `-dir=${data}`,
    // Every gRPC port explicitly: weed's default (the HTTP port plus 10000) is a port nobody
    // checked, and past 65535 for much of the range the OS picks from.
    `-master.port=${ports.master}`,
    `-master.port.grpc=${ports["master.grpc"]}`,
    `-volume.port=${ports.volume}`,
    `-volume.port.grpc=${ports["volume.grpc"]}`,
    `-filer.port=${ports.filer}`,
    `-filer.port.grpc=${ports["filer.grpc"]}`,
    `-s3.port=${ports.s3}`,
    `-s3.port.grpc=${ports["s3.grpc"]}`,
    `-s3.config=${s3Config}`,
    // Off: the Iceberg and Lance catalogs listen on fixed ports by default.
    "-s3.port.iceberg=0",
    "-s3.port.lance=0",
    // In the data folder rather than /tmp/seaweedfs-*-<port>.sock.
    `-filer.localSocket=${path.join(dataDir, "filer.sock")}`,
    `-s3.localSocket=${path.join(dataDir, "s3.sock")}`,
    "-volume.max=0",
    "-master.volumeSizeLimitMB=256",
  ];
  const child = spawn(weed, args, { cwd: dataDir, env, stdio: ["ignore", "pipe", "pipe"] });
  /** @type {string[]} */
  const tail = [];
  const keep = (/** @type {Buffer} */ chunk) => {
    tail.push(chunk.toString("utf8"));
    if (tail.length > 200) tail.shift();
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  /** @type {number | null | undefined} */
  let exited;
  /** @type {Promise<void>} */
  const exit = new Promise((resolve) =>
    // "close" rather than "exit": the output is complete by then, and it says why weed stopped.
    child.once("close", (code, signal) => {
      exited = code ?? (signal ? -1 : null);
      resolve();
    }),
  );
  let served = false;
  const stop = async () => {
    if (exited === undefined) {
      // SIGKILL: the data folder is deleted next, so weed's graceful shutdown (its volume server
      // waits out `-volume.preStopSeconds`, then each server drains in turn) would only delay it.
      child.kill("SIGKILL");
      await exit;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    // `weed server` always puts its servers' local gRPC sockets in /tmp, named by their ports
    // (weed/command/server.go); once it served, those ports, and so those names, were its own.
    if (served) {
      const sockets = /** @type {const} */ (["master", "volume", "filer", "s3"]);
      for (const name of sockets) {
        fs.rmSync(`/tmp/seaweedfs-${name}-grpc-${ports[`${name}.grpc`]}.sock`, { force: true });
      }
    }
  };
  const endpoint = `http://127.0.0.1:${ports.s3}`;
  const region = "us-east-1";
  const exitedEarly = () =>
    new ToolchainError(`weed server exited (${exited}) before S3 answered.`);
  try {
    // A dependency of the package, loaded only when a store starts.
    const s3 = require("@aws-sdk/client-s3");
    const client = new s3.S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
      maxAttempts: 1,
    });
    // Whatever took weed's S3 port may accept a request and never answer it: weed's exit ends
    // the wait instead.
    const orExit = (/** @type {Promise<unknown>} */ request) =>
      Promise.race([
        request,
        exit.then(() => {
          throw exitedEarly();
        }),
      ]);
    const deadline = Date.now() + START_TIMEOUT_MS;
    const pending = [...buckets];
    try {
      for (;;) {
        if (exited !== undefined) throw exitedEarly();
        try {
          await orExit(client.send(new s3.ListBucketsCommand({})));
          while (pending.length > 0) {
            await orExit(client.send(new s3.CreateBucketCommand({ Bucket: pending[0] })));
            pending.shift();
          }
          break;
        } catch (error) {
          if (exited !== undefined) throw exitedEarly();
          if (Date.now() > deadline) {
            throw new ToolchainError(
              `weed server did not answer S3 on ${endpoint} within ${START_TIMEOUT_MS / 1000} s ` +
                `(${error instanceof Error ? error.message : String(error)}).`,
            );
          }
          await sleep(250);
        }
      }
    } finally {
      client.destroy();
    }
    served = true;
  } catch (error) {
    await stop();
    const output = tail.join("").split("\n").slice(-20).join("\n");
    const message = `${error instanceof Error ? error.message : String(error)}\nweed's last output:\n${output}`;
    if (exited !== undefined && /address already in use/i.test(tail.join(""))) {
      throw new PortTakenError(message);
    }
    if (error instanceof Error) error.message = message;
    throw error;
  }
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    dataDir,
    pid: /** @type {number} */ (child.pid),
    output: () => tail.join(""),
    stop,
  };
}

module.exports = { START_ATTEMPTS, freePorts, startObjectStore };
