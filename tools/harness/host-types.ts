/** What the dynamic-provider host harness (host.ts) takes and answers: options, results, errors. */
import type * as GrpcJs from "@grpc/grpc-js";
import type { PropertyMap, SecretValue } from "./property-values";

/** Options of {@link startHost}. */
export interface HostOptions {
  /**
   * Stack config (`"ns:key": value`). The engine gives it to the host as
   * PULUMI_CONFIG and, in Configure, as args; `configure()` without an
   * argument sends these.
   */
  config?: Record<string, string | SecretValue<string>>;
  /** Extra environment variables for the host. */
  env?: Record<string, string>;
  /**
   * `"engine"` (default): strip secret markers before sending when the host
   * does not accept secrets and re-mark results as the engine does.
   * `"passthrough"`: send and return exactly what is given and received.
   */
  secrets?: "engine" | "passthrough";
  /** Deadline of each call (default 60 s). */
  callTimeoutMs?: number;
  /** How long to wait for the port (default 30 s). */
  startTimeoutMs?: number;
  /**
   * The engine's address the host is given (default `127.0.0.1:0`, where nothing answers; see
   * engine-log-server.ts for one that takes the provider's messages).
   */
  engineAddress?: string;
}

/** What the host answered to Configure. */
export interface ConfigureResult {
  acceptSecrets: boolean;
  acceptResources: boolean;
  acceptOutputs: boolean;
  supportsPreview: boolean;
}

/** The result of Check. */
export interface CheckResult {
  inputs: PropertyMap;
  failures: { property: string; reason: string }[];
}

/** The result of Diff. */
export interface DiffResult {
  changes: "DIFF_UNKNOWN" | "DIFF_NONE" | "DIFF_SOME";
  replaces: string[];
  stables: string[];
  diffs: string[];
  deleteBeforeReplace: boolean;
  hasDetailedDiff: boolean;
}

/** The result of Create. */
export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

/** The result of Read; an empty `id` means the resource is gone. */
export interface ReadResult {
  id: string;
  properties: PropertyMap;
  inputs: PropertyMap | undefined;
}

/** Per-call options that mirror what the engine knows about the resource. */
export interface StepOptions {
  /** The resource's `additionalSecretOutputs` (from the registration). */
  additionalSecretOutputs?: readonly string[];
  /** The previous inputs, which the engine sends as `oldInputs` (the host ignores them). */
  oldInputs?: PropertyMap;
}

/**
 * The error a host call rejects with. `message` is the gRPC details, i.e. what
 * the user would read; match on `code`.
 */
export class HostCallError extends Error {
  readonly code = "HOST_CALL_FAILED";
  constructor(
    message: string,
    /** The RPC method, e.g. `create`. */
    readonly method: string,
    /** The gRPC status code (2 = UNKNOWN for errors thrown by the provider). */
    readonly grpcCode: number,
    /** The gRPC details. */
    readonly details: string,
    /** The raw gRPC metadata, as a plain map (binary values as Buffers). */
    readonly metadata: Record<string, GrpcJs.MetadataValue[]>,
    /** From `grpc-status-details-bin` (`ErrorResourceInitFailed`): the id of a resource created with errors. */
    readonly id: string | undefined,
    /** From `ErrorResourceInitFailed`: its properties. */
    readonly properties: PropertyMap | undefined,
    /** From `ErrorResourceInitFailed`: its reasons. */
    readonly reasons: string[] | undefined,
  ) {
    super(message);
    this.name = "HostCallError";
  }
}

/**
 * Waits for a host call that must fail and returns its {@link HostCallError}, recording the
 * message in `texts` (the suites check those texts for leaked secrets).
 *
 * @example
 * ```ts
 * const error = await hostFailure(host.create(urn("site"), inputs), errorTexts);
 * ```
 */
export async function hostFailure(
  promise: Promise<unknown>,
  texts?: string[],
): Promise<HostCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HostCallError)) {
    throw new Error(`expected the host call to fail with a HostCallError, got ${String(error)}`);
  }
  texts?.push(error.message);
  return error;
}

/** A running dynamic-provider host and a gRPC client connected to it. */
export interface Host {
  /** The host's port on 127.0.0.1. */
  readonly port: number;
  /** The host's process id. */
  readonly pid: number;
  /** How long spawn-to-port took, in ms. */
  readonly startupMs: number;
  /** Configure, as the engine sends it (must come first). */
  configure(config?: Record<string, string | SecretValue<string>>): Promise<ConfigureResult>;
  /** Check: `olds` are the previous inputs (`{}` on create), `news` the program's inputs. */
  check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult>;
  /** Diff: `olds` are the previous OUTPUTS (state), `news` the checked inputs. */
  diff(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    options?: StepOptions,
  ): Promise<DiffResult>;
  /** Create from the checked inputs; outputs are marked as the engine would store them. */
  create(urn: string, properties: PropertyMap, options?: StepOptions): Promise<CreateResult>;
  /** Read (refresh): `properties` is the state, `inputs` the previous inputs. */
  read(
    id: string,
    urn: string,
    properties: PropertyMap,
    inputs?: PropertyMap,
    options?: StepOptions,
  ): Promise<ReadResult>;
  /** Update: `olds` are the previous outputs, `news` the checked inputs. */
  update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    options?: StepOptions,
  ): Promise<{ properties: PropertyMap }>;
  /** Delete: `properties` are the outputs from state. */
  delete(id: string, urn: string, properties: PropertyMap, options?: StepOptions): Promise<void>;
  /** Everything the host wrote to stdout so far (the port line included). */
  stdout(): string;
  /** Everything the host wrote to stderr so far. */
  stderr(): string;
  /** The exit code/signal once the host has exited, else undefined. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Closes the client and stops the host (SIGTERM, then SIGKILL); idempotent. */
  close(): Promise<void>;
}
