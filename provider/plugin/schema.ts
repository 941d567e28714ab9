/**
 * The Pulumi package schema of the provider plugin, built from the zod input schemas the dynamic
 * resources check their inputs with (through zod's JSON Schema), so that the two cannot disagree:
 * every input a resource accepts is a property of its schema, required when zod requires it
 * (unless a connection default can fill it), secret when the resource keeps it secret.
 *
 * Its descriptions are the resources' definitions' (`<name>/definition.ts`): each resource's, each
 * input's and output's, and a nested field's from its zod description.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { CONNECTION_DEFAULTS } from "../resources/common/connection/resolve";
import { PACKAGE, PLUGIN_RESOURCES, type PluginResource } from "./resources";

/** A property (or type) of a Pulumi package schema. */
export interface PropertySpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  default?: string | number | boolean;
  secret?: boolean;
}

/** An object type of the schema (`types`), or a resource's inputs and outputs. */
export interface ObjectSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** A resource of the schema. */
export interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

/** The package schema (the parts this provider uses). */
export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  /** Where the engine downloads the plugin from when it is not installed (`pulumi up` of an SDK). */
  pluginDownloadURL: string;
  description: string;
  license: string;
  repository?: string;
  meta: { moduleFormat: string; supportPack?: boolean };
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  types: Record<string, ObjectSpec>;
  resources: Record<string, ResourceSpec>;
  language: Record<string, unknown>;
}

/** The description of a property (a nested one's is its zod description). */
interface DocShape {
  description?: string;
  properties?: Record<string, DocShape>;
  items?: DocShape;
}

/** A JSON Schema node as zod's `toJSONSchema` writes it (the parts read here). */
interface JsonSchema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  default?: unknown;
}

/**
 * Inputs that a connection default (the plugin's configuration, then the environment) fills when
 * a program leaves them out: optional in the schema even where the zod schema requires them,
 * since `check()` fills them before the zod schema sees the inputs.
 *
 * @internal
 */
export const DEFAULTED_INPUTS: Record<PluginResource["connection"], readonly string[]> = {
  server: ["adminUrl", "username", "password", "tls"],
  machine: ["siteAdminUrl", "username", "password", "tls"],
  portal: ["sharingUrl", "username", "password", "token", "tls"],
};

/**
 * The inputs of one resource that the connection defaults fill: its connection's, and a server
 * administrator's beside a portal connection (Federation's `serverUsername`, `serverPassword`).
 *
 * @internal
 */
export function defaultedInputs(resource: PluginResource): readonly string[] {
  const account = resource.serverAccount;
  return [
    ...DEFAULTED_INPUTS[resource.connection],
    ...(account === undefined ? [] : [account.username, account.password]),
  ];
}

/** Names of inputs that hold a credential: secret wherever they appear, nested ones included. */
const SECRET_NAME = /password|token|secret/i;

/**
 * Whether an input is a secret in the schema: the dynamic resource keeps it secret (its frame's
 * secret outputs), or its name says it is a credential (e.g. `configStoreConnection.connectionSecret`).
 *
 * @internal
 */
export function isSecretInput(resource: PluginResource, name: string): boolean {
  return resource.frame.secretOutputs.includes(name) || SECRET_NAME.test(name);
}

/**
 * Where the plugin's releases are published unless the build says otherwise: the GitHub releases of
 * the project's repository, in Pulumi's `github://` form (the engine downloads
 * `pulumi-resource-arcgis-admin-v<version>-<os>-<arch>.tar.gz` from the release `v<version>`).
 */
export const DEFAULT_PLUGIN_DOWNLOAD_URL =
  "github://api.github.com/pulumi-arcgis-admin/pulumi-arcgis-admin";

/**
 * The build setting naming another release location (an `https://` folder, a `github://` or
 * `gitlab://` source): read by the commands that write the schema, `npm run sdk` and
 * `npm run plugin-archive`, which builds it into the archive's plugin.
 */
export const DOWNLOAD_URL_SETTING = "ARCGIS_ADMIN_PLUGIN_DOWNLOAD_URL";

/** Set by the plugin archive's bundler (toolchain/plugin-archive.cjs): its version and release location. */
declare const ARCGIS_ADMIN_ARCHIVE_VERSION: string | undefined;
declare const ARCGIS_ADMIN_ARCHIVE_DOWNLOAD_URL: string | undefined;

/** The release location: the archive's own, else the build setting, else the default. */
export function pluginDownloadUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (typeof ARCGIS_ADMIN_ARCHIVE_DOWNLOAD_URL === "string")
    return ARCGIS_ADMIN_ARCHIVE_DOWNLOAD_URL;
  return env[DOWNLOAD_URL_SETTING] || DEFAULT_PLUGIN_DOWNLOAD_URL;
}

/** The package version: the archive's, else package.json's. */
export function packageVersion(): string {
  if (typeof ARCGIS_ADMIN_ARCHIVE_VERSION === "string") return ARCGIS_ADMIN_ARCHIVE_VERSION;
  // dist/provider/plugin/schema.js and provider/plugin/schema.ts are both three folders deep.
  const file = path.join(__dirname, "..", "..", "package.json");
  const dir = fs.existsSync(file) ? file : path.join(__dirname, "..", "..", "..", "package.json");
  return (JSON.parse(fs.readFileSync(dir, "utf8")) as { version: string }).version;
}

function pascal(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

function singular(key: string): string {
  if (key.endsWith("ies")) return key.slice(0, -3) + "y";
  if (key.endsWith("s")) return key.slice(0, -1);
  return key + "Item";
}

/** Builds the specs of a resource's inputs, adding its nested object types to `types`. */
class SpecBuilder {
  constructor(
    private readonly resource: PluginResource,
    private readonly types: Record<string, ObjectSpec>,
  ) {}

  property(key: string, node: JsonSchema, typeName: string, doc?: DocShape): PropertySpec {
    const spec = this.shape(node, typeName, doc);
    const notes: string[] = [];
    const description = doc?.description ?? node.description;
    if (description !== undefined && description !== "") notes.push(description);
    if (node.enum !== undefined) notes.push(`One of: ${node.enum.map(String).join(", ")}.`);
    if (notes.length > 0) spec.description = notes.join(" ");
    if (
      typeof node.default === "string" ||
      typeof node.default === "boolean" ||
      // The schema's integers are 32-bit: a larger default (maxDownloadBytes) is documented only.
      (typeof node.default === "number" && Math.abs(node.default) <= 2 ** 31 - 1)
    ) {
      spec.default = node.default;
    }
    if (isSecretInput(this.resource, key)) spec.secret = true;
    return spec;
  }

  private shape(node: JsonSchema, typeName: string, doc: DocShape | undefined): PropertySpec {
    switch (node.type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type: node.type };
      case "array":
        return {
          type: "array",
          items: node.items === undefined ? ANY : this.shape(node.items, typeName, doc?.items),
        };
      case "object":
        if (node.properties === undefined) {
          const values =
            typeof node.additionalProperties === "object" ? node.additionalProperties : {};
          return { type: "object", additionalProperties: this.shape(values, typeName, undefined) };
        }
        return { $ref: `#/types/${this.objectType(node, typeName, doc)}` };
      default:
        return ANY;
    }
  }

  /** Adds an object type (once: the same name must mean the same type) and returns its token. */
  objectType(node: JsonSchema, typeName: string, doc: DocShape | undefined): string {
    const token = `${PACKAGE}:index:${typeName}`;
    const properties: Record<string, PropertySpec> = {};
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const childDoc = doc?.properties?.[key];
      properties[key] = this.property(key, child, childTypeName(typeName, key, child), childDoc);
    }
    const spec: ObjectSpec = { type: "object", properties };
    if ((node.required ?? []).length > 0) spec.required = [...(node.required ?? [])];
    const existing = this.types[token];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(spec)) {
      throw new Error(`schema: two different object types would be named ${token}`);
    }
    this.types[token] = spec;
    return token;
  }
}

/** The name of a nested object type: `Tls` (shared), else the parent's name and the key. */
function childTypeName(parent: string, key: string, node: JsonSchema): string {
  if (key === "tls") return "Tls";
  return parent + pascal(node.type === "array" ? singular(key) : key);
}

const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };

/**
 * The JSON Schema (zod's, of what the input schema accepts) of a resource's inputs.
 *
 * @internal
 */
export function inputJsonSchema(resource: PluginResource): JsonSchema {
  return z.toJSONSchema(resource.rules.schema(), {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
}

/** The schema of one resource: its inputs, and its outputs (inputs and output-only keys). */
function resourceSpec(resource: PluginResource, types: Record<string, ObjectSpec>): ResourceSpec {
  const { inputs, outputs, doc } = resource.definition;
  const json = inputJsonSchema(resource);
  const builder = new SpecBuilder(resource, types);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [key, node] of Object.entries(json.properties ?? {})) {
    const typeName = childTypeName(resource.type, key, node);
    const description = inputs[key]?.doc;
    inputProperties[key] = builder.property(
      key,
      node,
      typeName,
      description ? { description } : {},
    );
  }
  const defaulted = defaultedInputs(resource);
  const requiredInputs = (json.required ?? []).filter((key) => !defaulted.includes(key));
  const properties: Record<string, PropertySpec> = { ...inputProperties };
  for (const key of resource.frame.outputOnly) {
    properties[key] = {
      ...ANY,
      description: outputs[key]?.doc ?? "Set by the provider.",
      ...(isSecretInput(resource, key) ? { secret: true } : {}),
    };
  }
  // An output that is also an input: what the output holds, where the definition says.
  for (const key of Object.keys(inputProperties)) {
    const description = outputs[key]?.doc ?? inputs[key]?.outputDoc;
    if (description !== undefined) properties[key] = { ...inputProperties[key], description };
  }
  return { type: "object", description: doc, properties, inputProperties, requiredInputs };
}

/** The provider's configuration: the connection defaults (docs/connection.md). */
function configVariables(): Record<string, PropertySpec> {
  const variables: Record<string, PropertySpec> = {};
  for (const [name, source] of Object.entries(CONNECTION_DEFAULTS)) {
    variables[name] = {
      type: name === "insecureSkipVerify" ? "boolean" : "string",
      description: `Default for resources that leave it out; else environment variable ${source.env}.`,
      ...(source.secret ? { secret: true } : {}),
    };
  }
  return variables;
}

/**
 * The package schema of the plugin (`pulumi package get-schema` prints it; SDKs are generated
 * from it).
 *
 * @internal
 */
export function packageSchema(
  version = packageVersion(),
  pluginDownloadURL = pluginDownloadUrl(),
): PackageSchema {
  const types: Record<string, ObjectSpec> = {};
  const resources: Record<string, ResourceSpec> = {};
  for (const resource of PLUGIN_RESOURCES) {
    resources[`${PACKAGE}:index:${resource.type}`] = resourceSpec(resource, types);
  }
  const variables = configVariables();
  return {
    name: PACKAGE,
    displayName: "ArcGIS Enterprise administration",
    version,
    pluginDownloadURL,
    description:
      "Administers ArcGIS Enterprise: server sites, site exports and imports, machines, log " +
      "settings, portal collaborations and federation.",
    license: "Apache-2.0",
    // supportPack: the Go generator writes the SDK's own go.mod, and the Python one its exact
    // version into the package (with respectSchemaVersion below: the package's version, not 0.0.0).
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables },
    provider: {
      description: "The provider of arcgis-admin resources; its inputs are connection defaults.",
      inputProperties: variables,
    },
    types,
    resources,
    language: {
      // pyproject: a pyproject.toml (PEP 621) that `pip wheel` builds, instead of a setup.py.
      python: {
        packageName: "pulumi_arcgis_admin",
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      go: {
        importBasePath: "github.com/pulumi-arcgis-admin/sdk/go/arcgisadmin",
        respectSchemaVersion: true,
      },
      nodejs: { packageName: "pulumi-arcgis-admin-sdk", respectSchemaVersion: true },
    },
  };
}
