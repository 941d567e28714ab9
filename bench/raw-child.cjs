/**
 * The raw HTTP side of figure 2, in its own Node process (as the provider's host is), so that
 * the hand-written client never shares an event loop with the emulators of the bench process.
 * Forked by bench/lib/raw.ts; answers each IPC message with one measured creation.
 */
"use strict";
require("./ts-hook.cjs");
require("./lib/raw-child.ts").serve();
