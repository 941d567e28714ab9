/**
 * Each row of the registry (provider/resources/registry.ts) has what a resource is for its users,
 * read from artefacts made apart from the registry: the built package's exports (its class, Args
 * and provider, the provider being the exports of its own module, and the released module path
 * that saved stacks load), the schema the running
 * plugin serves over gRPC (its type token, with the definition's inputs), and the docs folder
 * (its page with the argument table, linked from the README's table). A copy of the registry with
 * a row the package lacks is refused, naming each artefact that is missing.
 */
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import type { ResourceDefinition } from "../../provider/resources/common/inputs/definition";
import { startPluginServer } from "../../provider/plugin/server";
import { RESOURCES } from "../../provider/resources/registry";
import { entryExports } from "../../tools/harness/entry-declarations";

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof grpcTypes;
const m = pulumiRequire("./proto/provider_pb") as typeof provTypes;
const services = pulumiRequire("./proto/provider_grpc_pb") as {
  ResourceProviderClient: new (
    address: string,
    credentials: unknown,
  ) => {
    getSchema(request: unknown, done: (error: Error | null, answer: unknown) => void): void;
    close(): void;
  };
};

const ROOT = path.resolve(__dirname, "..", "..");
/** Loads a built module as a saved stack's provider does, by its path under dist/. */
const distRequire = createRequire(__filename);

/** What the package shows of its resources, each read without the registry. */
interface Artefacts {
  /** The names the built entry (dist/provider/index.d.ts) exports. */
  exports: ReadonlySet<string>;
  /** The served schema's resources: type token → its input property names. */
  schema: ReadonlyMap<string, readonly string[]>;
  /** The docs folder's pages: file name → text. */
  docs: ReadonlyMap<string, string>;
  /** The README's text. */
  readme: string;
}

/** The `lowerCamel` name of the exported provider constant of a class. */
function providerName(type: string): string {
  return `${type[0]!.toLowerCase()}${type.slice(1)}Provider`;
}

/**
 * What each registry row lacks among the artefacts, as sentences naming the row and the artefact;
 * none when every row has all of them.
 */
export function registryProblems(
  rows: readonly Pick<ResourceDefinition, "type" | "folder" | "inputs">[],
  artefacts: Artefacts,
): string[] {
  const problems: string[] = [];
  for (const { type, folder, inputs } of rows) {
    for (const name of [type, `${type}Args`, providerName(type)]) {
      if (!artefacts.exports.has(name)) problems.push(`${type}: the package exports no ${name}`);
    }
    const entry = path.join(ROOT, "dist", "provider", "resources", `${folder}.js`);
    const loaded = fs.existsSync(entry) ? (distRequire(entry) as { implementation?: unknown }) : {};
    if (typeof loaded.implementation !== "object") {
      problems.push(`${type}: dist/provider/resources/${folder}.js exports no implementation`);
    }
    // The exported provider must be that module's whole exports: Pulumi's serializer then stores
    // a `require` of it in each resource's state instead of the provider's methods.
    const own = path.join(ROOT, "dist", "provider", "resources", folder, "provider.js");
    const exported = (distRequire(path.join(ROOT, "dist", "provider", "index.js")) as object)[
      providerName(type) as keyof object
    ];
    if (!fs.existsSync(own) || distRequire(own) !== exported) {
      problems.push(
        `${type}: the exported ${providerName(type)} is not the exports of dist/provider/resources/${folder}/provider.js`,
      );
    }
    const served = artefacts.schema.get(`arcgis-admin:index:${type}`);
    if (served === undefined) problems.push(`${type}: the plugin's schema has no such resource`);
    else if (served.join() !== Object.keys(inputs).join()) {
      problems.push(`${type}: the plugin's schema serves the inputs ${served.join(", ")}`);
    }
    const page = artefacts.docs.get(`${folder}.md`);
    if (page === undefined) problems.push(`${type}: docs/${folder}.md does not exist`);
    else if (!page.includes("<!-- arguments:")) {
      problems.push(`${type}: docs/${folder}.md has no argument table`);
    }
    if (!artefacts.readme.includes(`[\`${type}\`](docs/${folder}.md)`)) {
      problems.push(`${type}: the README's table does not link docs/${folder}.md`);
    }
  }
  return problems;
}

let artefacts: Artefacts;

beforeAll(async () => {
  const server = await startPluginServer();
  const client = new services.ResourceProviderClient(
    `127.0.0.1:${server.port}`,
    grpc.credentials.createInsecure(),
  );
  try {
    const answer = await new Promise<{ getSchema(): string }>((resolve, reject) =>
      client.getSchema(new m.GetSchemaRequest(), (error, reply) =>
        error ? reject(error) : resolve(reply as { getSchema(): string }),
      ),
    );
    const schema = JSON.parse(answer.getSchema()) as {
      resources: Record<string, { inputProperties: Record<string, unknown> }>;
    };
    const docs = path.join(ROOT, "docs");
    artefacts = {
      exports: new Set(entryExports().exports.map((e) => e.name)),
      schema: new Map(
        Object.entries(schema.resources).map(([token, r]) => [
          token,
          Object.keys(r.inputProperties),
        ]),
      ),
      docs: new Map(
        fs
          .readdirSync(docs)
          .filter((f) => f.endsWith(".md"))
          .map((f) => [f, fs.readFileSync(path.join(docs, f), "utf8")]),
      ),
      readme: fs.readFileSync(path.join(ROOT, "README.md"), "utf8"),
    };
  } finally {
    client.close();
    server.stop();
  }
}, 60_000);

it("finds every registry row in the package's exports, the served schema and the docs", () => {
  expect(RESOURCES.length).toBeGreaterThan(0);
  expect(registryProblems(RESOURCES, artefacts)).toEqual([]);
});

it("serves no resource the registry does not list", () => {
  const tokens = RESOURCES.map((r) => `arcgis-admin:index:${r.type}`).sort();
  expect([...artefacts.schema.keys()].sort()).toEqual(tokens);
});

it("refuses a registry with a row the package lacks, naming each missing artefact", () => {
  const fake = { type: "LicenseFile", folder: "license-file", inputs: {} };
  expect(registryProblems([...RESOURCES, fake], artefacts)).toEqual([
    "LicenseFile: the package exports no LicenseFile",
    "LicenseFile: the package exports no LicenseFileArgs",
    "LicenseFile: the package exports no licenseFileProvider",
    "LicenseFile: dist/provider/resources/license-file.js exports no implementation",
    "LicenseFile: the exported licenseFileProvider is not the exports of dist/provider/resources/license-file/provider.js",
    "LicenseFile: the plugin's schema has no such resource",
    "LicenseFile: docs/license-file.md does not exist",
    "LicenseFile: the README's table does not link docs/license-file.md",
  ]);
});

it("refuses a row whose one artefact is missing: a docs page without its argument table", () => {
  const site = RESOURCES.find((r) => r.type === "Site")!;
  const docs = new Map(artefacts.docs);
  docs.set("site.md", "# Site\n");
  expect(registryProblems([site], { ...artefacts, docs })).toEqual([
    "Site: docs/site.md has no argument table",
  ]);
});
