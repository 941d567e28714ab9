/**
 * Keeps the compiled code of the modules a lifecycle step loaded, when Node's compile cache is on.
 *
 * Node writes its compile cache (`NODE_COMPILE_CACHE`, or `module.enableCompileCache()`) when the
 * process exits normally. The processes the engine starts for a provider (Pulumi's
 * dynamic-provider host, our provider plugin) never do: at the end of every `pulumi up` the
 * engine kills them (SIGKILL). So the modules only they load (this package's implementation, zod
 * and undici, about 280 modules) were compiled anew in every run, though `npm start` and the
 * benchmark turn the cache on: loading the Site's implementation took 128 to 160 ms instead of
 * 71 to 89 ms (measured with Node 24 on the 2-core machine of bench/RESULTS.md).
 *
 * @internal
 */
import * as nodeModule from "node:module";

let scheduled = false;

/**
 * After a lifecycle step, writes what the step compiled into the compile cache, once the step's
 * answer has gone (`setImmediate`). Only modules not yet in the cache are written: about 55 ms
 * for the first run's 300 modules, then under 4 ms, and nothing at all for later steps of the
 * same process. Without the compile cache on, it does nothing.
 */
export function saveCompiledCode(): void {
  if (scheduled || nodeModule.getCompileCacheDir() === undefined) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    nodeModule.flushCompileCache();
  });
}
