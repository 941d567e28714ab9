/**
 * The gRPC client of a running dynamic-provider host, calling it as the engine does and marking
 * results as the engine stores them (see host.ts).
 */
import type { ChildProcess } from "node:child_process";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import {
  HostCallError,
  type CheckResult,
  type ConfigureResult,
  type CreateResult,
  type DiffResult,
  type Host,
  type ReadResult,
  type StepOptions,
} from "./host-types";
import { stopChild, tail } from "./process";
import {
  annotateSecrets,
  dropUndefined,
  markAdditionalSecretOutputs,
  unwrapSecrets,
  type PropertyMap,
  type SecretValue,
} from "./property-values";

/** The gRPC and protobuf modules of the consumer's @pulumi/pulumi. */
export interface Wire {
  grpc: typeof GrpcJs;
  provider: typeof ProviderPb;
  providerGrpc: typeof ProviderGrpcPb;
  status: typeof StatusPb;
  struct: typeof StructPb;
}

type UnaryMethod = (
  request: unknown,
  metadata: GrpcJs.Metadata,
  options: Partial<GrpcJs.CallOptions>,
  callback: (error: GrpcJs.ServiceError | null, response: unknown) => void,
) => GrpcJs.ClientUnaryCall;

export interface HostState {
  port: number;
  startupMs: number;
  defaultConfig: Record<string, string | SecretValue<string>>;
  secrets: "engine" | "passthrough";
  callTimeoutMs: number;
  stdout: () => string;
  stderr: () => string;
  exited: () => { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

/** @internal */
export class HostClient implements Host {
  readonly port: number;
  readonly pid: number;
  readonly startupMs: number;
  /** Undefined until Configure answered; then whether the engine may keep secrets. */
  private acceptSecrets: boolean | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly wire: Wire,
    private readonly client: ProviderGrpcPb.ResourceProviderClient,
    private readonly child: ChildProcess,
    private readonly exitPromise: Promise<void>,
    private readonly state: HostState,
  ) {
    this.port = state.port;
    this.pid = child.pid ?? -1;
    this.startupMs = state.startupMs;
  }

  stdout(): string {
    return this.state.stdout();
  }

  stderr(): string {
    return this.state.stderr();
  }

  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.state.exited();
  }

  async configure(
    config: Record<string, string | SecretValue<string>> = this.state.defaultConfig,
  ): Promise<ConfigureResult> {
    const { provider, struct } = this.wire;
    const request = new provider.ConfigureRequest();
    // Like the engine: `variables` holds plain strings under the legacy
    // `<pkg>:config:<key>` spelling, `args` the values with secrets kept.
    const variables = request.getVariablesMap();
    for (const [key, value] of Object.entries(config)) {
      variables.set(`pulumi-nodejs:config:${key}`, unwrapSecrets(value) as string);
    }
    request.setArgs(struct.Struct.fromJavaScript(config));
    request.setAcceptsecrets(true);
    request.setAcceptresources(true);
    request.setSendsOldInputs(true);
    request.setSendsOldInputsToDelete(true);
    const response = (await this.call("configure", request)) as ProviderPb.ConfigureResponse;
    this.acceptSecrets = response.getAcceptsecrets();
    return {
      acceptSecrets: response.getAcceptsecrets(),
      acceptResources: response.getAcceptresources(),
      acceptOutputs: response.getAcceptoutputs(),
      supportsPreview: response.getSupportspreview(),
    };
  }

  async check(urnValue: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const request = new this.wire.provider.CheckRequest();
    this.setTarget(request, urnValue);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    const response = (await this.call("check", request)) as ProviderPb.CheckResponse;
    const inputs = this.fromStruct(response.getInputs());
    if (this.annotates()) annotateSecrets(inputs, news);
    return {
      inputs,
      failures: response.getFailuresList().map((f) => ({
        property: f.getProperty(),
        reason: f.getReason(),
      })),
    };
  }

  async diff(
    id: string,
    urnValue: string,
    olds: PropertyMap,
    news: PropertyMap,
    options: StepOptions = {},
  ): Promise<DiffResult> {
    const { provider } = this.wire;
    const request = new provider.DiffRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    if (options.oldInputs !== undefined) request.setOldInputs(this.toStruct(options.oldInputs));
    const response = (await this.call("diff", request)) as ProviderPb.DiffResponse;
    const names = {
      [provider.DiffResponse.DiffChanges.DIFF_UNKNOWN]: "DIFF_UNKNOWN",
      [provider.DiffResponse.DiffChanges.DIFF_NONE]: "DIFF_NONE",
      [provider.DiffResponse.DiffChanges.DIFF_SOME]: "DIFF_SOME",
    } as const;
    return {
      changes: names[response.getChanges()],
      replaces: response.getReplacesList(),
      stables: response.getStablesList(),
      diffs: response.getDiffsList(),
      deleteBeforeReplace: response.getDeletebeforereplace(),
      hasDetailedDiff: response.getHasdetaileddiff(),
    };
  }

  async create(
    urnValue: string,
    properties: PropertyMap,
    options: StepOptions = {},
  ): Promise<CreateResult> {
    const request = new this.wire.provider.CreateRequest();
    this.setTarget(request, urnValue);
    request.setProperties(this.toStruct(properties));
    const response = (await this.call("create", request, properties)) as ProviderPb.CreateResponse;
    return {
      id: response.getId(),
      properties: this.outputs(response.getProperties(), properties, options),
    };
  }

  async read(
    id: string,
    urnValue: string,
    properties: PropertyMap,
    inputs?: PropertyMap,
    options: StepOptions = {},
  ): Promise<ReadResult> {
    const request = new this.wire.provider.ReadRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setProperties(this.toStruct(properties));
    if (inputs !== undefined) request.setInputs(this.toStruct(inputs));
    const response = (await this.call("read", request)) as ProviderPb.ReadResponse;
    const newInputs = response.getInputs();
    let readInputs: PropertyMap | undefined;
    if (newInputs !== undefined) {
      readInputs = this.fromStruct(newInputs);
      if (this.annotates() && inputs !== undefined) annotateSecrets(readInputs, inputs);
    }
    return {
      id: response.getId(),
      properties: this.outputs(response.getProperties(), properties, options),
      inputs: readInputs,
    };
  }

  async update(
    id: string,
    urnValue: string,
    olds: PropertyMap,
    news: PropertyMap,
    options: StepOptions = {},
  ): Promise<{ properties: PropertyMap }> {
    const request = new this.wire.provider.UpdateRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    if (options.oldInputs !== undefined) request.setOldInputs(this.toStruct(options.oldInputs));
    const response = (await this.call("update", request, news)) as ProviderPb.UpdateResponse;
    return { properties: this.outputs(response.getProperties(), news, options) };
  }

  async delete(
    id: string,
    urnValue: string,
    properties: PropertyMap,
    options: StepOptions = {},
  ): Promise<void> {
    const request = new this.wire.provider.DeleteRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setProperties(this.toStruct(properties));
    if (options.oldInputs !== undefined) request.setOldInputs(this.toStruct(options.oldInputs));
    await this.call("delete", request);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.client.close();
      await stopChild(this.child, this.exitPromise, () => this.state.exited() !== undefined);
    })();
    return this.closing;
  }

  /** Urn, name and type, as the engine fills them in from the URN. */
  private setTarget(
    request: {
      setUrn(v: string): unknown;
      setName(v: string): unknown;
      setType(v: string): unknown;
    },
    urnValue: string,
  ): void {
    const parts = urnValue.split("::");
    request.setUrn(urnValue);
    request.setName(parts[3] ?? "");
    request.setType((parts[2] ?? "").split("$").pop() ?? "");
  }

  private annotates(): boolean {
    return this.state.secrets === "engine" && this.acceptSecrets === false;
  }

  private toStruct(map: PropertyMap): StructPb.Struct {
    if (this.acceptSecrets === undefined) {
      throw new Error(
        "call configure() first: the engine always configures a provider before using it",
      );
    }
    const plain = this.annotates() ? unwrapSecrets(map) : map;
    return this.wire.struct.Struct.fromJavaScript(
      dropUndefined(plain) as Record<string, StructPb.JavaScriptValue>,
    );
  }

  private fromStruct(value: StructPb.Struct | undefined): PropertyMap {
    return value?.toJavaScript() ?? {};
  }

  private outputs(
    value: StructPb.Struct | undefined,
    inputs: PropertyMap,
    options: StepOptions,
  ): PropertyMap {
    const outs = this.fromStruct(value);
    if (this.annotates()) annotateSecrets(outs, inputs);
    if (this.state.secrets === "engine") {
      markAdditionalSecretOutputs(outs, options.additionalSecretOutputs ?? []);
    }
    return outs;
  }

  private async call(method: string, request: unknown, inputs?: PropertyMap): Promise<unknown> {
    const fn = (this.client as unknown as Record<string, UnaryMethod>)[method]!.bind(this.client);
    const outcome = await new Promise<{ response: unknown } | { error: GrpcJs.ServiceError }>(
      (resolve) => {
        fn(
          request,
          new this.wire.grpc.Metadata(),
          { deadline: Date.now() + this.state.callTimeoutMs },
          (error, response) => resolve(error === null ? { response } : { error }),
        );
      },
    );
    await this.settleOutput();
    if ("error" in outcome) throw this.toError(method, outcome.error, inputs);
    return outcome.response;
  }

  /**
   * Lets the host's output catch up with its answer, so that stdout()/stderr()
   * hold everything printed during the call. The host writes to pipes
   * synchronously (Linux) before it answers, so the bytes are already readable
   * here; the gRPC answer may merely be processed first. Wait event-loop turns
   * until the output stops growing.
   */
  private async settleOutput(): Promise<void> {
    let size = -1;
    for (let turn = 0; turn < 100; turn++) {
      const current = this.state.stdout().length + this.state.stderr().length;
      if (current === size && turn >= 2) return;
      size = current;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private toError(method: string, error: GrpcJs.ServiceError, inputs?: PropertyMap): HostCallError {
    const { grpc, status, provider } = this.wire;
    let id: string | undefined;
    let properties: PropertyMap | undefined;
    let reasons: string[] | undefined;
    for (const raw of error.metadata.get("grpc-status-details-bin")) {
      const buffer = typeof raw === "string" ? Buffer.from(raw, "base64") : raw;
      for (const detail of status.Status.deserializeBinary(buffer).getDetailsList()) {
        if (detail.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
        const failed = provider.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
        id = failed.getId();
        properties = this.fromStruct(failed.getProperties());
        if (this.annotates() && inputs !== undefined) annotateSecrets(properties, inputs);
        reasons = failed.getReasonsList();
      }
    }
    let message = error.details;
    // Transport failures say nothing about the provider: add what the host did.
    if (error.code !== grpc.status.UNKNOWN) {
      const exited = this.state.exited();
      message =
        `${method} on the dynamic-provider host failed (${grpc.status[error.code]}): ${error.details}` +
        (exited ? ` (the host exited: ${exited.code ?? exited.signal})` : "") +
        `\nhost stderr:\n${tail(this.state.stderr())}`;
    }
    return new HostCallError(
      message,
      method,
      error.code,
      error.details,
      error.metadata.toJSON(),
      id,
      properties,
      reasons,
    );
  }
}
