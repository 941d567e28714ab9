/**
 * The resources the provider plugin serves, one for each row of the registry
 * (provider/resources/registry.ts): its definition, its frame and input rules (the zod schema the
 * dynamic resource checks with, the secret and output-only keys), and the implementation the
 * dynamic-provider host loads from the released module path, loaded here from that same path. The
 * plugin serves exactly these objects, so the two paths can never behave differently.
 */
import type { ConnectionKind, ResourceDefinition } from "../resources/common/inputs/definition";
import type { InputRules } from "../resources/common/pulumi/implementation";
import type { Importer } from "../resources/common/pulumi/importer";
import type { ResourceImplementation } from "../resources/common/pulumi/lazy-provider";
import { type Frame, resourceFrame } from "../resources/common/pulumi/frame";
import { RESOURCES } from "../resources/registry";
import { resourceModule } from "./resource-modules";

export type { ConnectionKind } from "../resources/common/inputs/definition";

/** One resource the plugin serves. */
export interface PluginResource {
  /** The class name: the type token is `arcgis-admin:index:<type>`. */
  type: string;
  /** Its inputs and outputs, defined once (the schema's properties and descriptions). */
  definition: ResourceDefinition;
  rules: InputRules;
  frame: Frame<unknown>;
  implementation: ResourceImplementation;
  connection: ConnectionKind;
  /** How `pulumi import` reads it (docs/import.md); none: it cannot be imported. */
  importer?: Importer;
  /**
   * Inputs naming a server's administrator beside a portal connection (Federation's
   * `serverUsername`, `serverPassword`): filled from the server defaults (`arcgis-admin:username`,
   * `arcgis-admin:password`) for the default server, as a server resource's credentials are.
   */
  serverAccount?: { username: string; password: string };
}

/**
 * The plugin's view of one registry row: the entry file (`<folder>.js`, the released module path)
 * gives the implementation, and `<folder>/import.js` the importer of an importable resource.
 */
function pluginResourceOf(definition: ResourceDefinition): PluginResource {
  const frame = resourceFrame<unknown>()(definition);
  const entry = resourceModule(definition.folder) as {
    implementation: ResourceImplementation;
  };
  const importer = definition.importable
    ? (resourceModule(`${definition.folder}/import`) as { importer: Importer }).importer
    : undefined;
  return {
    type: definition.type,
    definition,
    rules: frame.rules,
    frame,
    implementation: entry.implementation,
    connection: definition.connection,
    ...(importer === undefined ? {} : { importer }),
    ...(definition.serverAccount === undefined ? {} : { serverAccount: definition.serverAccount }),
  };
}

/**
 * Every resource the plugin serves, in the order of the docs.
 *
 * @internal
 */
export const PLUGIN_RESOURCES: readonly PluginResource[] = RESOURCES.map(pluginResourceOf);

/**
 * The resource of a type token (`arcgis-admin:index:Site`), or undefined.
 *
 * @internal
 */
export function pluginResource(token: string): PluginResource | undefined {
  return PLUGIN_RESOURCES.find((r) => `${PACKAGE}:index:${r.type}` === token);
}

/** The plugin's package name: the type tokens' first part and the config namespace. */
export const PACKAGE = "arcgis-admin";
