/**
 * Imported first by the CLI (emulator/cli.ts), so that nothing else has run when node is started
 * again with the heap's bounds (process/heap-growth.ts): no module loaded, no handle opened, no
 * byte written. Only when the CLI is the program node runs, so that a program loading it for
 * another reason is never replaced.
 */
import path from "node:path";
import { restartWithHeapBounds } from "./heap-growth";

const cli = path.join(path.dirname(__dirname), `cli${path.extname(__filename)}`);
if (require.main?.filename === cli) restartWithHeapBounds();
