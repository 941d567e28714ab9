/**
 * The engine's log, for a provider process: the engine starts every provider (the plugin, and
 * Pulumi's dynamic-provider host) with the address of its `Engine` gRPC service as argument, and a
 * message sent to its `Log` with a resource's URN is shown under that resource, once, in every
 * display (`pulumi.log` has no such connection in a provider process and prints to stdout, which
 * the engine files under the stack). Pulumi's generated stubs and gRPC come from sdk-modules.ts.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import { pulumiLog } from "./log";
import { type LogSeverity, type OperationLogger, withOperationLogger } from "./operation-log";
import { inProviderHost } from "../pulumi/host-watch";
import { sdkModule } from "../pulumi/sdk-modules";

/** How long one message may take to reach the engine before the console takes it instead. */
const LOG_DEADLINE_MS = 10_000;

/**
 * The engine's address among a provider's arguments: the first that is not one of the logging and
 * tracing flags the engine puts before it (`--logtostderr`, `-v=N`, `--tracing <endpoint>`).
 *
 * @internal
 */
export function engineAddress(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--logtostderr" || arg.startsWith("-v=")) continue;
    if (arg === "--tracing") {
      i += 1;
      continue;
    }
    return arg;
  }
  return undefined;
}

/**
 * A connection to the engine's `Log`. Messages go one after another, in the order written; when
 * the engine cannot be reached (a test's host started without one), this one and every later one
 * go through Pulumi's log instead, so that nothing is lost.
 *
 * @internal
 */
export class EngineLog {
  private readonly client: engineGrpc.EngineClient;
  private readonly proto: typeof engineProto;
  private readonly grpc: typeof grpcTypes;
  private tail: Promise<void> = Promise.resolve();
  private reachable = true;

  constructor(address: string) {
    this.grpc = sdkModule("@grpc/grpc-js") as typeof grpcTypes;
    const rpc = sdkModule("./proto/engine_grpc_pb") as typeof engineGrpc;
    this.proto = sdkModule("./proto/engine_pb") as typeof engineProto;
    this.client = new rpc.EngineClient(address, this.grpc.credentials.createInsecure());
  }

  /** Sends a message, under `urn` ("" for the stack), after the ones sent before it. */
  log(severity: LogSeverity, message: string, urn: string): void {
    this.tail = this.tail.then(() => this.send(severity, message, urn));
  }

  /** The logger of one operation, whose messages go under `urn`. */
  logger(urn: string): OperationLogger {
    return { log: (severity, message) => this.log(severity, message, urn) };
  }

  /** Resolves once every message written so far has been delivered (or printed instead). */
  flush(): Promise<void> {
    return this.tail;
  }

  private send(severity: LogSeverity, message: string, urn: string): Promise<void> {
    if (!this.reachable) {
      pulumiLog(severity, message);
      return Promise.resolve();
    }
    const request = new this.proto.LogRequest();
    request.setSeverity(
      severity === "warning" ? this.proto.LogSeverity.WARNING : this.proto.LogSeverity.INFO,
    );
    request.setMessage(message);
    request.setUrn(urn);
    return new Promise((resolve) => {
      this.client.log(
        request,
        new this.grpc.Metadata(),
        { deadline: Date.now() + LOG_DEADLINE_MS },
        (error) => {
          if (error !== null) {
            this.reachable = false;
            pulumiLog(severity, message);
          }
          resolve();
        },
      );
    });
  }
}

/**
 * Runs one lifecycle step with its messages going to the engine under `urn`, and answers only
 * once they are delivered: the engine may end the provider as soon as the last step has answered.
 *
 * @internal
 */
export async function loggedTo<T>(
  engine: EngineLog,
  urn: string,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await withOperationLogger(engine.logger(urn), step);
  } finally {
    await engine.flush();
  }
}

let hostEngine: EngineLog | null | undefined;

/**
 * The engine's log of Pulumi's dynamic-provider host, when this process is one (its arguments
 * carry the engine's address, as the plugin's do); undefined anywhere else. The host does not
 * pass a step the resource's URN, so its messages go under the stack.
 *
 * @internal
 */
export function hostEngineLog(): EngineLog | undefined {
  if (hostEngine === undefined) {
    const address = inProviderHost() ? engineAddress(process.argv.slice(2)) : undefined;
    hostEngine = address === undefined ? null : new EngineLog(address);
  }
  return hostEngine ?? undefined;
}
