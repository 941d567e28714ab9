const os = require("node:os");
const path = require("node:path");

// Every Node.js process of the run (Jest's workers, and the language hosts, programs and provider
// hosts of each Pulumi CLI operation) reuses V8's compiled code instead of compiling the same
// modules again: on a 2-core machine compilation is much of what a CLI operation costs.
// Its entries are per file path, and each suite installs the package in a new folder: once a day
// the global teardown removes the entries older than a day.
const COMPILE_CACHE = path.join(os.tmpdir(), "pulumi-arcgis-admin-compile-cache");
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE;
if (process.env.NODE_COMPILE_CACHE === COMPILE_CACHE) process.env.ARCGIS_ADMIN_PRUNE_CACHE = "1";

// The emulators the suites start keep their data in a folder of this run's own (never one given
// from outside, or a Jest run inside a test would remove its parent's), which
// tests/global-teardown.cjs removes: a run starts about a thousand of them.
// It is made when the first emulator starts: `jest --listTests` leaves nothing behind.
process.env.ARCGIS_ADMIN_TEST_TMP = path.join(
  os.tmpdir(),
  `arcgis-admin-tests-${process.pid}-${require("node:crypto").randomBytes(8).toString("hex")}`,
);

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  testTimeout: 60000,
  // Four suites at a time on the 2-core machine: the real-engine suites spend about half their
  // time waiting (the emulator's creation delays, a killed run's recovery, a minute-long
  // creation), and with fewer at a time the cores stood idle (bench/RESULTS.md, the test suite's
  // time).
  maxWorkers: 4,
  // Suites Jest has not timed yet start with the long ones, whatever their file size.
  testSequencer: "<rootDir>/tests/sequencer.cjs",
  globalSetup: "<rootDir>/tests/global-setup.cjs",
  globalTeardown: "<rootDir>/tests/global-teardown.cjs",
};
