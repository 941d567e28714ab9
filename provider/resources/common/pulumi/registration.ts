/**
 * What a resource class hands to `pulumi.dynamic.Resource` when it registers: its provider, its
 * inputs with every output listed as a key, its resource options and its type token. Each class
 * states only what is its own (a {@link ResourceFrame}, which its input rules read too) and calls
 * `super(...registration(FRAME, name, args, resolved, opts))`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ConnectionKind } from "../inputs/definition";
import { resourceOptions, TYPE_MODULE } from "./resource-options";

/**
 * What one resource class registers with, apart from the user's arguments and options.
 *
 * @internal
 */
export interface ResourceFrame {
  /** The class name: the type token's last part, and the name in messages. */
  type: string;
  /** Its serialized provider (`lazyProvider("<name>")`). */
  provider: pulumi.dynamic.ResourceProvider;
  /** The outputs always kept secret, added to the user's `additionalSecretOutputs`. */
  secretOutputs: readonly string[];
  /**
   * Outputs that are arguments too: listed so that each is a property of the resource even when
   * its argument is not given (Pulumi makes an output of each key); a given argument fills it.
   */
  fromArguments: readonly string[];
  /**
   * Outputs that only the lifecycle sets: registered as unknown whatever the arguments hold, and
   * left out when outputs are read back as inputs.
   */
  outputOnly: readonly string[];
}

/**
 * What a resource's class registers with, derived from its definition by its frame
 * (common/pulumi/frame.ts) and written into its generated.ts as data, so that the class loads
 * neither the definition nor zod: its names, its connection kind, its keys, its secrets.
 *
 * @internal
 */
export interface ClassKeys extends Omit<ResourceFrame, "provider"> {
  /** Its folder: the released module path `dist/provider/resources/<folder>.js`. */
  folder: string;
  connection: ConnectionKind;
  /** The class's default `deleteBeforeReplace` option. */
  deleteBeforeReplace?: boolean;
  /** Inputs naming a server's administrator beside a portal connection (the definition's). */
  serverAccount?: { username: string; password: string };
  /** Secret inputs given as arguments (not the connection's), stored as secrets. */
  secretArguments: readonly string[];
  /** Inputs stored as a secret when they hold the named field. */
  secretWith: Readonly<Record<string, string>>;
}

/**
 * The parameters of `pulumi.dynamic.Resource`'s constructor, in its order.
 *
 * @internal
 */
export type DynamicResourceParameters = ConstructorParameters<typeof pulumi.dynamic.Resource>;

/**
 * The constructor parameters of a resource. Its inputs: the arguments without `connection`
 * (each of the frame's argument outputs listed), then what the class worked out from them
 * (`resolved`: its connection, a value wrapped as a secret) over them, then the output-only keys.
 *
 * @param frame - the resource's own part.
 * @param name - the resource's name in the stack.
 * @param args - the user's arguments; their `connection` is resolved into `resolved`, not sent.
 * @param resolved - the inputs the class worked out, e.g. `resolveServerConnection(...)`.
 * @param opts - the user's resource options.
 *
 * @internal
 */
export function registration(
  frame: ResourceFrame,
  name: string,
  args: object,
  resolved: object,
  opts: pulumi.CustomResourceOptions | undefined,
): DynamicResourceParameters {
  const { connection: _connection, ...own } = args as { connection?: unknown };
  const props: pulumi.Inputs = {
    ...withoutValues(frame.fromArguments),
    ...own,
    ...resolved,
    ...withoutValues(frame.outputOnly),
  };
  return [
    frame.provider,
    name,
    props,
    resourceOptions(frame.type, name, opts, frame.secretOutputs),
    TYPE_MODULE,
    frame.type,
  ];
}

/** Each key, with no value yet. */
function withoutValues(keys: readonly string[]): Record<string, undefined> {
  return Object.fromEntries(keys.map((key) => [key, undefined]));
}

/**
 * The inputs to record from a resource's outputs (a refresh's `inputs`): every output but those
 * only the lifecycle sets.
 *
 * @internal
 */
export function inputsOfOutputs(
  frame: Pick<ResourceFrame, "outputOnly">,
  outputs: object,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outputs).filter(([key]) => !frame.outputOnly.includes(key)),
  );
}
