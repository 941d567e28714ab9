/**
 * The same work as the provider, by hand: undici requests straight to the emulator, without the
 * client layer, validation, Pulumi or gRPC. The baseline of figures 2 and 5.
 */
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
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

/**
 * createNewSite plus a readiness check: with runAsync false, one healthCheck after the
 * (synchronous) answer; with runAsync true, healthCheck back to back until it reports success.
 *
 * @returns how many healthCheck requests were needed.
 */
export async function rawCreateSite(
  bench: BenchEmulator,
  agent: Agent,
  runAsync: boolean,
): Promise<{ healthChecks: number }> {
  await postForm(agent, `${bench.emu.adminUrl}/createNewSite`, {
    ...SITE_USER,
    directories: JSON.stringify({ directories: SITE_DIRECTORIES }),
    runAsync: String(runAsync),
  });
  for (let healthChecks = 1; ; healthChecks++) {
    const health = await getJson(agent, bench.emu.healthUrl);
    if (health.success === true) return { healthChecks };
    if (!runAsync)
      throw new Error(`the site is not healthy after createNewSite: ${JSON.stringify(health)}`);
    if (healthChecks > 10_000) throw new Error("the site never became healthy");
  }
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

/**
 * exportSite without a location, then the archive streamed to `file` with undici: the
 * baseline download rate of figure 5. Samples this process's `arrayBuffers` (memory of Buffers,
 * outside V8's heap) every 20 ms meanwhile.
 *
 * @returns archive size, download time (from sending the GET to the last byte on disk), the
 *   highest arrayBuffers growth seen, and how many times it fell by more than 8 MiB (a
 *   collection freeing the chunks already written).
 */
export async function rawExportAndDownload(
  bench: BenchEmulator,
  agent: Agent,
  file: string,
): Promise<{ bytes: number; downloadMs: number; peakArrayBuffers: number; drops: number }> {
  const token = await rawToken(bench, agent);
  const answer = await postForm(agent, `${bench.emu.adminUrl}/exportSite`, { token });
  const base = process.memoryUsage().arrayBuffers;
  let peakArrayBuffers = 0;
  let last = 0;
  let drops = 0;
  const sampler = setInterval(() => {
    const now = process.memoryUsage().arrayBuffers - base;
    if (now < last - 8 * 1024 * 1024) drops++;
    last = now;
    peakArrayBuffers = Math.max(peakArrayBuffers, now);
  }, 20);
  try {
    const started = performance.now();
    const res = await request(String(answer.location), {
      dispatcher: agent,
      headers: { referer: REFERER, "x-esri-authorization": `Bearer ${token}` },
    });
    if (res.statusCode !== 200) throw new Error(`download failed with HTTP ${res.statusCode}`);
    let bytes = 0;
    res.body.on("data", (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(res.body, createWriteStream(file));
    return { bytes, downloadMs: performance.now() - started, peakArrayBuffers, drops };
  } finally {
    clearInterval(sampler);
  }
}
