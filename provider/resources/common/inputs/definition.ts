/**
 * One definition per resource: its inputs (zod type with its default, description, how a change
 * of it is treated), its outputs, its class's TSDoc, its connection kind and the rules across its
 * inputs. The class, its frame and input rules (common/pulumi/frame.ts), the public types and
 * the entry file (`<name>/generated.ts`, `<name>.ts`, written by tools/codegen/definitions.cjs
 * at build time), the docs' argument tables and the plugin schema are derived from it
 * (tests/resources/definitions.test.ts checks they agree).
 *
 * @internal
 */
import { z } from "zod";

/**
 * How a schema node is written in TypeScript when zod's own type is not the public one: `name`,
 * a named type (written into generated.ts from the schema, or imported `from` a module, relative
 * to `provider/resources/<name>/`), or `type`, TypeScript text used as it is.
 *
 * @internal
 */
export interface TsNaming {
  name?: string;
  from?: string;
  type?: string;
}

/**
 * The TypeScript names of schema nodes (a registry of its own: zod's JSON Schema, which the
 * plugin schema is built from, never sees them).
 *
 * @internal
 */
export const TS_NAMES = z.registry<TsNaming>();

/**
 * A schema written in TypeScript as `naming` says.
 *
 * @internal
 */
export function named<S extends z.ZodType>(schema: S, naming: TsNaming): S {
  TS_NAMES.add(schema, naming);
  return schema;
}

/** One `check()` failure as Pulumi expects it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * Where a resource's connection comes from: a server's administrative root (`adminUrl`,
 * `username`, `password`), a site's joined by another machine (`siteAdminUrl` instead of
 * `adminUrl`), or a portal (`sharingUrl`, `username`, `password` or `token`). The class resolves
 * it from the arguments, the `connection` argument, stack config and the environment; the plugin
 * fills it from its configuration.
 *
 * @internal
 */
export type ConnectionKind = "server" | "machine" | "portal";

/**
 * One input of a resource.
 *
 * @internal
 */
export interface InputSpec {
  /** Its zod type, default included (built per call: a serialized provider must not hold it). */
  schema: () => z.ZodType;
  /** What it is, for the Args' TSDoc, the docs' table and the plugin schema. */
  doc: string;
  /** What its output holds, when that is not {@link doc} (e.g. "after a refresh: the server's"). */
  outputDoc?: string;
  /** Its default in words, for the docs' table, when it is no constant (e.g. "the site root"). */
  defaultText?: string;
  /** Always stored as a secret. */
  secret?: boolean;
  /** A change replaces the resource. */
  replaces?: boolean;
  /**
   * A URL, compared by the place it names (connection/urls.ts): another spelling (host case, a
   * default port written out, a trailing slash) is no change, so never a replacement. `true` for
   * the input itself; for an object input, the names of its fields that are URLs (`objectStore`'s
   * `endpoint`).
   */
  url?: true | readonly string[];
  /** A change only updates state: nothing on the server is touched. */
  stateOnly?: boolean;
  /** A change is an update in place that acts on the server (the default diff says so). */
  updates?: boolean;
  /**
   * Stored as a secret only when this field of it is given (Site's `configStoreConnection`, a
   * secret when it holds `connectionSecret`).
   */
  secretWith?: string;
  /**
   * Declared by the base arguments and class (`ServerResourceArgs`, `PortalConnectionArgs`):
   * `connection` when the connection (arguments, config, environment) fills it, `base` otherwise.
   * Neither is written into the resource's own Args unless {@link own} says so.
   */
  inherited?: "connection" | "base";
  /** An inherited input redeclared in the resource's Args, with its own {@link doc}. */
  own?: boolean;
  /** The argument's TypeScript type (inside `pulumi.Input<>`), when it is not zod's. */
  argType?: string;
  /** The argument is optional though the input is required (the class fills it). */
  argOptional?: boolean;
  /** Absent from state written before the input existed, though it has a default now. */
  optionalInState?: boolean;
  /** The output's TypeScript type (inside `pulumi.Output<>`), when it is not zod's. */
  outputType?: string;
}

/**
 * One output that only the lifecycle sets; under an input's key, what that input's output holds
 * when it is more than the input (Collaboration's `portalId`, read from the portal when omitted).
 *
 * @internal
 */
export interface OutputSpec {
  /** Its TypeScript type (inside `pulumi.Output<>`). */
  type: string;
  /** What it holds. */
  doc: string;
  /** Absent from some states (`| undefined` in the class). */
  optional?: boolean;
  /**
   * Registered as the arguments are (known, unset until the lifecycle sets it), not as unknown:
   * SiteExport's `requestedLocation`, which has always been, and which the plugin schema leaves out.
   */
  registeredAsArgument?: boolean;
  /** Always stored as a secret. */
  secret?: boolean;
}

/**
 * The definition of a resource's inputs and outputs.
 *
 * @internal
 */
export interface ResourceDefinition<
  I extends Record<string, InputSpec> = Record<string, InputSpec>,
> {
  /** The class name. */
  type: string;
  /** The folder under provider/resources/ (its generated.ts, docs/<folder>.md). */
  folder: string;
  /** What the resource is: the plugin schema's description. */
  doc: string;
  /** The ArcGIS operation it is known by (the README's table of resources). */
  operation: string;
  /** What it does, in a line (the README's table of resources). */
  summary: string;
  /**
   * What its Args extend: `ServerResourceArgs`, `PortalConnectionArgs` or `ServerConnectionArgs`
   * (TypeScript text, e.g. `Omit<ServerConnectionArgs, "adminUrl">`).
   */
  base: string;
  /** The Args' TSDoc. */
  argsDoc: string;
  inputs: I;
  outputs: Record<string, OutputSpec>;
  /** Type imports the outputs' TypeScript types need (import lines, relative to the folder). */
  imports?: readonly string[];
  /**
   * What the package entry exports from the folder's other modules beside what generated.ts
   * declares (the class, its Args, Inputs, Outputs, named input types and provider): module
   * (relative to the folder, e.g. `./values`) → names, a type's written `type Name`. The generator
   * writes the export lines of provider/resources/index.ts, provider/index.ts and docs/api.md.
   */
  publicExports?: Readonly<Record<string, readonly string[]>>;
  /** What docs/api.md says of the resource's names beyond the link to its page (a clause). */
  apiNote?: string;
  /** Where its connection comes from, and so its base class and the plugin's defaults. */
  connection: ConnectionKind;
  /**
   * Replaced by deleting the old one first unless the program says otherwise: the class's
   * default `deleteBeforeReplace` option, and the default diff's.
   */
  deleteBeforeReplace?: boolean;
  /**
   * Inputs naming a server's administrator beside a portal connection (Federation's
   * `serverUsername`, `serverPassword`): the plugin fills them from the server defaults
   * (`arcgis-admin:username`, `arcgis-admin:password`), as a server resource's credentials are.
   */
  serverAccount?: { username: string; password: string };
  /**
   * It can be brought under a stack by `pulumi import` (docs/import.md): its folder's import.ts
   * exports the `importer` (common/pulumi/importer.ts) the plugin serves.
   */
  importable?: boolean;
  /** Rules across inputs, reported together with the per-field problems (none by default). */
  crossChecks?: (values: Record<string, unknown>) => CheckFailure[];
  /**
   * How outputs read back become inputs beyond leaving out the output-only keys, when they need
   * more: changes `values` (a copy, without `__provider`) in place.
   */
  fromOutputs?: (values: Record<string, unknown>) => void;
}

/**
 * A resource definition, its input keys' literal types kept for the lists derived from it.
 *
 * @internal
 */
export function defineResource<const I extends Record<string, InputSpec>>(
  definition: ResourceDefinition<I>,
): ResourceDefinition<I> {
  return definition;
}

/** The keys of `I` whose spec has `flag` set to `true`. */
export type KeysWith<I, F extends keyof InputSpec> = {
  [K in keyof I]: I[K] extends Record<F, true> ? K : never;
}[keyof I] &
  string;

/**
 * The inputs of a definition whose spec sets `flag`, in the definition's order.
 *
 * @internal
 */
export function inputsWith<
  I extends Record<string, InputSpec>,
  F extends "replaces" | "stateOnly" | "secret" | "updates",
>(definition: ResourceDefinition<I>, flag: F): readonly KeysWith<I, F>[] {
  return Object.entries(definition.inputs)
    .filter(([, spec]) => spec[flag] === true)
    .map(([key]) => key) as KeysWith<I, F>[];
}

/** The zod shape of a definition's inputs. */
export type ShapeOf<I extends Record<string, InputSpec>> = {
  [K in keyof I]: ReturnType<I[K]["schema"]>;
};

/**
 * The strict zod schema of a definition's inputs (built per call).
 *
 * @internal
 */
export function inputsSchema<I extends Record<string, InputSpec>>(
  definition: ResourceDefinition<I>,
): z.ZodObject<ShapeOf<I>, z.core.$strict> {
  const shape = Object.fromEntries(
    Object.entries(definition.inputs).map(([key, spec]) => [key, spec.schema()]),
  ) as ShapeOf<I>;
  return z.strictObject(shape);
}
