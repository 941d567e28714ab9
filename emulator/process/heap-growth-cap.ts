/**
 * Imported first by the CLI, so that the heap's growth is bounded before any other module loads:
 * loading them already grows the young generation, and V8 keeps what it grew
 * (process/heap-growth.ts).
 */
import { boundHeapGrowth } from "./heap-growth";

boundHeapGrowth();
