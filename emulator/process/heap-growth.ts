/**
 * Bounds how far V8 lets the heap of the emulator's own process (the CLI) grow. Under a long run
 * of requests with long URLs the heap in use stays the same, but V8 keeps doubling the young
 * generation (whenever enough objects have survived its collections since the last doubling, up
 * to a maximum set from the machine's memory) and lets the old generation fill with garbage up
 * to a multiple of what is live; the process grew, and kept what it grew
 * (bench/RESULTS.md, "The emulator's memory under long URLs").
 *
 * `--max-semi-space-size` and `--max-old-space-size` are read only when V8 starts, so a process
 * cannot set them on itself. These two flags are read each time V8 resizes (v8/v8,
 * src/heap/new-spaces.cc `SemiSpaceNewSpace::Grow`: the new capacity is the growth factor times
 * the current one; src/heap/memory-controller.cc `GrowingFactor`: a heap-growing-percent replaces
 * the computed factor), so setting them before anything is served bounds both. A flag the
 * operator gave node for the same thing is left as they asked. Only the CLI does this: an emulator
 * started inside another program (`startEmulator`) leaves that program's V8 alone.
 */
import v8 from "node:v8";

/** Each flag set, with the node flags that mean the operator chose that size themselves. */
export const HEAP_GROWTH_FLAGS: ReadonlyArray<{ flag: string; chosenBy: readonly string[] }> = [
  // The young generation stays at the size V8 starts it with.
  {
    flag: "--semi-space-growth-factor=1",
    chosenBy: ["--semi-space-growth-factor", "--max-semi-space-size", "--max-heap-size"],
  },
  // The old generation may hold half as much again as was live at the last full collection.
  { flag: "--heap-growing-percent=50", chosenBy: ["--heap-growing-percent"] },
];

/** The flags to set: those node was not started with a choice of its own for. */
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

/** Sets the flags that bound the heap's growth, except where node was started with a choice. */
export function boundHeapGrowth(): void {
  for (const flag of heapGrowthFlags()) v8.setFlagsFromString(flag);
}
