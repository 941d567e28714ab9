/**
 * The entry of the provider plugin `pulumi-resource-arcgis-admin` (bin/ has the npm package's
 * launcher; the plugin archive bundles this file): starts the gRPC server and prints its port, the
 * first line the engine reads from a plugin. The engine passes the address of its own `Engine`
 * service as an argument: the resources' messages go there, each under the URN of the resource it
 * is about.
 *
 * When the plugin cannot start, it prints one line saying what to do, and ends: the engine shows
 * what a plugin prints, with words of its own. Its modules are loaded here, not imported, so that
 * one that is missing (a dependency of the npm package not installed beside it) is such a line
 * too, not Node.js's stack trace.
 */
import type * as EngineLogModule from "../resources/common/messages/engine-log";
import type * as ServerModule from "./server";

/** How often the parent is looked at: a plugin whose engine is gone ends. */
const WATCH_INTERVAL_MS = 1_000;

const NAME = "pulumi-resource-arcgis-admin";

async function main(): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded here: see the file's comment */
  const { EngineLog, engineAddress } =
    require("../resources/common/messages/engine-log") as typeof EngineLogModule;
  const { PluginServer, startPluginServer } = require("./server") as typeof ServerModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
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

/** The one line said when the plugin cannot start: what went wrong, then what to do. */
function startFailure(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const missing = /Cannot find module '([^']+)'/.exec(String(message))?.[1];
  if (code === "MODULE_NOT_FOUND" && missing !== undefined) {
    return (
      `${NAME}: cannot start: the module '${missing}' it loads is not installed. Install the npm ` +
      "package with its peer dependency in one folder (npm install pulumi-arcgis-admin " +
      "@pulumi/pulumi), or install the plugin archive, which carries everything it needs " +
      "(docs/plugin.md)."
    );
  }
  const said = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
  return `${NAME}: cannot start: ${said}. Run the Pulumi command again; if this repeats, report it with this line.`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${startFailure(error)}\n`);
  process.exit(1);
});
