/**
 * Property values as they travel between the engine and a provider: Pulumi's secret sentinel,
 * URNs of the consumer project, and the engine's own secret marking, copied for the host client.
 *
 * ## How secrets really flow (checked against @pulumi/pulumi 3.270)
 *
 * The host (cmd/dynamic-provider/index.js) answers `Configure` with
 * `acceptSecrets: false`. The engine (sdk/go/common/resource/plugin/
 * provider_plugin.go) therefore:
 * - strips every secret marker before Check, Diff, Create, Read, Update and
 *   Delete: the provider methods receive plain values, never the
 *   `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
 *   value}` sentinel;
 * - re-marks results with `annotateSecrets(outs, ins)`: an output (or checked
 *   input) becomes secret when the input under the SAME key contained a
 *   secret; nested objects are matched key by key, any other value (string,
 *   array...) is wrapped whole. Check inputs are matched against the news,
 *   Create outputs against the checked inputs, Update outputs against the new
 *   inputs, Read outputs/inputs against the prior state/inputs;
 * - after a create/update/refresh step marks the top-level outputs listed in
 *   the resource's `additionalSecretOutputs` (the step executor, not the
 *   provider plugin).
 * So an output derived from a secret under ANOTHER key is stored in plain
 * text unless that key is in `additionalSecretOutputs`.
 *
 * The host itself never looks at secret markers in Check/Diff/Create/Read/
 * Update/Delete (`Struct.toJavaScript()` would hand the sentinel object to the
 * provider as is). The one place it unwraps them is `Configure`: it unwraps
 * each top-level value of `args` (`rpc.unwrapRpcSecret`) into the config that
 * `provider.configure({config})` reads, with keys verbatim (`ns:key`; since
 * pulumi/pulumi#17229 the engine sends dynamic providers the WHOLE stack
 * config, namespaces kept). `config.get("key")` without `:` prefixes the
 * project name (PULUMI_NODEJS_PROJECT, set by the engine).
 *
 * The {@link Host} methods reproduce the engine by default (`secrets:
 * "engine"`): pass inputs with {@link secret} markers as a program would, and
 * the results come back marked exactly as the engine would store them. With
 * `secrets: "passthrough"` markers go over the wire untouched and results are
 * returned exactly as the host sent them.
 *
 * `setMocks` (used by {@link Consumer.runProgram}) delivers secret inputs as
 * the same sentinel objects (`inputs.password` is `{"4dabf...": "1b47...",
 * value: "..."}`); a secret inside an array makes the WHOLE array one secret;
 * `__provider` itself is a sentinel too when the serialized closure captured
 * a secret Output. Those inputs are what the engine holds as the resource's
 * news: hand them to {@link Host.check} as they are.
 */
import { PROJECT, STACK } from "./project";

/** The type token of every `pulumi.dynamic.Resource` without a module/type override. */
export const DYNAMIC_RESOURCE_TYPE = "pulumi-nodejs:dynamic:Resource";
/** The key Pulumi uses to tag special values inside a Struct. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The {@link SIG_KEY} value that marks a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The string the engine sends for a value that is unknown during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A property value as it travels in a protobuf Struct. */
export type PropertyValue =
  | null
  | boolean
  | number
  | string
  | PropertyValue[]
  | SecretValue
  | { [key: string]: PropertyValue };
/** A resource's property bag (inputs, outputs or state). */
export type PropertyMap = Record<string, PropertyValue>;
/** Pulumi's wire form of a secret. */
export interface SecretValue<T extends PropertyValue = PropertyValue> {
  [SIG_KEY]: typeof SECRET_SIG;
  value: T;
}

/**
 * Wraps a value in Pulumi's secret sentinel, as the engine marks secret inputs.
 *
 * @param value - the plain value.
 * @example `host.create(urn("pw"), { password: secret("s3cret") })`
 */
export function secret<T extends PropertyValue>(value: T): SecretValue<T> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * Tells whether a value is a secret sentinel (not whether it contains one).
 *
 * @param value - any value.
 * @example `expect(isSecret(created.properties.password)).toBe(true)`
 */
export function isSecret(value: unknown): value is SecretValue {
  return isRecord(value) && value[SIG_KEY] === SECRET_SIG;
}

/**
 * Tells whether a value is or contains a secret sentinel at any depth.
 *
 * @param value - any value.
 * @example `expect(containsSecrets(outputs)).toBe(false)`
 */
export function containsSecrets(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecrets);
  if (isRecord(value)) return Object.values(value).some(containsSecrets);
  return false;
}

/**
 * Returns a deep copy with every secret sentinel replaced by its value (what
 * the engine sends to a provider that does not accept secrets).
 *
 * @param value - a property value or map.
 * @example `unwrapSecrets({ a: secret("x") })` gives `{ a: "x" }`
 */
export function unwrapSecrets<T>(value: T): T;
export function unwrapSecrets(value: unknown): unknown {
  if (isSecret(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map((v) => unwrapSecrets(v));
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

/**
 * Lists the paths (`a.b[0]`) at which a string occurs in a value, each with
 * whether it sits inside a secret sentinel. For "the password appears only
 * under keys marked secret" assertions.
 *
 * @param value - outputs, inputs or any JSON value.
 * @param needle - the text to look for (substring match).
 * @example `expect(findText(outs, pw).every((hit) => hit.secret)).toBe(true)`
 */
export function findText(value: unknown, needle: string): { path: string; secret: boolean }[] {
  const hits: { path: string; secret: boolean }[] = [];
  const visit = (v: unknown, at: string, inSecret: boolean): void => {
    if (isSecret(v)) {
      visit(v.value, at, true);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, `${at}[${i}]`, inSecret));
    } else if (isRecord(v)) {
      for (const [k, item] of Object.entries(v))
        visit(item, at === "" ? k : `${at}.${k}`, inSecret);
    } else if (typeof v === "string" && v.includes(needle)) {
      hits.push({ path: at, secret: inSecret });
    }
  };
  visit(value, "", false);
  return hits;
}

/**
 * Builds the URN the engine would give a resource of the consumer project.
 *
 * @param name - the resource name.
 * @param type - the type token; dynamic resources use {@link DYNAMIC_RESOURCE_TYPE}.
 * @example `urn("site")` gives `urn:pulumi:test::consumer::pulumi-nodejs:dynamic:Resource::site`
 */
export function urn(name: string, type: string = DYNAMIC_RESOURCE_TYPE): string {
  return `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
}

/**
 * Copies the engine's `annotateSecrets`: marks `outs[key]` secret when
 * `ins[key]` contains a secret, recursing where both are plain objects.
 */
export function annotateSecrets(outs: PropertyMap, ins: PropertyMap): void {
  for (const [key, inValue] of Object.entries(ins)) {
    if (!Object.hasOwn(outs, key)) continue;
    const outValue = outs[key];
    if (isPlainMap(outValue) && isPlainMap(inValue)) {
      annotateSecrets(outValue, inValue);
    } else if (outValue !== undefined && !isSecret(outValue) && containsSecrets(inValue)) {
      outs[key] = secret(outValue);
    }
  }
}

/** Copies the step executor: top-level additionalSecretOutputs become secret. */
export function markAdditionalSecretOutputs(outs: PropertyMap, keys: readonly string[]): void {
  for (const key of keys) {
    const value = outs[key];
    if (value !== undefined && !isSecret(value)) outs[key] = secret(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPlainMap(value: unknown): value is PropertyMap {
  return isRecord(value) && !isSecret(value);
}

/** Struct.fromJavaScript rejects `undefined`; the engine never sends it, so drop such keys. */
export function dropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : dropUndefined(v)));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, dropUndefined(v)]),
    );
  }
  return value;
}
