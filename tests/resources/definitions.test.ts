/**
 * Each resource's one definition (provider/resources/<name>/definition.ts) and every form derived
 * from it agree: the Args and the class as the compiler reads them (keys, optionality, TSDoc),
 * the zod schema, the diff's lists, the frame, the plugin schema and the docs' tables, and the
 * generated files are those the definition writes today.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { z } from "zod";
import type {
  InputSpec,
  ResourceDefinition,
} from "../../provider/resources/common/inputs/definition";
import { PLUGIN_RESOURCES, type PluginResource } from "../../provider/plugin/resources";
import { packageSchema } from "../../provider/plugin/schema";
const ROOT = path.resolve(__dirname, "..", "..");

interface Wrapped {
  optional: boolean;
  hasDefault: boolean;
  defaultValue?: unknown;
}

/** Whether a zod schema is optional or has a default (zod 4's definition, as far as read here). */
function wrapped(schema: z.ZodType): Wrapped {
  let node = schema as unknown as {
    _zod: { def: { type: string; innerType?: unknown; defaultValue?: unknown } };
  };
  const out: Wrapped = { optional: false, hasDefault: false };
  for (;;) {
    const def = node._zod.def;
    if (def.type === "optional") out.optional = true;
    else if (def.type === "default") {
      out.hasDefault = true;
      out.defaultValue = def.defaultValue;
    } else return { ...out, optional: out.optional && !out.hasDefault };
    node = def.innerType as typeof node;
  }
}

function argOptional(spec: InputSpec): boolean {
  const { optional, hasDefault } = wrapped(spec.schema());
  return optional || hasDefault || spec.argOptional === true || spec.inherited === "connection";
}

/** What the compiler reads of a resource's Args and class. */
interface Declared {
  args: Map<string, { optional: boolean; doc: string }>;
  outputs: Map<string, { doc: string }>;
}

/** The Args and class of every generated.ts, as a program using the package sees them. */
function declaredForms(): Map<string, Declared> {
  const files = PLUGIN_RESOURCES.map((r) =>
    path.join(ROOT, "provider", "resources", r.definition.folder, "generated.ts"),
  );
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  // TSDoc as one line: the generated comments are wrapped at 100 columns.
  const doc = (s: ts.Symbol) =>
    ts.displayPartsToString(s.getDocumentationComment(checker)).replace(/\s+/g, " ").trim();
  const forms = new Map<string, Declared>();
  for (const [i, file] of files.entries()) {
    const type = PLUGIN_RESOURCES[i]!.type;
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const exports = checker.getExportsOfModule(module);
    const find = (name: string) => exports.find((s) => s.getName() === name)!;
    const args = new Map<string, { optional: boolean; doc: string }>();
    for (const p of checker.getPropertiesOfType(
      checker.getDeclaredTypeOfSymbol(find(`${type}Args`)),
    )) {
      args.set(p.getName(), {
        optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
        doc: doc(p),
      });
    }
    const outputs = new Map<string, { doc: string }>();
    for (const p of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(find(type)))) {
      const declaredIn = p.declarations?.[0]?.getSourceFile().fileName ?? "";
      if (declaredIn.startsWith(path.join(ROOT, "provider")))
        outputs.set(p.getName(), { doc: doc(p) });
    }
    forms.set(type, { args, outputs });
  }
  return forms;
}

const declared = declaredForms();
const schema = packageSchema("0.0.0");

describe.each(PLUGIN_RESOURCES.map((r): [string, PluginResource] => [r.type, r]))(
  "%s's definition",
  (type, resource) => {
    const definition: ResourceDefinition = resource.definition;
    const inputs = Object.entries(definition.inputs);
    const forms = declared.get(type)!;

    it("is the Args: every input, optional where defaulted, optional or filled by the connection", () => {
      expect([...forms.args.keys()].sort()).toEqual(
        [...inputs.map(([key]) => key), "connection"].sort(),
      );
      for (const [key, spec] of inputs) {
        expect([key, forms.args.get(key)!.optional]).toEqual([key, argOptional(spec)]);
        // What an editor shows on the argument: the definition's words.
        if (spec.inherited === undefined || spec.own === true) {
          expect([key, forms.args.get(key)!.doc]).toEqual([key, spec.doc]);
        }
      }
    });

    it("is the class's outputs, each with its description", () => {
      expect([...forms.outputs.keys()].sort()).toEqual(
        [...new Set([...inputs.map(([key]) => key), ...Object.keys(definition.outputs)])].sort(),
      );
      for (const [key, spec] of inputs) {
        if (spec.inherited !== undefined || key in definition.outputs) continue;
        expect([key, forms.outputs.get(key)!.doc]).toEqual([key, spec.outputDoc ?? spec.doc]);
      }
      for (const [key, spec] of Object.entries(definition.outputs)) {
        expect([key, forms.outputs.get(key)!.doc]).toEqual([key, spec.doc]);
      }
    });

    it("is what check() parses, defaults included", () => {
      const parsed = resource.rules.schema() as z.ZodObject;
      expect(Object.keys(parsed.shape)).toEqual(inputs.map(([key]) => key));
      for (const [key, spec] of inputs) {
        expect([key, wrapped(parsed.shape[key] as z.ZodType)]).toEqual([
          key,
          wrapped(spec.schema()),
        ]);
      }
    });

    it("is the diff's replace and state-only lists, and the frame's keys and secrets", () => {
      const flagged = (flag: "replaces" | "stateOnly") =>
        inputs.filter(([, spec]) => spec[flag] === true).map(([key]) => key);
      const { frame } = resource;
      expect([...frame.stateOnly]).toEqual(flagged("stateOnly"));
      expect([...frame.replacing]).toEqual(flagged("replaces"));
      const asArguments = Object.entries(definition.outputs)
        .filter(([, spec]) => spec.registeredAsArgument === true)
        .map(([key]) => key);
      expect([...frame.fromArguments]).toEqual([...inputs.map(([key]) => key), ...asArguments]);
      expect([...frame.outputOnly]).toEqual(
        Object.keys(definition.outputs).filter(
          (key) => !(key in definition.inputs) && !asArguments.includes(key),
        ),
      );
      for (const [key, spec] of inputs) {
        if (spec.secret === true) expect(frame.secretOutputs).toContain(key);
      }
    });

    it("is the plugin schema's properties and descriptions", () => {
      const spec = schema.resources[`arcgis-admin:index:${type}`]!;
      expect(spec.description).toBe(definition.doc);
      expect(Object.keys(spec.inputProperties)).toEqual(inputs.map(([key]) => key));
      for (const [key, input] of inputs) {
        expect([key, spec.inputProperties[key]!.description]).toEqual([
          key,
          expect.stringContaining(input.doc) as unknown,
        ]);
        if (input.secret === true)
          expect([key, spec.inputProperties[key]!.secret]).toEqual([key, true]);
      }
      for (const key of resource.frame.outputOnly) {
        expect([key, spec.properties[key]!.description]).toEqual([
          key,
          definition.outputs[key]!.doc,
        ]);
      }
    });

    it("is the argument table of its docs page, one row per input in its order", () => {
      const page = fs.readFileSync(path.join(ROOT, "docs", `${definition.folder}.md`), "utf8");
      const begin = page.indexOf("<!-- arguments:");
      const table = page.slice(begin, page.indexOf("<!-- /arguments -->", begin));
      const rows = [...table.matchAll(/^\| `([\w.]+)`/gm)].map((m) => m[1]!);
      expect(rows.filter((name) => !name.includes("."))).toEqual(inputs.map(([key]) => key));
      for (const [key, input] of inputs) {
        const row = table.split("\n").find((line) => line.startsWith(`| \`${key}\``))!;
        expect(row.replace(/\s+/g, " ")).toContain(input.doc.replace(/\|/g, "\\|"));
      }
    });
  },
);

it("writes today's generated.ts and docs tables from the definitions (npm run build)", () => {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "tools", "codegen", "definitions.cjs"), "--check"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  expect([result.status, result.stdout, result.stderr]).toEqual([0, "", ""]);
});
