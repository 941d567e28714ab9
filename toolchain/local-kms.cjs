#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Builds local-kms (github.com/nsmithuk/local-kms, MIT: AWS KMS's API on a local port) into the
 * project's cache once, and starts it. The engine suites' stacks keep their secrets with Pulumi's
 * `awskms://` secrets provider against it, as a team with its state on S3 does: a passphrase costs
 * every CLI operation a key derivation (bench/RESULTS.md, "Warm runs, ninth session").
 *
 * Usage: node toolchain/local-kms.cjs [--print-bin] [--quiet]
 * Cache: `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/local-kms/<version>/bin/local-kms`.
 */
const { spawn } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, buildOnce, isExecutable, projectCache } = require("./cache.cjs");
const { command } = require("./command.cjs");
const { requireGo, run } = require("./go.cjs");

const LOCAL_KMS_MODULE = "github.com/nsmithuk/local-kms";
/** A pseudo-version of its master (the module has no tagged release with Go modules). */
const LOCAL_KMS_VERSION = "v0.0.0-20260228092603-2a5e92d09ab6";
/** @type {[number, number]} */
const MINIMUM_GO = [1, 21];

/** The cached binary, or undefined. */
function cachedLocalKms(env = process.env) {
  const bin = path.join(projectCache("local-kms", env), LOCAL_KMS_VERSION, "bin", "local-kms");
  return isExecutable(bin) ? bin : undefined;
}

/**
 * The local-kms to run: the cached one, or a fresh build (`go install` into the build's folder).
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<string>}
 */
async function ensureLocalKms({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const root = projectCache("local-kms", env);
  const { value } = await buildOnce({
    root,
    key: LOCAL_KMS_VERSION,
    find: () => cachedLocalKms(env),
    log,
    what: "building local-kms",
    prepare: () =>
      requireGo({
        what: "local-kms (the KMS the engine tests keep their stacks' secrets with)",
        minimum: MINIMUM_GO,
        env,
      }),
    build: async (out, work, go) => {
      log(`Building local-kms ${LOCAL_KMS_VERSION} with ${go} into ${root} (once).`);
      const module = `${LOCAL_KMS_MODULE}@${LOCAL_KMS_VERSION}`;
      const result = await run(go, ["install", "-trimpath", "-ldflags", "-s -w", module], {
        cwd: work,
        env: { ...env, GOBIN: path.join(out, "bin"), GOFLAGS: "-buildvcs=false" },
        log,
        what: "building local-kms",
      });
      if (result.code !== 0) {
        throw new ToolchainError(
          `Building local-kms failed:\n${result.output.split("\n").slice(-10).join("\n")}`,
        );
      }
    },
  });
  return value;
}

const ALIAS = "alias/arcgis-admin-tests";
/** Where a process that started local-kms gives its children the URL (the tests' global set-up). */
const SHARED_URL_ENV = "ARCGIS_ADMIN_TEST_KMS_URL";
const REGION = "us-east-1";
const START_TIMEOUT_MS = 30_000;

/**
 * Starts local-kms on a free port with a new key of its own (seed and data under `dir`).
 * Resolves with the `awskms://` URL of that key for `pulumi stack init --secrets-provider`, which
 * asks for anonymous credentials (local-kms checks none, so none need be in the environment),
 * and a stop function. The process does not keep its parent alive.
 *
 * @param {string} bin
 * @param {string} dir
 * @returns {Promise<{url: string, pid: number, stop: () => Promise<unknown>}>}
 */
function startLocalKms(bin, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const keyId = crypto.randomUUID();
  const seed = path.join(dir, "seed.yaml");
  fs.writeFileSync(
    seed,
    [
      "Keys:",
      "  Symmetric:",
      "    Aes:",
      "      - Metadata:",
      `          KeyId: ${keyId}`,
      "        BackingKeys:",
      `          - ${crypto.randomBytes(32).toString("hex")}`,
      "Aliases:",
      `  - AliasName: ${ALIAS}`,
      `    TargetKeyId: ${keyId}`,
      "",
    ].join("\n"),
  );
  const child = spawn(bin, [], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: "0",
      KMS_REGION: REGION,
      KMS_SEED_PATH: seed,
      KMS_DATA_PATH: path.join(dir, "data"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  /** Ends it, and resolves once it is gone (reaped, so that no zombie is left behind). */
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once("exit", () => resolve(undefined));
      // Held again, or a parent with nothing else to do would end before the exit is seen.
      child.ref();
      child.kill("SIGKILL");
    });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new ToolchainError(`local-kms did not start within ${START_TIMEOUT_MS} ms:\n${seen}`));
    }, START_TIMEOUT_MS);
    /** @param {Buffer} chunk */
    const look = (chunk) => {
      seen += chunk.toString("utf8");
      const match = /Local KMS started on [^\s:]*:(\d+)/.exec(seen);
      if (match === null || child.pid === undefined) return;
      clearTimeout(timer);
      // From now on its log (a line per request) is read and dropped.
      for (const stream of [child.stdout, child.stderr]) {
        stream.removeListener("data", look).resume();
        /** @type {{unref?: () => void}} */ (/** @type {unknown} */ (stream)).unref?.();
      }
      child.unref();
      resolve({
        url: `awskms://${ALIAS}?region=${REGION}&endpoint=http://127.0.0.1:${match[1]}&anonymous=true`,
        pid: child.pid,
        stop,
      });
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new ToolchainError(`local-kms exited with code ${code} before it started:\n${seen}`));
    });
  });
}

module.exports = {
  SHARED_URL_ENV,
  LOCAL_KMS_MODULE,
  LOCAL_KMS_VERSION,
  ensureLocalKms,
  startLocalKms,
};

command(require.main === module, "local-kms", async ({ args, quiet, options }) => {
  const bin = await ensureLocalKms(options);
  if (args.includes("--print-bin")) process.stdout.write(`${bin}\n`);
  else if (!quiet) process.stderr.write(`local-kms ${LOCAL_KMS_VERSION}: ${bin}\n`);
});
