/**
 * A resource's frame, derived at run time from its definition alone: its keys and secrets, its
 * input rules and reader, the lists its diff reads, and the default diff a lifecycle extends.
 * Each resource's definition.ts ends with one `resourceFrame(...)` call, which its lifecycle,
 * its helpers and the plugin share; nothing here is written per resource. (The class, which must
 * load neither zod nor the client, registers from the keys generated.ts holds instead:
 * common/pulumi/resource-class.ts.)
 *
 * @internal
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  inputsSchema,
  inputsWith,
  type KeysWith,
  type ResourceDefinition,
} from "../inputs/definition";
import { knowResource } from "../inputs/sources";
import { inputReader, type InputRules } from "./implementation";
import type { ClassKeys } from "./registration";
import { changedInputs, sameValue } from "./state-diff";

/** The outputs every resource of a connection kind keeps secret, before its own secrets. */
const BASE_SECRETS = { server: ["password"], machine: ["password"], portal: ["password", "token"] };

/**
 * The frame of one resource, as its definition `D` implies it; `I` is its inputs' type.
 *
 * @internal
 */
export interface Frame<I, D extends ResourceDefinition = ResourceDefinition> extends Omit<
  ClassKeys,
  "folder" | "connection" | "secretArguments" | "secretWith"
> {
  definition: D;
  /** What its class registers with: generated.ts holds these as data. */
  keys: ClassKeys;
  /** What `check()` and the readers check: the schema, the rules across inputs. */
  rules: InputRules;
  /** Reads valid inputs (or outputs read back as inputs); any problem is one error. */
  parse: (raw: unknown) => I;
  /** Inputs whose change replaces the resource (URL inputs compared by the place they name). */
  replacing: readonly KeysWith<D["inputs"], "replaces">[];
  /** Inputs whose change only updates state. */
  stateOnly: readonly KeysWith<D["inputs"], "stateOnly">[];
  /** Inputs whose change is an update in place that acts on the server. */
  updating: readonly KeysWith<D["inputs"], "updates">[];
  /**
   * What changed between `olds` and `news`: the replacing inputs that differ (URL inputs by the
   * place they name), and the state-only and updating ones that differ by value.
   */
  changes(
    olds: object,
    news: object,
  ): { replaces: KeysWith<D["inputs"], "replaces">[]; updates: string[] };
  /**
   * The default diff: a replacement when a replacing input changed (deleting first when the
   * definition says so), else an update when a state-only or updating input changed.
   */
  diff(olds: object, news: object): pulumi.dynamic.DiffResult;
}

/**
 * The frame of a resource, derived from its definition.
 *
 * @typeParam I - its inputs' type (generated.ts's `<Type>Inputs`): `resourceFrame<I>()(definition)`.
 *
 * @internal
 */
export function resourceFrame<I>(): <D extends ResourceDefinition>(definition: D) => Frame<I, D> {
  return <D extends ResourceDefinition>(definition: D) => {
    const known = FRAMES.get(definition);
    if (known !== undefined) return known as unknown as Frame<I, D>;
    const frame = frameOf<I, D>(definition);
    FRAMES.set(definition, frame as unknown as Frame<unknown>);
    return frame;
  };
}

/** The frames made so far, by definition: the class, the lifecycle and the plugin share one. */
const FRAMES = new WeakMap<ResourceDefinition, Frame<unknown>>();

function frameOf<I, D extends ResourceDefinition>(definition: D): Frame<I, D> {
  const inputs = Object.entries(definition.inputs);
  const outputs = Object.entries(definition.outputs);
  const asArguments = outputs.filter(([, spec]) => spec.registeredAsArgument === true);
  const outputOnly = outputs.filter(
    ([key, spec]) => !(key in definition.inputs) && spec.registeredAsArgument !== true,
  );
  const secret = [...inputs, ...outputOnly].filter(([, s]) => s.secret === true).map(([k]) => k);
  const keys: ClassKeys = {
    type: definition.type,
    folder: definition.folder,
    connection: definition.connection,
    ...(definition.deleteBeforeReplace === true ? { deleteBeforeReplace: true } : {}),
    ...(definition.serverAccount === undefined ? {} : { serverAccount: definition.serverAccount }),
    secretOutputs: [...new Set([...BASE_SECRETS[definition.connection], ...secret])],
    fromArguments: [...inputs, ...asArguments].map(([key]) => key),
    outputOnly: outputOnly.map(([key]) => key),
    secretArguments: inputs
      .filter(([, spec]) => spec.secret === true && spec.inherited !== "connection")
      .map(([key]) => key),
    secretWith: Object.fromEntries(
      inputs.flatMap(([key, spec]) =>
        spec.secretWith === undefined ? [] : [[key, spec.secretWith]],
      ),
    ),
  };
  // Built on first use, then shared by every call of every resource of this kind in the process.
  let schema: ReturnType<typeof inputsSchema> | undefined;
  const rules: InputRules = {
    frame: keys,
    schema: () => (schema ??= inputsSchema(definition)),
    crossChecks: definition.crossChecks ?? (() => []),
    ...(definition.fromOutputs === undefined ? {} : { fromOutputs: definition.fromOutputs }),
  };
  const replacing = inputsWith(definition, "replaces");
  const updatable = [...inputsWith(definition, "stateOnly"), ...inputsWith(definition, "updates")];
  const changes = (olds: object, news: object) => ({
    replaces: changedInputs(definition, replacing, olds, news),
    updates: updatable.filter(
      (key) => !sameValue((olds as never)[key], (news as never)[key]),
    ) as string[],
  });
  knowResource(keys);
  return {
    type: definition.type,
    secretOutputs: keys.secretOutputs,
    fromArguments: keys.fromArguments,
    outputOnly: keys.outputOnly,
    keys,
    definition,
    rules,
    parse: inputReader<I>(rules),
    replacing,
    stateOnly: inputsWith(definition, "stateOnly"),
    updating: inputsWith(definition, "updates"),
    changes,
    diff(olds, news) {
      const { replaces, updates } = changes(olds, news);
      if (replaces.length === 0) return { changes: updates.length > 0 };
      const first = definition.deleteBeforeReplace === true ? { deleteBeforeReplace: true } : {};
      return { changes: true, replaces: [...replaces], ...first };
    },
  };
}
