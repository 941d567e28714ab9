/**
 * Bounds how far V8 lets the heap of the emulator's own process (the CLI) grow. Under a long run
 * of requests with long URLs the heap in use stays the same, but V8 keeps doubling the young
 * generation (whenever enough objects have survived its collections since the last doubling, up
 * to a maximum set from the machine's memory) and lets the old generation fill with garbage up
 * to a multiple of what is live, or up to a fixed step above it; the process grew, and kept what
 * it grew (bench/RESULTS.md, "The emulator's memory under long URLs").
 *
 * The flags are given to node when it starts, never set later: Node documents changing V8's flags
 * after the VM has started as undefined behaviour (`v8.setFlagsFromString`), and doing so made the
 * CLI hang at start now and then. So the CLI, when node was started without them, replaces its
 * own process with node started with them (`process.execve`: the same process id, stdio and
 * environment), before anything else has run. Where the platform has no execve (Windows), the
 * CLI runs without the bounds. A flag the operator gave node for the same thing is left as they
 * asked. Only the CLI does this: an emulator started inside another program (`startEmulator`)
 * leaves that program's V8 alone.
 *
 * What each flag does in V8 (v8/v8): src/heap/heap.cc `Heap::ConfigureHeap` (the young
 * generation's semi-spaces never grow past `--max-semi-space-size`; a semi-space growth factor
 * below 2 is raised to 2, so that flag bounds nothing when given at start, and a
 * `--max-semi-space-size` beside both `--max-heap-size` and `--max-old-space-size` fails a CHECK);
 * src/heap/memory-controller.cc
 * `GrowingFactor` (a heap-growing-percent replaces the computed factor) and `BoundAllocationLimit`
 * (the next full collection's limit is at least `MinimumAllocationLimitGrowingStep` above what was
 * live, a smaller step when src/heap/heap.cc `ShouldOptimizeForMemoryUsage` holds, which
 * `--optimize-for-size` makes it do); src/flags/flag-definitions.h (`--optimize-for-size` also
 * sets `--max-semi-space-size` to 1 MB, over a size given on the command line).
 */

/** The node flags that size the young generation: the operator's choice of it. */
const YOUNG_GENERATION = ["--max-semi-space-size", "--min-semi-space-size", "--max-heap-size"];

/** Each flag given, with the node flags that mean the operator chose that size themselves. */
export const HEAP_GROWTH_FLAGS: ReadonlyArray<{ flag: string; chosenBy: readonly string[] }> = [
  // The young generation stays at its smallest: V8 raises a growth factor below 2 given at start.
  { flag: "--max-semi-space-size=1", chosenBy: YOUNG_GENERATION },
  // The old generation may hold a tenth more than was live at the last full collection...
  { flag: "--heap-growing-percent=10", chosenBy: ["--heap-growing-percent"] },
  // ...or the smaller of V8's fixed steps above it, when that is more. It would also override the
  // operator's young generation (and V8 stops at start with it beside both a whole-heap size and
  // an old-space size).
  {
    flag: "--optimize-for-size",
    chosenBy: ["--optimize-for-size", "--no-optimize-for-size", ...YOUNG_GENERATION],
  },
];

/** The flags to give node: those it was not started with a choice of its own for. */
export function heapGrowthFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env["NODE_OPTIONS"] ?? "",
): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) =>
    arg.split("=")[0]!.replace(/_/g, "-"),
  );
  return HEAP_GROWTH_FLAGS.filter(({ chosenBy }) => !chosenBy.some((f) => given.includes(f))).map(
    ({ flag }) => flag,
  );
}

/**
 * The command line to start node with the flags it lacks (the program's own arguments as they
 * were), or undefined when it has them all. Started again with the answer, node has them all, so
 * a second call answers undefined and the CLI never restarts twice.
 */
export function commandWithHeapBounds(
  execPath: string = process.execPath,
  execArgv: readonly string[] = process.execArgv,
  argv: readonly string[] = process.argv,
  nodeOptions: string = process.env["NODE_OPTIONS"] ?? "",
): string[] | undefined {
  const flags = heapGrowthFlags(execArgv, nodeOptions);
  if (flags.length === 0) return undefined;
  return [execPath, ...flags, ...execArgv, ...argv.slice(1)];
}

/** Whether this platform can replace a process's image in place (Node documents which). */
export function canExecve(platform: NodeJS.Platform = process.platform): boolean {
  return (
    platform !== "win32" && (platform as string) !== "os400" && typeof process.execve === "function"
  );
}

/**
 * Replaces this process with node started with the bounds, when it lacks any; returns only when
 * it has them all, or where the platform or node's permission model does not let it (then the
 * process runs without them).
 */
export function restartWithHeapBounds(): void {
  const command = commandWithHeapBounds();
  if (command === undefined || !canExecve()) return;
  try {
    process.execve!(command[0]!, command, process.env);
  } catch {
    // Refused before anything changed (node's --permission without child processes allowed).
  }
}
