/**
 * Imported first by the CLI (emulator/cli.ts), so that nothing else has run when node is started
 * again with the heap's bounds (process/heap-growth.ts): no module loaded, no handle opened, no
 * byte written. Only when the CLI is the program node runs, so that a program loading it for
 * another reason is never replaced; and not for a run that serves nothing itself (help, or
 * starting or stopping a background emulator, which is itself started as the CLI), whose heap
 * never grows and which would pay a second start of node for nothing.
 */
import path from "node:path";
import { restartWithHeapBounds } from "./heap-growth";

/** Flags with which the CLI never serves requests itself. */
const SERVES_NOTHING = ["--help", "-h", "--detach", "--stop"];

const cli = path.join(path.dirname(__dirname), `cli${path.extname(__filename)}`);
if (
  require.main?.filename === cli &&
  !process.argv.slice(2).some((arg) => SERVES_NOTHING.includes(arg))
) {
  restartWithHeapBounds();
}
