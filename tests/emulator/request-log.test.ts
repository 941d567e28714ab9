/**
 * The emulator's in-memory request log stays bounded by bytes as well as by entries: a client
 * sending many requests with URLs near Node's header limit (a fuzzer, a noisy CI job) must not
 * make the emulator grow, nor its requests.log on disk.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import {
  MAX_LOGGED_URL_CHARS,
  MAX_REQUEST_LOG_BYTES,
  MAX_REQUEST_LOG_ENTRIES,
  RequestLog,
  TRUNCATION_MARK,
  entryBytes,
  loggedUrl,
} from "../../emulator/core/request-log";
import { Harness, send } from "../../tools/harness/emulator-http";

/** Node's garbage collector, reachable from a Jest test only through a new context. */
function collector(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

/** The heap in use after a full collection. */
function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const MiB = 1024 * 1024;

describe("RequestLog", () => {
  it("drops the oldest entries beyond the byte bound and truncates long URLs", () => {
    const log = new RequestLog();
    const long = `/arcgis/admin/x?pad=${"a".repeat(15_000)}`;
    for (let i = 0; i < 10_000; i++) log.push("GET", `${long}&i=${i}`, new Date(0).toISOString());
    expect(log.byteSize).toBeLessThanOrEqual(MAX_REQUEST_LOG_BYTES);
    const entries = log.list();
    expect(entries.length).toBe(log.size);
    expect(entries.length).toBeLessThan(10_000);
    expect(entries.reduce((sum, e) => sum + entryBytes(e), 0)).toBe(log.byteSize);
    const last = entries.at(-1)!;
    expect(last.url.startsWith(long.slice(0, MAX_LOGGED_URL_CHARS))).toBe(true);
    expect(last.url.endsWith(`${TRUNCATION_MARK}${long.length + "&i=9999".length}]`)).toBe(true);
  });

  it("keeps a cut one-byte URL one byte a character, mark included", () => {
    const url = loggedUrl(`/arcgis/admin/x?pad=${"a".repeat(15_000)}`);
    expect(url).toContain(TRUNCATION_MARK);
    expect([...url].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
    const entry = { method: "GET", url, at: new Date(0).toISOString() };
    expect(entryBytes(entry)).toBe(entry.method.length + url.length + entry.at.length + 96);
  });

  it("keeps short URLs whole, up to the entry bound", () => {
    const log = new RequestLog();
    for (let i = 0; i < MAX_REQUEST_LOG_ENTRIES + 10; i++) log.push("GET", `/r/${i}`, "t");
    expect(log.byteSize).toBeLessThan(MAX_REQUEST_LOG_BYTES);
    expect(log.size).toBe(MAX_REQUEST_LOG_ENTRIES);
    expect(log.list()[0]!.url).toBe("/r/10");
    expect(log.list().at(-1)!.url).toBe(`/r/${MAX_REQUEST_LOG_ENTRIES + 9}`);
  });
});

describe("the emulator under many requests with long URLs", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ serverType: "mission-server" });
  });
  afterAll(async () => {
    await h.close();
  });

  /** Sends `count` unauthenticated GETs to unknown paths, each with a URL of about 15 KB. */
  async function flood(count: number, from: number): Promise<void> {
    const origin = new URL(h.emu.adminUrl).origin;
    const pad = "p".repeat(15_000);
    let next = from;
    const worker = async (): Promise<void> => {
      while (next < from + count) {
        const i = next++;
        const where = i % 2 === 0 ? `/arcgis/admin/nowhere-${i}` : `/elsewhere/${i}`;
        const answer = await send(h.agent, "GET", `${origin}${where}?f=json&pad=${pad}`);
        expect(answer.status).toBeLessThan(500);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  }

  it("grows its heap by no more than the log's bound, and not at all once the log is full", async () => {
    const gc = collector();
    const before = heapAfterGc(gc);
    // Enough to fill the log's byte bound with truncated entries.
    await flood(5_000, 0);
    const full = heapAfterGc(gc);
    await flood(5_000, 5_000);
    const after = heapAfterGc(gc);

    expect(full - before).toBeLessThan(MAX_REQUEST_LOG_BYTES + 4 * MiB);
    expect(after - full).toBeLessThan(2 * MiB);

    const log = h.emu.requestLog();
    expect(log.length).toBeLessThan(10_000);
    expect(log.at(-1)!.url).toContain(TRUNCATION_MARK);
    expect(Math.max(...log.map((e) => e.url.length))).toBeLessThan(MAX_LOGGED_URL_CHARS + 40);
    // requests.log holds the lines as cut in memory (its last lines may still be on their way).
    const file = readFileSync(path.join(h.dataDir, "requests.log"), "utf8").split("\n");
    const first = (JSON.parse(file[0]!) as { url: string }).url;
    expect(first).toContain(TRUNCATION_MARK);
    expect(first.length).toBeLessThan(MAX_LOGGED_URL_CHARS + 40);
  }, 120_000);
});

describe("the emulator's log lines", () => {
  it("cut a long path the way the request log does", async () => {
    const lines: string[] = [];
    const h = await Harness.start({ quiet: false, log: (line) => lines.push(line) });
    try {
      const origin = new URL(h.emu.adminUrl).origin;
      const answer = await send(h.agent, "GET", `${origin}/arcgis/admin/${"q".repeat(15_000)}`);
      expect(answer.status).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const logged = lines.find((line) => line.includes("/arcgis/admin/qqq"));
      expect(logged).toContain(TRUNCATION_MARK);
      expect(logged!.length).toBeLessThan(MAX_LOGGED_URL_CHARS + 200);
    } finally {
      await h.close();
    }
  });
});
