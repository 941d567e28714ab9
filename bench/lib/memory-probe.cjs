/**
 * Preloaded into the emulator's process by `bench/long-url-memory.cjs --probe` (node `--require`):
 * on SIGUSR2 it appends one JSON line to the file named by LONG_URL_MEMORY_PROBE, splitting the
 * process's resident memory into V8's heap spaces, Node's external memory and the mappings of
 * /proc/self/smaps, so that a growth in VmRSS can be put down to whoever holds it.
 */
"use strict";
const fs = require("node:fs");
const v8 = require("node:v8");

const MiB = 1024 * 1024;
const round = (bytes) => Math.round((bytes / MiB) * 10) / 10;

/** Resident kB of /proc/self/smaps, by kind of mapping. */
function residentByMapping() {
  const totals = { heap: 0, anonymous: 0, files: 0, stack: 0, lazyFree: 0 };
  let kind = "anonymous";
  for (const line of fs.readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header !== null) {
      const name = header[1];
      kind =
        name === "[heap]"
          ? "heap"
          : name === ""
            ? "anonymous"
            : name.startsWith("[stack")
              ? "stack"
              : name.startsWith("[")
                ? "stack"
                : "files";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss !== null) totals[kind] += Number(rss[1]) * 1024;
    // Freed with madvise(MADV_FREE): still resident until the kernel needs the memory.
    const lazy = /^LazyFree:\s+(\d+) kB$/.exec(line);
    if (lazy !== null) totals.lazyFree += Number(lazy[1]) * 1024;
  }
  return Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, round(v)]));
}

let probes = 0;
process.on("SIGUSR2", () => {
  const usage = process.memoryUsage();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name] = { size: round(s.space_size), used: round(s.space_used_size) };
  }
  const line = {
    rss: round(usage.rss),
    heapTotal: round(usage.heapTotal),
    heapUsed: round(usage.heapUsed),
    external: round(usage.external),
    arrayBuffers: round(usage.arrayBuffers),
    mappings: residentByMapping(),
    spaces,
  };
  // With node's --expose-gc, also the heap still in use after a full collection (what is live).
  if (typeof global.gc === "function") {
    global.gc();
    line.heapUsedAfterGc = round(process.memoryUsage().heapUsed);
    line.oldUsedAfterGc = round(
      v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size,
    );
  }
  if (process.env.LONG_URL_MEMORY_SMAPS) {
    fs.writeFileSync(
      `${process.env.LONG_URL_MEMORY_SMAPS}.${++probes}`,
      fs.readFileSync("/proc/self/smaps"),
    );
  }
  fs.appendFileSync(process.env.LONG_URL_MEMORY_PROBE, `${JSON.stringify(line)}\n`);
});
