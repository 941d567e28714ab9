/**
 * Test harness for Pulumi's REAL dynamic-provider host: starts
 * `@pulumi/pulumi/cmd/dynamic-provider` in a consumer project (consumer.ts) and drives it over
 * gRPC the way the Pulumi engine does ({@link startHost}). How secrets flow between the engine
 * and the host: property-values.ts.
 *
 * ## Other host facts the suites rely on
 * - The host's Configure throws (and never answers) when `args` is missing:
 *   every call here carries a deadline so a test cannot hang.
 * - Errors from check/diff/read/delete and from create/update reach the engine
 *   as gRPC UNKNOWN with `details` = the error's `message` (no stack), but the
 *   host ALSO prints check/diff/read/delete errors with their stack to its
 *   stderr, which the engine shows the user. From create/update only, an
 *   error carrying `id` adds `grpc-status-details-bin` with
 *   `pulumirpc.ErrorResourceInitFailed {id, properties, reasons}`: the engine
 *   then records the resource as created with errors.
 * - The host caches each deserialized provider by its `__provider` text and
 *   calls `provider.configure` once per text, with the config current when
 *   that text is first used; provider output written synchronously during a call is in
 *   {@link Host.stdout}/{@link Host.stderr} when the call resolves.
 * - Outputs keep `__provider` (the host copies it back); `read` answers an
 *   empty id when the provider says the resource is gone.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import { HostClient, type Wire } from "./host-client";
import type { Host, HostOptions } from "./host-types";
import { stopChild, tail } from "./process";
import { PROJECT } from "./project";
import { unwrapSecrets } from "./property-values";

/**
 * Loads grpc-js, google-protobuf and the generated classes from the consumer's
 * @pulumi/pulumi, i.e. the copies the host itself uses: Struct and Message
 * classes from another google-protobuf copy would not be recognized.
 */
function loadWire(pulumiDir: string): Wire {
  const load = (id: string): unknown =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved at run time from the consumer's SDK
    require(require.resolve(id, { paths: [pulumiDir] }));
  return {
    grpc: load("@grpc/grpc-js") as typeof GrpcJs,
    provider: load(path.join(pulumiDir, "proto", "provider_pb.js")) as typeof ProviderPb,
    providerGrpc: load(
      path.join(pulumiDir, "proto", "provider_grpc_pb.js"),
    ) as typeof ProviderGrpcPb,
    status: load(path.join(pulumiDir, "proto", "status_pb.js")) as typeof StatusPb,
    struct: load("google-protobuf/google/protobuf/struct_pb") as typeof StructPb,
  };
}

/**
 * Starts `@pulumi/pulumi/cmd/dynamic-provider` with `consumerDir` as cwd (as
 * the engine does through `pulumi-resource-pulumi-nodejs`) and connects a
 * `ResourceProviderClient` to the port it prints first. The engine-address
 * argument is required by the host but unused (it never dials the engine).
 *
 * @param consumerDir - a project whose node_modules holds @pulumi/pulumi.
 * @param options - config, env, secret handling and timeouts.
 * @example
 * ```ts
 * const host = await startHost(consumer.dir);
 * await host.configure();
 * const { inputs } = await host.check(urn("a"), {}, registration.inputs);
 * const { id, properties } = await host.create(urn("a"), inputs);
 * await host.close();
 * ```
 */
export async function startHost(consumerDir: string, options: HostOptions = {}): Promise<Host> {
  const pulumiDir = fs.realpathSync(path.join(consumerDir, "node_modules", "@pulumi", "pulumi"));
  const wire = loadWire(pulumiDir);
  const hostScript = path.join(pulumiDir, "cmd", "dynamic-provider", "index.js");
  const defaultConfig = options.config ?? {};
  const started = Date.now();
  const child = spawn(process.execPath, [hostScript, options.engineAddress ?? "127.0.0.1:0"], {
    cwd: consumerDir,
    env: {
      ...process.env,
      // What the engine sets for the pulumi-nodejs plugin.
      PULUMI_NODEJS_PROJECT: PROJECT,
      PULUMI_PROJECT: PROJECT,
      PULUMI_CONFIG: JSON.stringify(unwrapSecrets(defaultConfig)),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`the host printed no port within ${options.startTimeoutMs ?? 30_000} ms`),
          ),
        options.startTimeoutMs ?? 30_000,
      );
      child.stdout.on("data", (chunk: string) => {
        stdout += chunk;
        const newline = stdout.indexOf("\n");
        if (newline >= 0) {
          clearTimeout(timer);
          const value = Number(stdout.slice(0, newline).trim());
          if (Number.isInteger(value) && value > 0) resolve(value);
          else
            reject(new Error(`unexpected first line from the host: ${stdout.slice(0, newline)}`));
        }
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the host exited (${code ?? signal}) before printing its port`));
      });
    });
  } catch (error) {
    await stopChild(child, exitPromise, () => exit !== undefined);
    throw new Error(`${(error as Error).message}\nhost stderr:\n${tail(stderr)}`, {
      cause: error,
    });
  }
  const startupMs = Date.now() - started;

  const client = new wire.providerGrpc.ResourceProviderClient(
    `127.0.0.1:${port}`,
    wire.grpc.credentials.createInsecure(),
  );
  return new HostClient(wire, client, child, exitPromise, {
    port,
    startupMs,
    defaultConfig,
    secrets: options.secrets ?? "engine",
    callTimeoutMs: options.callTimeoutMs ?? 60_000,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => exit,
  });
}
