/**
 * The provider plugin's gRPC server: Pulumi's ResourceProvider service (the generated stubs that
 * ship in `@pulumi/pulumi/proto`) serving the same resource implementations as the dynamic
 * resources. Unlike the stock server behind `provider.main()`, `diff` reports the changed keys
 * (so `replaceOnChanges` works) and `configure` keeps the provider configuration (the connection
 * defaults of YAML and Python programs) and does not accept secrets: the implementations see the
 * same plain inputs as in the dynamic-provider host, and the credentials the plugin returns are
 * sent back marked secret, so state holds only their ciphertext.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import { CONNECTION_DEFAULTS } from "../resources/common/connection/resolve";
import { type EngineLog, loggedTo } from "../resources/common/messages/engine-log";
import { runAs } from "../resources/common/inputs/sources";
import { runCancellable } from "../resources/common/pulumi/cancel";
import { sdkModule } from "../resources/common/pulumi/sdk-modules";
import {
  isPartialCreate,
  type PartialCreateError,
} from "../resources/common/pulumi/partial-create";
import { sameValue } from "../resources/common/pulumi/state-diff";
import { sameUrl } from "../resources/common/connection/urls";
import { isSecretEnvelope, secretEnvelope } from "../resources/common/pulumi/secrets";
import { importRead } from "./import";
import { pluginResource, type PluginResource } from "./resources";
import { packageSchema, packageVersion, type PackageSchema, type PropertySpec } from "./schema";

const grpc = sdkModule("@grpc/grpc-js") as typeof grpcTypes;
const provproto = sdkModule("./proto/provider_pb") as typeof provTypes;
const provrpc = sdkModule("./proto/provider_grpc_pb") as {
  ResourceProviderService: grpcTypes.ServiceDefinition;
};
const plugproto = sdkModule("./proto/plugin_pb") as {
  PluginInfo: new () => { setVersion(v: string): void };
};
const emptyproto = sdkModule("google-protobuf/google/protobuf/empty_pb.js") as {
  Empty: new () => unknown;
};
const structproto = sdkModule("google-protobuf/google/protobuf/struct_pb.js") as {
  Struct: { fromJavaScript(value: Record<string, unknown>): unknown };
};
const anyproto = sdkModule("google-protobuf/google/protobuf/any_pb.js") as {
  Any: new () => { pack(bytes: Uint8Array, name: string): void };
};
const statusproto = sdkModule("./proto/status_pb") as {
  Status: new () => {
    setCode(code: number): void;
    setMessage(message: string): void;
    addDetails(detail: unknown): void;
    serializeBinary(): Uint8Array;
  };
};

/** A protobuf Struct as the stubs give it. */
interface Struct {
  toJavaScript(): Record<string, unknown>;
}

type Values = Record<string, unknown>;
type Call<Req> = { request: Req };
type Callback = grpcTypes.sendUnaryData<unknown>;

/** The connection defaults the plugin's configuration holds, by CONNECTION_DEFAULTS name. */
export type ProviderConfig = Partial<Record<keyof typeof CONNECTION_DEFAULTS, string>>;

/**
 * The default of one connection value: the plugin's configuration, else the environment.
 *
 * @internal
 */
export function connectionDefault(
  config: ProviderConfig,
  name: keyof typeof CONNECTION_DEFAULTS,
): string | undefined {
  const configured = config[name];
  if (configured !== undefined && configured !== "") return configured;
  const env = process.env[CONNECTION_DEFAULTS[name].env];
  return env === undefined || env === "" ? undefined : env;
}

/**
 * A resource's inputs with what they leave out of the connection taken from the defaults, as
 * the program does for TypeScript users (provider/resources/common/connection/resolve.ts): the URL, then
 * the credentials and TLS only when the resource's URL is the default one or there is no default URL (a password meant for
 * one server is never sent to another).
 *
 * @internal
 */
export function withConnectionDefaults(
  resource: PluginResource,
  news: Values,
  config: ProviderConfig,
): Values {
  const out = { ...news };
  const portal = resource.connection === "portal";
  const urlKey =
    resource.connection === "server"
      ? "adminUrl"
      : resource.connection === "machine"
        ? "siteAdminUrl"
        : "sharingUrl";
  const defaultUrl = connectionDefault(config, portal ? "sharingUrl" : "adminUrl");
  if (out[urlKey] === undefined && defaultUrl !== undefined) out[urlKey] = defaultUrl;
  const account = resource.serverAccount;
  if (account !== undefined) fillServerAccount(out, account, config);
  // Without a default URL, the credential defaults serve any URL (as in the program).
  if (defaultUrl !== undefined && !sameUrl(out[urlKey], defaultUrl)) return out;
  const credentials: Array<[string, keyof typeof CONNECTION_DEFAULTS]> = portal
    ? [
        ["username", "portalUsername"],
        ["password", "portalPassword"],
        ["token", "portalToken"],
      ]
    : [
        ["username", "username"],
        ["password", "password"],
      ];
  // As in the program: a server's username and password are each taken where given (a password
  // kept in secret stack config beside a username in the program); a portal's credentials come
  // as one set from one place, since a token and a username with password are alternatives.
  if (!portal || credentials.every(([key]) => out[key] === undefined)) {
    for (const [key, name] of credentials) {
      const value = out[key] === undefined ? connectionDefault(config, name) : undefined;
      if (value !== undefined) out[key] = value;
    }
    // A portal token and a username with password are alternatives: the token is the one given.
    if (portal && out.token !== undefined && out.password === undefined) delete out.username;
  }
  if (out.tls === undefined) {
    const caCert = connectionDefault(config, "caCert");
    const skip = connectionDefault(config, "insecureSkipVerify");
    if (caCert !== undefined || skip !== undefined) {
      out.tls = {
        ...(caCert !== undefined ? { caCert } : {}),
        ...(skip !== undefined ? { insecureSkipVerify: skip === "true" } : {}),
      };
    }
  }
  return out;
}

/**
 * A server administrator's inputs beside a portal connection (Federation's), from the server
 * defaults when the resource's `adminUrl` is the default one or there is none: the same rule as a
 * server resource's credentials.
 */
function fillServerAccount(
  out: Values,
  account: { username: string; password: string },
  config: ProviderConfig,
): void {
  const defaultUrl = connectionDefault(config, "adminUrl");
  if (defaultUrl !== undefined && !sameUrl(out.adminUrl, defaultUrl)) return;
  if (out[account.username] !== undefined || out[account.password] !== undefined) return;
  const username = connectionDefault(config, "username");
  const password = connectionDefault(config, "password");
  if (username !== undefined) out[account.username] = username;
  if (password !== undefined) out[account.password] = password;
}

/**
 * The changed keys between old outputs and new inputs: every input of the schema whose value
 * differs, the keys that replace included.
 *
 * @internal
 */
export function changedKeys(
  inputKeys: readonly string[],
  olds: Values,
  news: Values,
  replaces: readonly string[],
): string[] {
  const changed = inputKeys.filter((key) => !sameValue(olds[key], news[key]));
  return [...new Set([...changed, ...replaces])];
}

/** Marks the values of secret properties as secrets (at any depth), following the schema. */
function markSecrets(
  schema: PackageSchema,
  properties: Record<string, PropertySpec>,
  values: Values,
): Values {
  const out: Values = { ...values };
  for (const [key, spec] of Object.entries(properties)) {
    if (out[key] === undefined) continue;
    out[key] = markValue(schema, spec, out[key]);
  }
  return out;
}

function markValue(schema: PackageSchema, spec: PropertySpec, value: unknown): unknown {
  if (spec.secret === true) return isSecretEnvelope(value) ? value : secretEnvelope(value);
  if (spec.items !== undefined && Array.isArray(value)) {
    return value.map((item) => markValue(schema, spec.items!, item));
  }
  if (spec.$ref?.startsWith("#/types/") && value !== null && typeof value === "object") {
    const type = schema.types[spec.$ref.slice("#/types/".length)];
    if (type !== undefined) return markSecrets(schema, type.properties, value as Values);
  }
  return value;
}

/** The type token in a URN: `urn:pulumi:stack::project::[parent$]type::name`. */
function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

/** A gRPC error the engine shows as the operation's failure. */
interface Failure {
  code: number;
  details: string;
  metadata?: grpcTypes.Metadata;
}

/** The gRPC error of a failed operation (one already made into one is passed on). */
function failure(error: unknown): Failure {
  if (error instanceof GrpcFailure) return error.failure;
  const message = error instanceof Error ? error.message : String(error);
  return { code: grpc.status.UNKNOWN, details: message };
}

/** A failure already in its gRPC form (e.g. a create's partial state). */
class GrpcFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.details);
  }
}

/**
 * The ResourceProvider service of the plugin.
 *
 * @internal
 */
export class PluginServer {
  private config: ProviderConfig = {};
  /** Whether the engine can take secrets in answers (it said so in Configure). */
  private engineAcceptsSecrets = false;
  private readonly schema: PackageSchema;
  /**
   * Aborted by the engine's Cancel (the first Ctrl-C): every wait in which nothing was sent ends
   * at once (common/pulumi/cancel.ts); a request already sent is carried to its end.
   */
  private readonly cancelled = new AbortController();

  /**
   * @param version - the plugin's version, the package's.
   * @param engine - the engine's log, where each request's messages go under its URN; without
   *   it (a test's server, no engine), they go through Pulumi's log.
   */
  constructor(
    readonly version = packageVersion(),
    private readonly engine?: EngineLog,
  ) {
    this.schema = packageSchema(version);
  }

  private resourceOf(urn: string): PluginResource {
    const token = typeOfUrn(urn);
    const resource = pluginResource(token);
    if (resource === undefined) throw new Error(`unknown resource type ${token}`);
    return resource;
  }

  private spec(resource: PluginResource) {
    return this.schema.resources[`arcgis-admin:index:${resource.type}`]!;
  }

  /** Answers marked secret where the schema says so, when the engine accepts secrets. */
  private struct(resource: PluginResource, values: Values, inputs = false): unknown {
    const spec = this.spec(resource);
    const marked = this.engineAcceptsSecrets
      ? markSecrets(this.schema, inputs ? spec.inputProperties : spec.properties, values)
      : values;
    return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(marked)) as Values);
  }

  /**
   * Runs one method: its answer, or its error, to the callback. What the resource writes meanwhile
   * goes to the engine under the request's URN (Check, Diff, Create, Read, Update and Delete carry
   * it), so that the user sees it under that resource.
   */
  private serve<Req>(
    body: (request: Req) => unknown,
  ): (call: Call<Req>, callback: Callback) => void {
    return (call, callback) => {
      const request = call.request as Req & { getUrn?: () => string };
      const urn = typeof request.getUrn === "function" ? request.getUrn() : "";
      // Every message of the step is worded for a YAML or Python program (common/inputs/sources.ts),
      // and the engine's Cancel reaches its waits (common/pulumi/cancel.ts).
      const run = async (): Promise<unknown> =>
        runAs("plugin", () => runCancellable(this.cancelled.signal, () => body(call.request)));
      const engine = this.engine;
      (engine === undefined ? run() : loggedTo(engine, urn, run)).then(
        (value) => callback(null, value),
        (error: unknown) => callback(failure(error), null),
      );
    };
  }

  /**
   * A create's partial state as the protocol carries it: `ErrorResourceInitFailed` in the
   * status details, so that the engine records the resource (as the dynamic-provider host does).
   */
  private initFailed(resource: PluginResource, error: PartialCreateError): GrpcFailure {
    const { __provider: _provider, ...properties } = error.properties;
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(error.id);
    detail.setProperties(this.struct(resource, properties) as never);
    detail.setReasonsList(error.reasons);
    const packed = new anyproto.Any();
    packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(error.message);
    status.addDetails(packed);
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    return new GrpcFailure({ code: grpc.status.UNKNOWN, details: error.message, metadata });
  }

  /** The service implementation handed to grpc's `addService`. */
  handlers(): grpcTypes.UntypedServiceImplementation {
    const p = provproto;
    return {
      getPluginInfo: this.serve(() => {
        const info = new plugproto.PluginInfo();
        info.setVersion(this.version);
        return info;
      }),
      getSchema: this.serve((req: provTypes.GetSchemaRequest) => {
        if (req.getVersion() !== 0)
          throw new Error(`unsupported schema version ${req.getVersion()}`);
        const resp = new p.GetSchemaResponse();
        resp.setSchema(JSON.stringify(this.schema));
        return resp;
      }),
      checkConfig: this.serve((req: provTypes.CheckRequest) => {
        const resp = new p.CheckResponse();
        resp.setInputs(req.getNews());
        return resp;
      }),
      diffConfig: this.serve(() => {
        const resp = new p.DiffResponse();
        resp.setChanges(p.DiffResponse.DiffChanges.DIFF_NONE);
        return resp;
      }),
      configure: this.serve((req: provTypes.ConfigureRequest) => {
        const config: ProviderConfig = {};
        const args = (req.getArgs() as Struct | undefined)?.toJavaScript() ?? {};
        for (const name of Object.keys(CONNECTION_DEFAULTS) as Array<keyof ProviderConfig>) {
          // A secret in the arguments comes in its envelope, whatever the answer to acceptSecrets.
          const given = args[name];
          const fromArgs = isSecretEnvelope(given) ? given.value : given;
          const fromVars =
            req.getVariablesMap().get(`arcgis-admin:config:${name}`) ??
            req.getVariablesMap().get(`arcgis-admin:${name}`);
          const value = fromArgs ?? fromVars;
          if (
            typeof value === "string" ||
            typeof value === "boolean" ||
            typeof value === "number"
          ) {
            config[name] = String(value);
          }
        }
        this.config = config;
        this.engineAcceptsSecrets = req.getAcceptsecrets();
        const resp = new p.ConfigureResponse();
        resp.setAcceptsecrets(false);
        resp.setSupportspreview(false);
        resp.setAcceptresources(false);
        resp.setAcceptoutputs(false);
        return resp;
      }),
      cancel: this.serve(() => {
        this.cancelled.abort();
        return new emptyproto.Empty();
      }),
      check: this.serve(async (req: provTypes.CheckRequest) => {
        const resource = this.resourceOf(req.getUrn());
        const olds = (req.getOlds() as Struct | undefined)?.toJavaScript() ?? {};
        const news = withConnectionDefaults(
          resource,
          (req.getNews() as Struct | undefined)?.toJavaScript() ?? {},
          this.config,
        );
        const result = await resource.implementation.check(olds, news, true);
        const resp = new p.CheckResponse();
        resp.setInputs(this.struct(resource, (result.inputs ?? news) as Values, true) as never);
        resp.setFailuresList(
          (result.failures ?? []).map((f) => {
            const item = new p.CheckFailure();
            // The engine prints a failure's property with its value (a secret's too): the
            // property goes into the reason, as the dynamic resources' provider does.
            item.setProperty("");
            item.setReason(f.property === "" ? f.reason : `${f.property}: ${f.reason}`);
            return item;
          }),
        );
        return resp;
      }),
      diff: this.serve(async (req: provTypes.DiffRequest) => {
        const resource = this.resourceOf(req.getUrn());
        const olds = (req.getOlds() as Struct | undefined)?.toJavaScript() ?? {};
        const news = (req.getNews() as Struct | undefined)?.toJavaScript() ?? {};
        const result = await resource.implementation.diff(req.getId(), olds, news);
        const resp = new p.DiffResponse();
        const replaces = result.replaces ?? [];
        if (result.changes === false) {
          resp.setChanges(p.DiffResponse.DiffChanges.DIFF_NONE);
        } else {
          const keys = Object.keys(this.spec(resource).inputProperties);
          resp.setChanges(
            result.changes === true
              ? p.DiffResponse.DiffChanges.DIFF_SOME
              : p.DiffResponse.DiffChanges.DIFF_UNKNOWN,
          );
          resp.setDiffsList(changedKeys(keys, olds, news, replaces));
          resp.setReplacesList([...replaces]);
          resp.setDeletebeforereplace(result.deleteBeforeReplace === true);
        }
        return resp;
      }),
      create: this.serve(async (req: provTypes.CreateRequest) => {
        const resource = this.resourceOf(req.getUrn());
        const inputs = (req.getProperties() as Struct | undefined)?.toJavaScript() ?? {};
        let result: Awaited<ReturnType<typeof resource.implementation.create>>;
        try {
          result = await resource.implementation.create(inputs);
        } catch (error) {
          if (isPartialCreate(error)) throw this.initFailed(resource, error);
          throw error;
        }
        const resp = new p.CreateResponse();
        resp.setId(result.id);
        resp.setProperties(this.struct(resource, (result.outs ?? {}) as Values) as never);
        return resp;
      }),
      read: this.serve(async (req: provTypes.ReadRequest) => {
        const resource = this.resourceOf(req.getUrn());
        const props = (req.getProperties() as Struct | undefined)?.toJavaScript() ?? {};
        const resp = new p.ReadResponse();
        // `pulumi import` (or the import option) reads with the id alone: see import.ts.
        const given = (req.getInputs() as Struct | undefined)?.toJavaScript() ?? {};
        if (Object.keys(props).length === 0 && Object.keys(given).length === 0) {
          const found = await importRead(resource, req.getId(), (values) =>
            withConnectionDefaults(resource, values, this.config),
          );
          resp.setId(found.id);
          resp.setProperties(this.struct(resource, found.outs) as never);
          resp.setInputs(this.struct(resource, found.inputs, true) as never);
          return resp;
        }
        const result = await resource.implementation.read(req.getId(), props);
        resp.setId(result.id ?? req.getId());
        const outs = (result.props ?? props) as Values;
        resp.setProperties(this.struct(resource, outs) as never);
        // The inputs after a refresh: the outputs that are inputs (the dynamic host's rule).
        const inputKeys = Object.keys(this.spec(resource).inputProperties);
        const inputs = Object.fromEntries(
          Object.entries(outs).filter(([key]) => inputKeys.includes(key)),
        );
        resp.setInputs(this.struct(resource, inputs, true) as never);
        return resp;
      }),
      update: this.serve(async (req: provTypes.UpdateRequest) => {
        const resource = this.resourceOf(req.getUrn());
        const olds = (req.getOlds() as Struct | undefined)?.toJavaScript() ?? {};
        const news = (req.getNews() as Struct | undefined)?.toJavaScript() ?? {};
        const result = await resource.implementation.update(req.getId(), olds, news);
        const resp = new p.UpdateResponse();
        resp.setProperties(this.struct(resource, (result.outs ?? {}) as Values) as never);
        return resp;
      }),
      delete: this.serve(async (req: provTypes.DeleteRequest) => {
        const resource = this.resourceOf(req.getUrn());
        const props = (req.getProperties() as Struct | undefined)?.toJavaScript() ?? {};
        await resource.implementation.delete(req.getId(), props);
        return new emptyproto.Empty();
      }),
    };
  }
}

/**
 * Starts the plugin's gRPC server on 127.0.0.1 and returns its port (the engine reads it from the
 * first line the plugin prints).
 *
 * @internal
 */
export async function startPluginServer(
  server = new PluginServer(),
): Promise<{ port: number; stop: () => void }> {
  const grpcServer = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  grpcServer.addService(provrpc.ResourceProviderService, server.handlers());
  const port = await new Promise<number>((resolve, reject) => {
    grpcServer.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    );
  });
  return { port, stop: () => grpcServer.forceShutdown() };
}
