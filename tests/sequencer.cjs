/**
 * Jest's own order, except for suites it has no timing of (a fresh clone, a new file): those that
 * drive the Pulumi CLI or the benchmark start first, so that a minute-long suite does not start
 * last on an otherwise idle machine. Jest orders untimed suites by file size alone, and several
 * of the longest suites are short files. The suites of LAST_FOLDERS (the SDKs' builds and programs)
 * run after all the others, whatever their timing.
 */
"use strict";
const Sequencer = require("@jest/test-sequencer").default;

/** Folders whose suites take longest, longest first; the rest keep Jest's size order after them. */
const SLOW_FOLDERS = [
  "/tests/bench/",
  "/tests/real-engine/",
  "/tests/examples/",
  "/tests/python-api/",
  "/tests/engine/",
];

/**
 * Suites that run after every other, whatever Jest knows of them: the SDKs' builds and programs,
 * then the plugin archive's, which build the release artifacts and run the CLI on them.
 */
const LAST_FOLDERS = ["/tests/sdks/", "/tests/archive/"];

/** @param {{ path: string }} test */
function isLast(test) {
  return LAST_FOLDERS.some((folder) => test.path.replace(/\\/g, "/").includes(folder));
}

/** @param {{ path: string }} test */
function rank(test) {
  const at = SLOW_FOLDERS.findIndex((folder) => test.path.replace(/\\/g, "/").includes(folder));
  return at === -1 ? SLOW_FOLDERS.length : at;
}

class SlowFirstSequencer extends Sequencer {
  /** @param {Array<import("@jest/test-result").Test>} tests */
  sort(tests) {
    const sorted = /** @type {Array<import("@jest/test-result").Test>} */ (super.sort(tests));
    const failed = sorted.filter((t) => this.hasFailed(t));
    const rest = sorted.filter((t) => !this.hasFailed(t));
    const untimed = rest.filter((t) => t.duration == null);
    const timed = rest.filter((t) => t.duration != null);
    // Array.prototype.sort is stable: within a folder, Jest's size order stays.
    untimed.sort((a, b) => rank(a) - rank(b));
    const ordered = [...failed, ...untimed, ...timed];
    return [...ordered.filter((t) => !isLast(t)), ...ordered.filter(isLast)];
  }
}

module.exports = SlowFirstSequencer;
