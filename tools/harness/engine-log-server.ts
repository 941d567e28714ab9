/**
 * The engine's `Log` service alone, for a dynamic-provider host started without the engine
 * (host.ts): a provider process sends its messages there as it does to the real engine, so a
 * measured call pays a delivered message, not the fallback after an unreachable address. It runs
 * in a process of its own, as the engine does, so that answering the provider never takes the
 * event loop of the process that runs the test (and an emulator).
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { stopChild, tail } from "./process";

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
 * The service's process: gRPC and the generated stubs of the consumer's @pulumi/pulumi (argv[1]),
 * the host's own copies; prints its port, then one JSON line per message.
 */
const SERVER = String.raw`"use strict";
const path = require("node:path");
const dir = process.argv[1];
const load = (id) => require(require.resolve(id, { paths: [dir] }));
const grpc = load("@grpc/grpc-js");
const service = load(path.join(dir, "proto", "engine_grpc_pb.js"));
const { Empty } = load("google-protobuf/google/protobuf/empty_pb");
const server = new grpc.Server();
server.addService(service.EngineService, {
  log: (call, callback) => {
    const r = call.request;
    process.stdout.write(JSON.stringify({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn() }) + "\n");
    callback(null, new Empty());
  },
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  process.stdout.write(port + "\n");
});
`;

/** Starts the service for the consumer whose @pulumi/pulumi is at `pulumiDir`. */
export async function startEngineLogServer(pulumiDir: string): Promise<EngineLogServer> {
  const child = spawn(process.execPath, ["-e", SERVER, path.resolve(pulumiDir)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on("exit", () => {
      exited = true;
      resolve();
    }),
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const messages: EngineLogMessage[] = [];
  let buffered = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (/^\d+$/.test(line)) resolve(Number(line));
        else messages.push(JSON.parse(line) as EngineLogMessage);
      }
    });
    child.on("exit", (code) =>
      reject(new Error(`the engine's Log service exited (${code}):\n${tail(stderr)}`)),
    );
  });
  return {
    address: `127.0.0.1:${port}`,
    messages,
    close: () => stopChild(child, exit, () => exited),
  };
}
