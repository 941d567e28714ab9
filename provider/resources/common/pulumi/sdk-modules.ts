/**
 * The modules of Pulumi's Node.js SDK that a provider process talks gRPC with: gRPC itself, the
 * protobuf runtime and Pulumi's generated stubs. They are loaded from @pulumi/pulumi's own folder,
 * as its SDK uses them (gRPC and protobuf are its dependencies, not this package's, and npm may
 * install them below it), and only when a provider process needs them.
 *
 * Every module is named in {@link SDK_MODULES}: the plugin archive's bundler
 * (toolchain/plugin-archive.cjs) replaces this module by one that requires each of them by path, so
 * that the archive carries them.
 */
import { createRequire } from "node:module";

/** Every module {@link sdkModule} loads, as @pulumi/pulumi's own `require` names it. */
export const SDK_MODULES = [
  "@grpc/grpc-js",
  "google-protobuf/google/protobuf/any_pb.js",
  "google-protobuf/google/protobuf/empty_pb.js",
  "google-protobuf/google/protobuf/struct_pb.js",
  "./proto/engine_grpc_pb",
  "./proto/engine_pb",
  "./proto/plugin_pb",
  "./proto/provider_grpc_pb",
  "./proto/provider_pb",
  "./proto/status_pb",
] as const;

export type SdkModule = (typeof SDK_MODULES)[number];

let pulumiRequire: NodeJS.Require | undefined;

/** One of {@link SDK_MODULES}, from @pulumi/pulumi's folder; the caller states its type. */
export function sdkModule(id: SdkModule): unknown {
  pulumiRequire ??= createRequire(require.resolve("@pulumi/pulumi"));
  return pulumiRequire(id);
}
