/**
 * The engine's `Log` service alone, for a dynamic-provider host started without the engine
 * (host.ts): a provider process sends its messages there as it does to the real engine, so a
 * measured call pays a delivered message, not the fallback after an unreachable address.
 */
import * as path from "node:path";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as EngineGrpcPb from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";

/** One message a provider sent to `Log`. */
export interface EngineLogMessage {
  severity: number;
  message: string;
  urn: string;
}

/** A running `Log` service. */
export interface EngineLogServer {
  /** `127.0.0.1:PORT`, the argument the engine gives a provider. */
  readonly address: string;
  /** The messages received so far, in order. */
  readonly messages: EngineLogMessage[];
  close(): Promise<void>;
}

/**
 * Starts the service on 127.0.0.1 with the gRPC and generated stubs of the consumer's
 * @pulumi/pulumi (`pulumiDir`), as the host's own copies.
 */
export async function startEngineLogServer(pulumiDir: string): Promise<EngineLogServer> {
  const load = (id: string): unknown =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved at run time from the consumer's SDK
    require(require.resolve(id, { paths: [pulumiDir] }));
  const grpc = load("@grpc/grpc-js") as typeof GrpcJs;
  const service = load(path.join(pulumiDir, "proto", "engine_grpc_pb.js")) as typeof EngineGrpcPb;
  const empty = load("google-protobuf/google/protobuf/empty_pb") as typeof EmptyPb;
  const messages: EngineLogMessage[] = [];
  const server = new grpc.Server();
  server.addService(service.EngineService, {
    log: (
      call: GrpcJs.ServerUnaryCall<EnginePb.LogRequest, EmptyPb.Empty>,
      callback: GrpcJs.sendUnaryData<EmptyPb.Empty>,
    ) => {
      messages.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
      callback(null, new empty.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
