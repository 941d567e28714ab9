/**
 * The entry of the provider plugin `pulumi-resource-arcgis-admin` (bin/ has its launcher): starts
 * the gRPC server and prints its port, the first line the engine reads from a plugin. The engine
 * passes the address of its own `Engine` service as an argument: the resources' messages go there,
 * each under the URN of the resource it is about.
 */
import { EngineLog, engineAddress } from "../resources/common/messages/engine-log";
import { PluginServer, startPluginServer } from "./server";

/** How often the parent is looked at: a plugin whose engine is gone ends. */
const WATCH_INTERVAL_MS = 1_000;

async function main(): Promise<void> {
  const address = engineAddress(process.argv.slice(2));
  const engine = address === undefined ? undefined : new EngineLog(address);
  const { port } = await startPluginServer(new PluginServer(undefined, engine));
  // A string, so that Node does not colour it.
  process.stdout.write(`${String(port)}\n`);
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, WATCH_INTERVAL_MS).unref();
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-arcgis-admin: ${String(error)}\n`);
  process.exit(1);
});
