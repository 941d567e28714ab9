/**
 * The same work as the provider, by hand: undici requests straight to the emulator, without the
 * client layer, validation, Pulumi or gRPC. The baseline of figures 2 and 5.
 */
import { fork, spawn } from "node:child_process";
import * as path from "node:path";
import { Agent, request } from "undici";
import type { BenchEmulator } from "./emulators";

/** Site administrator used by every benchmark site. */
export const SITE_USER = { username: "siteadmin", password: "bench-Site-Pw-31c7" };
/** The directories every benchmark site is created with (provider and raw alike). */
export const SITE_DIRECTORIES = [
  { name: "arcgissystem", physicalPath: "D:\\arcgis\\system", directoryType: "SYSTEM" },
];
const REFERER = "pulumi-arcgis-admin-bench";

/** An undici Agent that trusts the emulator's CA (one per emulator, like the provider's). */
export function rawAgent(bench: BenchEmulator): Agent {
  return new Agent({ connect: bench.caCert === undefined ? {} : { ca: bench.caCert } });
}

async function postForm(
  agent: Agent,
  url: string,
  fields: Record<string, string>,
): Promise<Record<string, unknown>> {
  const res = await request(url, {
    method: "POST",
    dispatcher: agent,
    headers: { "content-type": "application/x-www-form-urlencoded", referer: REFERER },
    body: new URLSearchParams({ ...fields, f: "json" }).toString(),
  });
  const body = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== 200 || "error" in body) {
    throw new Error(`POST ${url} failed (${res.statusCode}): ${JSON.stringify(body)}`);
  }
  return body;
}

async function getJson(
  agent: Agent,
  url: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await request(`${url}?f=json`, {
    dispatcher: agent,
    headers: { referer: REFERER, ...headers },
  });
  return (await res.body.json()) as Record<string, unknown>;
}

/** Where a raw creation goes. */
export interface RawTarget {
  adminUrl: string;
  healthUrl: string;
}

/**
 * createNewSite plus a readiness check: with runAsync false, one healthCheck after the
 * (synchronous) answer; with runAsync true, healthCheck back to back until it reports success.
 *
 * @returns how many healthCheck requests were needed.
 */
export async function rawCreateSite(
  target: RawTarget,
  agent: Agent,
  runAsync: boolean,
): Promise<{ healthChecks: number }> {
  // The bench emulators are Mission Servers (the default product): a bare directory array of
  // {name, path, type} and the flag `async`, as Esri's Chef and DSC send them.
  await postForm(agent, `${target.adminUrl}/createNewSite`, {
    ...SITE_USER,
    directories: JSON.stringify(
      SITE_DIRECTORIES.map((d) => ({ name: d.name, path: d.physicalPath, type: d.directoryType })),
    ),
    async: String(runAsync),
  });
  for (let healthChecks = 1; ; healthChecks++) {
    const health = await getJson(agent, target.healthUrl);
    if (health.success === true) return { healthChecks };
    if (!runAsync) {
      throw new Error(`the site is not healthy after createNewSite: ${JSON.stringify(health)}`);
    }
    if (healthChecks > 10_000) throw new Error("the site never became healthy");
  }
}

/** A message to the raw child: one creation on this emulator. */
export interface RawCreateRequest extends RawTarget {
  kind?: "create";
  caCert: string | undefined;
  runAsync: boolean;
}

/** A message to the raw child: replay Ansible's create_site flow on this emulator. */
export interface RawFlowRequest {
  kind: "ansible-create-site";
  /** The server's context root, e.g. `https://127.0.0.1:20443/arcgis`. */
  serverUrl: string;
  caCert: string | undefined;
  username: string;
  password: string;
}

/** The raw child's answer: the creation's duration as the child measured it. */
export type RawCreateResult =
  { ok: true; ms: number; healthChecks: number } | { ok: false; error: string };

/** The raw child's answer to a flow: what it sent and when (epoch ms, sub-millisecond). */
export type RawFlowResult =
  | {
      ok: true;
      sent: string[];
      startedEpochMs: number;
      returnedEpochMs: number;
      /** Each request's time from sending it to its answer read (ms). */
      requestMs: number[];
    }
  | { ok: false; error: string };

/** A long-lived child process that performs raw creations (see bench/raw-child.cjs). */
export interface RawClient {
  create(bench: BenchEmulator, runAsync: boolean): Promise<{ ms: number; healthChecks: number }>;
  /** Replays Ansible's create_site flow (tests/conformance/flows/) with the given account. */
  ansibleCreateSite(
    bench: BenchEmulator,
    account: { username: string; password: string },
  ): Promise<{
    sent: string[];
    startedEpochMs: number;
    returnedEpochMs: number;
    requestMs: number[];
  }>;
  close(): Promise<void>;
}

/** Forks the raw child. */
export function startRawClient(): RawClient {
  const child = fork(path.join(__dirname, "..", "raw-child.cjs"), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ask = <T>(message: RawCreateRequest | RawFlowRequest): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (): void => reject(new Error("the raw child exited"));
      child.once("exit", onExit);
      child.once("message", (reply: T) => {
        child.off("exit", onExit);
        resolve(reply);
      });
      child.send(message);
    });
  return {
    create: async (bench, runAsync) => {
      const reply = await ask<RawCreateResult>({
        adminUrl: bench.emu.adminUrl,
        healthUrl: bench.emu.healthUrl,
        caCert: bench.caCert,
        runAsync,
      });
      if (!reply.ok) throw new Error(`raw creation failed: ${reply.error}`);
      return { ms: reply.ms, healthChecks: reply.healthChecks };
    },
    ansibleCreateSite: async (bench, account) => {
      const reply = await ask<RawFlowResult>({
        kind: "ansible-create-site",
        serverUrl: bench.emu.adminUrl.replace(/\/admin$/, ""),
        caCert: bench.caCert,
        ...account,
      });
      if (!reply.ok) throw new Error(`Ansible's create_site flow failed: ${reply.error}`);
      return reply;
    },
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}

/** An admin token of the benchmark site (client=referer). */
export async function rawToken(bench: BenchEmulator, agent: Agent): Promise<string> {
  const answer = await postForm(agent, `${bench.emu.adminUrl}/generateToken`, {
    ...SITE_USER,
    client: "referer",
    referer: REFERER,
  });
  return String(answer.token);
}

/** What the raw download child reports. */
export interface RawDownload {
  bytes: number;
  /** From sending the GET to the file closed, ms. */
  downloadMs: number;
  /** The child's VmHWM after the download − its VmRSS before it (same rule as the host's). */
  rssGrowth: number;
  /** Highest growth of the child's `arrayBuffers` (Buffers outside V8's heap), sampled every 20 ms. */
  peakArrayBuffers: number;
  /** How many times arrayBuffers fell by more than 8 MiB between samples (collections). */
  drops: number;
}

/**
 * The child that downloads: plain undici streaming to a file, in its own Node process (as the
 * provider's host is), so that neither end shares an event loop with the emulator.
 */
const DOWNLOAD_CHILD = String.raw`"use strict";
const fs = require("node:fs");
const { pipeline } = require("node:stream/promises");
const { Agent, request } = require(process.env.BENCH_UNDICI);
const env = process.env;
function status() {
  const text = fs.readFileSync("/proc/self/status", "utf8");
  const field = (name) => Number(new RegExp("^" + name + ":\\s+(\\d+) kB", "m").exec(text)[1]) * 1024;
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}
(async () => {
  const agent = new Agent({ connect: env.BENCH_CA ? { ca: env.BENCH_CA } : {} });
  const headers = { referer: env.BENCH_REFERER, "x-esri-authorization": "Bearer " + env.BENCH_TOKEN };
  // Warm-up: connection, TLS session and code paths, before the baseline is read.
  const warm = await request(env.BENCH_HEALTH_URL, { dispatcher: agent, headers });
  await warm.body.text();
  const before = status();
  const base = process.memoryUsage().arrayBuffers;
  let peak = 0, last = 0, drops = 0;
  const sampler = setInterval(() => {
    const now = process.memoryUsage().arrayBuffers - base;
    if (now < last - 8 * 1024 * 1024) drops++;
    last = now;
    peak = Math.max(peak, now);
  }, 20);
  const started = performance.now();
  const res = await request(env.BENCH_URL, { dispatcher: agent, headers });
  if (res.statusCode !== 200) throw new Error("download failed with HTTP " + res.statusCode);
  await pipeline(res.body, fs.createWriteStream(env.BENCH_FILE));
  const downloadMs = performance.now() - started;
  clearInterval(sampler);
  const after = status();
  await agent.close();
  process.stdout.write(JSON.stringify({
    bytes: fs.statSync(env.BENCH_FILE).size,
    downloadMs,
    rssGrowth: after.hwm - before.rss,
    peakArrayBuffers: peak,
    drops,
  }));
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * exportSite without a location (from this process), then the archive streamed to `file` with
 * plain undici in a child Node process: the baseline of figure 5 (rate and memory).
 */
export async function rawExportAndDownload(
  bench: BenchEmulator,
  agent: Agent,
  file: string,
): Promise<RawDownload> {
  const token = await rawToken(bench, agent);
  const answer = await postForm(agent, `${bench.emu.adminUrl}/exportSite`, { token });
  const child = spawn(process.execPath, ["-e", DOWNLOAD_CHILD], {
    env: {
      ...process.env,
      BENCH_UNDICI: require.resolve("undici"),
      BENCH_CA: bench.caCert ?? "",
      BENCH_TOKEN: token,
      BENCH_REFERER: REFERER,
      BENCH_URL: String(answer.location),
      BENCH_HEALTH_URL: `${bench.emu.healthUrl}?f=json`,
      BENCH_FILE: file,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) throw new Error(`the raw download child failed (${code}): ${stderr}`);
  return JSON.parse(stdout) as RawDownload;
}
