/**
 * The order of `npm test`'s suites (tests/sequencer.cjs): on a fresh clone, with no timings yet,
 * the suites that drive the Pulumi CLI or the benchmark start first whatever their file size;
 * once Jest has timings, its own longest-first order holds; the SDK suites and the plugin
 * archive's run last.
 */
import * as fs from "node:fs";
import { runTempDir } from "../../tools/harness/temp";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest loads it as CommonJS
const SlowFirstSequencer = require("../sequencer.cjs") as new () => {
  sort(tests: FakeTest[]): FakeTest[];
  cacheResults(tests: FakeTest[], results: unknown): void;
};

interface FakeTest {
  path: string;
  duration?: number;
  context: unknown;
}

function suites(cacheDirectory: string, sizes: Record<string, number>): FakeTest[] {
  const context = {
    config: { cache: true, cacheDirectory, id: "sequencer-test", haste: {} },
    hasteFS: { getSize: (file: string) => sizes[file] },
  };
  return Object.keys(sizes).map((file) => ({ path: file, context }));
}

const SIZES = {
  "/repo/tests/client/large.test.ts": 90_000,
  "/repo/tests/emulator/medium.test.ts": 40_000,
  "/repo/tests/real-engine/slow-create.test.ts": 1_500,
  "/repo/tests/real-engine/killed-run.test.ts": 7_000,
  "/repo/tests/bench/quick.test.ts": 2_500,
};

let dir: string;
beforeEach(() => (dir = runTempDir("sequencer-")));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it("without timings, runs the benchmark, then the real-engine suites, then the rest by size", () => {
  const order = new SlowFirstSequencer().sort(suites(dir, SIZES)).map((t) => t.path);
  expect(order).toEqual([
    "/repo/tests/bench/quick.test.ts",
    "/repo/tests/real-engine/killed-run.test.ts",
    "/repo/tests/real-engine/slow-create.test.ts",
    "/repo/tests/client/large.test.ts",
    "/repo/tests/emulator/medium.test.ts",
  ]);
});

it("with timings, keeps Jest's order: untimed suites first, then the longest first", () => {
  const first = new SlowFirstSequencer();
  const tests = suites(dir, SIZES);
  const timing = (file: string, ms: number) => ({
    testFilePath: file,
    numFailingTests: 0,
    skipped: false,
    perfStats: { runtime: ms, start: 0, end: ms },
  });
  first.cacheResults(tests, {
    testResults: [
      timing("/repo/tests/client/large.test.ts", 2_000),
      timing("/repo/tests/real-engine/slow-create.test.ts", 70_000),
      timing("/repo/tests/bench/quick.test.ts", 60_000),
    ],
  });
  const order = new SlowFirstSequencer().sort(suites(dir, SIZES)).map((t) => t.path);
  expect(order).toEqual([
    "/repo/tests/real-engine/killed-run.test.ts",
    "/repo/tests/emulator/medium.test.ts",
    "/repo/tests/real-engine/slow-create.test.ts",
    "/repo/tests/bench/quick.test.ts",
    "/repo/tests/client/large.test.ts",
  ]);
});

it("runs the SDK suites (tests/sdks/) last, timed or not", () => {
  const sizes = {
    ...SIZES,
    "/repo/tests/sdks/nodejs.test.ts": 100_000,
    "/repo/tests/sdks/build.test.ts": 8_000,
  };
  const first = new SlowFirstSequencer();
  const timing = (file: string, ms: number) => ({
    testFilePath: file,
    numFailingTests: 0,
    skipped: false,
    perfStats: { runtime: ms, start: 0, end: ms },
  });
  first.cacheResults(suites(dir, sizes), {
    testResults: [
      timing("/repo/tests/sdks/build.test.ts", 200_000),
      timing("/repo/tests/client/large.test.ts", 2_000),
    ],
  });
  const order = new SlowFirstSequencer().sort(suites(dir, sizes)).map((t) => t.path);
  expect(order.slice(-2).sort()).toEqual([
    "/repo/tests/sdks/build.test.ts",
    "/repo/tests/sdks/nodejs.test.ts",
  ]);
});

it("runs the plugin archive's suites last, timed, untimed or failed", () => {
  const sizes = { ...SIZES, "/repo/tests/archive/acquisition.test.ts": 200_000 };
  const first = new SlowFirstSequencer();
  first.cacheResults(suites(dir, sizes), {
    testResults: [
      {
        testFilePath: "/repo/tests/archive/acquisition.test.ts",
        numFailingTests: 1,
        skipped: false,
        perfStats: { runtime: 300_000, start: 0, end: 300_000 },
      },
    ],
  });
  const order = new SlowFirstSequencer().sort(suites(dir, sizes)).map((t) => t.path);
  expect(order.at(-1)).toBe("/repo/tests/archive/acquisition.test.ts");
  expect(order).toHaveLength(6);
});
