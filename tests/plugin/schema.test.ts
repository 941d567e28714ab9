/**
 * The plugin's package schema against the zod input schemas the dynamic resources check with,
 * field by field: the same names at every level, the same required-ness (but for the inputs a
 * connection default fills), and the credentials secret. The zod side is read by walking the zod
 * schemas themselves (not through the JSON Schema the generator uses), and required-ness is
 * behavioural: a field is required when its schema refuses `undefined`.
 */
import type { z } from "zod";
import { PLUGIN_RESOURCES } from "../../provider/plugin/resources";
import {
  DEFAULT_PLUGIN_DOWNLOAD_URL,
  DOWNLOAD_URL_SETTING,
  defaultedInputs,
  packageSchema,
  type PackageSchema,
  type PropertySpec,
} from "../../provider/plugin/schema";

interface Field {
  required: boolean;
  secret?: boolean;
}

/** The definition of a zod 4 schema, as far as this walk reads it. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

/** Leaves optional, default and nullable wrappers: the schema of the value itself. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.innerType === undefined) return current;
    current = def.innerType;
  }
}

/** Every field the zod schema accepts, by path (`a.b`, `list[].c`), with its required-ness. */
function zodFields(schema: z.ZodType, prefix = "", out = new Map<string, Field>()) {
  const def = defOf(unwrapped(schema));
  if (def.type === "object" && def.shape !== undefined) {
    for (const [key, child] of Object.entries(def.shape)) {
      const at = prefix === "" ? key : `${prefix}.${key}`;
      out.set(at, { required: !child.safeParse(undefined).success });
      zodFields(child, at, out);
    }
  } else if (def.type === "array" && def.element !== undefined) {
    zodFields(def.element, `${prefix}[]`, out);
  }
  return out;
}

/** Every field of a resource's schema inputs, by the same paths, following `$ref`s to types. */
function schemaFields(schema: PackageSchema, token: string): Map<string, Field> {
  const out = new Map<string, Field>();
  const resource = schema.resources[token]!;
  const walk = (spec: PropertySpec, at: string) => {
    if (spec.items !== undefined) walk(spec.items, `${at}[]`);
    if (spec.$ref?.startsWith("#/types/")) {
      const type = schema.types[spec.$ref.slice("#/types/".length)]!;
      for (const [key, child] of Object.entries(type.properties)) {
        const path = `${at}.${key}`;
        out.set(path, {
          required: (type.required ?? []).includes(key),
          secret: child.secret === true,
        });
        walk(child, path);
      }
    }
  };
  for (const [key, spec] of Object.entries(resource.inputProperties)) {
    out.set(key, { required: resource.requiredInputs.includes(key), secret: spec.secret === true });
    walk(spec, key);
  }
  return out;
}

/** The secrets each resource must have in the schema: credentials, at any depth. */
const EXPECTED_SECRETS: Record<string, string[]> = {
  Site: ["password", "configStoreConnection.connectionSecret"],
  SiteExport: [
    "password",
    "objectStoreCredentials",
    "objectStoreCredentials.secretAccessKey",
    "objectStoreCredentials.sessionToken",
  ],
  SiteImport: [
    "password",
    "objectStoreCredentials",
    "objectStoreCredentials.secretAccessKey",
    "objectStoreCredentials.sessionToken",
  ],
  SiteMachine: ["password"],
  PortalSite: ["password", "token", "securityAnswer", "contentStore.connectionSecrets"],
  LogSettings: ["password"],
  SystemProperties: ["password"],
  SiteUpgrade: ["password"],
  Collaboration: ["password", "token"],
  Federation: ["password", "token", "serverPassword"],
  ServerCertificate: ["password", "pkcs12", "certPassword"],
  SecuritySettings: ["password"],
  WebAdaptor: ["password"],
};

/** The differences between a resource's schema inputs and its zod schema, one line each. */
function differences(schema: PackageSchema, type: string): string[] {
  const resource = PLUGIN_RESOURCES.find((r) => r.type === type)!;
  const expected = zodFields(resource.rules.schema());
  const actual = schemaFields(schema, `arcgis-admin:index:${type}`);
  const problems: string[] = [];
  for (const [path, field] of expected) {
    const got = actual.get(path);
    if (got === undefined) {
      problems.push(`${type}.${path}: accepted by zod, missing from the schema`);
      continue;
    }
    const defaulted = defaultedInputs(resource).includes(path);
    if (got.required !== (field.required && !defaulted)) {
      problems.push(`${type}.${path}: required ${String(got.required)} in the schema`);
    }
    const secret = EXPECTED_SECRETS[type]!.includes(path);
    if (got.secret !== secret) problems.push(`${type}.${path}: secret ${String(got.secret)}`);
  }
  for (const path of actual.keys()) {
    if (!expected.has(path)) problems.push(`${type}.${path}: in the schema, not accepted by zod`);
  }
  return problems;
}

describe("the plugin's package schema", () => {
  const schema = packageSchema("1.2.3");

  it("has every resource of the package, under arcgis-admin:index:<Resource>", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(
      [
        "Collaboration",
        "Federation",
        "LogSettings",
        "PortalSite",
        "SecuritySettings",
        "ServerCertificate",
        "Site",
        "SiteExport",
        "SiteImport",
        "SiteMachine",
        "SiteUpgrade",
        "SystemProperties",
        "WebAdaptor",
      ].map((t) => `arcgis-admin:index:${t}`),
    );
    expect(schema.name).toBe("arcgis-admin");
    expect(schema.version).toBe("1.2.3");
  });

  it("takes its version from package.json by default", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = require("../../package.json") as { version: string };
    expect(packageSchema().version).toBe(pkg.version);
  });

  it("names where the plugin's releases are: the default, or the build setting", () => {
    const saved = process.env[DOWNLOAD_URL_SETTING];
    try {
      delete process.env[DOWNLOAD_URL_SETTING];
      expect(packageSchema().pluginDownloadURL).toBe(DEFAULT_PLUGIN_DOWNLOAD_URL);
      process.env[DOWNLOAD_URL_SETTING] = "https://releases.example.org/arcgis-admin/";
      expect(packageSchema().pluginDownloadURL).toBe("https://releases.example.org/arcgis-admin/");
    } finally {
      if (saved === undefined) delete process.env[DOWNLOAD_URL_SETTING];
      else process.env[DOWNLOAD_URL_SETTING] = saved;
    }
  });

  it.each(PLUGIN_RESOURCES.map((r) => r.type))(
    "%s: its inputs are the fields its zod schema accepts, required and secret alike",
    (type) => {
      expect(differences(schema, type)).toEqual([]);
      // The walk found nested fields, not only the top level.
      const resource = PLUGIN_RESOURCES.find((r) => r.type === type)!;
      expect([...zodFields(resource.rules.schema()).keys()]).toContain("tls.caCert");
    },
  );

  it("keeps every output the dynamic resource keeps secret secret, and its output-only keys", () => {
    for (const resource of PLUGIN_RESOURCES) {
      const spec = schema.resources[`arcgis-admin:index:${resource.type}`]!;
      for (const key of resource.frame.secretOutputs) {
        expect([resource.type, key, spec.properties[key]?.secret]).toEqual([
          resource.type,
          key,
          true,
        ]);
      }
      for (const key of resource.frame.outputOnly) {
        expect(Object.keys(spec.properties)).toContain(key);
      }
    }
  });

  it("reports a field present on one side only, and a changed required-ness or secret", () => {
    const mutated = (change: (s: PackageSchema) => void) => {
      const copy = JSON.parse(JSON.stringify(schema)) as PackageSchema;
      change(copy);
      return differences(copy, "Site");
    };
    const site = (s: PackageSchema) => s.resources["arcgis-admin:index:Site"]!;
    expect(mutated((s) => delete site(s).inputProperties.runAsync)).toEqual([
      "Site.runAsync: accepted by zod, missing from the schema",
    ]);
    expect(mutated((s) => (site(s).inputProperties.extra = { type: "string" }))).toEqual([
      "Site.extra: in the schema, not accepted by zod",
    ]);
    expect(
      mutated((s) => delete s.types["arcgis-admin:index:SiteDirectory"]!.properties.description),
    ).toEqual(["Site.directories[].description: accepted by zod, missing from the schema"]);
    expect(mutated((s) => site(s).requiredInputs.push("runAsync"))).toEqual([
      "Site.runAsync: required true in the schema",
    ]);
    expect(mutated((s) => delete site(s).inputProperties.password!.secret)).toEqual([
      "Site.password: secret false",
    ]);
  });

  it("describes every resource, input and output from its definition", () => {
    const undocumented: string[] = [];
    for (const [token, resource] of Object.entries(schema.resources)) {
      if (!resource.description) undocumented.push(token);
      for (const [key, spec] of Object.entries(resource.inputProperties)) {
        if (!spec.description) undocumented.push(`${token} input ${key}`);
      }
      for (const [key, spec] of Object.entries(resource.properties)) {
        if (!spec.description) undocumented.push(`${token} output ${key}`);
      }
    }
    expect(undocumented).toEqual([]);
    const site = schema.resources["arcgis-admin:index:Site"]!;
    // The definition's, an input's and a nested field's (its zod description), word for word.
    expect(site.description).toMatch(/^A site of a Mission, ArcGIS, Notebook or Video Server/);
    expect(site.inputProperties.adminUrl!.description).toMatch(/^Administrative root, e\.g\./);
    expect(schema.types["arcgis-admin:index:Tls"]!.properties.caCert!.description).toMatch(
      /^CA certificate\(s\) in PEM to trust/,
    );
    // An output that is no input: the definition's doc of it.
    expect(site.properties.createdAt!.description).not.toBe("Set by the provider.");
  });

  it("has the language sections the SDK generators read", () => {
    expect(schema.language.python).toMatchObject({ packageName: "pulumi_arcgis_admin" });
    expect(schema.language.go).toMatchObject({
      importBasePath: "github.com/pulumi-arcgis-admin/sdk/go/arcgisadmin",
    });
  });
});
