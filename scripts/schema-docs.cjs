#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Reads what the TypeScript compiler knows of each resource class (provider/resources/<name>/
 * resource.ts) and its `<Class>Args`: the TSDoc of the class, of every argument and of every
 * output, and the shape of each (unwrapped from `pulumi.Input`/`pulumi.Output`). The provider
 * plugin's schema (provider/plugin/schema.ts) takes its descriptions, and the types of the outputs
 * that are no inputs, from it; its structure comes from the zod input schemas at run time.
 *
 * `npm run build` writes it to dist/provider/plugin/schema-docs.json, so the package never loads
 * the TypeScript compiler at run time. The schema test calls {@link extractSchemaDocs} directly.
 *
 * Usage: node scripts/schema-docs.cjs [out.json]
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const REPO_ROOT = path.resolve(__dirname, "..");
/** Where the build writes it (the plugin reads it next to its own modules). */
const OUTPUT = path.join(REPO_ROOT, "dist", "provider", "plugin", "schema-docs.json");
/** How deep nested object types are described (an output's objects are shallow). */
const MAX_DEPTH = 5;

/**
 * @typedef {{
 *   type?: "string" | "number" | "boolean" | "array" | "object",
 *   items?: Shape,
 *   properties?: Record<string, Shape>,
 *   optional?: boolean,
 *   description?: string,
 * }} Shape
 * A property's shape: its JSON type (none: any value), its items or properties, whether it may be
 * absent, and its TSDoc.
 *
 * @typedef {{ description: string, args: Record<string, Shape>, outputs: Record<string, Shape> }} ResourceDocs
 * @typedef {{ resources: Record<string, ResourceDocs> }} SchemaDocs
 */

/** The resource folders: every folder under provider/resources/ but common/. */
function resourceFolders(root = REPO_ROOT) {
  const dir = path.join(root, "provider", "resources");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "common")
    .map((e) => e.name)
    .sort();
}

/**
 * @param {ts.TypeChecker} checker
 * @param {ts.Symbol} symbol
 */
function docOf(checker, symbol) {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

/**
 * The `T` of a `pulumi.Input<T>` or `pulumi.Output<T>` (found as the union's or intersection's
 * `OutputInstance<T>` member), else the type itself; `undefined`, `null` and `Promise<T>` members
 * are left out, and whether `undefined` was among them is returned.
 *
 * @param {ts.TypeChecker} checker
 * @param {ts.Type} type
 * @returns {{ types: ts.Type[], optional: boolean }}
 */
function unwrap(checker, type) {
  const members = type.isUnion() ? type.types : type.isIntersection() ? type.types : [type];
  const instance = members.find((m) => m.getSymbol()?.getName() === "OutputInstance");
  if (instance !== undefined) {
    const [inner] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (instance));
    if (inner !== undefined) {
      const innerUnwrapped = unwrap(checker, inner);
      return {
        types: innerUnwrapped.types,
        optional: innerUnwrapped.optional || members.some(isUndefined),
      };
    }
  }
  if (!type.isUnion())
    return { types: isUndefined(type) ? [] : [type], optional: isUndefined(type) };
  const kept = type.types.filter((m) => !isUndefined(m) && m.getSymbol()?.getName() !== "Promise");
  return { types: kept, optional: type.types.some(isUndefined) };
}

/** @param {ts.Type} type */
function isUndefined(type) {
  return (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) !== 0;
}

/**
 * The shape of a (declared) type.
 *
 * @param {ts.TypeChecker} checker
 * @param {ts.Type} declared
 * @param {number} depth
 * @returns {Shape}
 */
function shapeOf(checker, declared, depth) {
  const { types, optional } = unwrap(checker, declared);
  /** @type {Shape} */
  const shape = optional ? { optional: true } : {};
  const F = ts.TypeFlags;
  if (types.length === 0) return shape;
  if (types.every((t) => (t.flags & (F.String | F.StringLiteral)) !== 0)) {
    return { ...shape, type: "string" };
  }
  if (types.every((t) => (t.flags & (F.Number | F.NumberLiteral)) !== 0)) {
    return { ...shape, type: "number" };
  }
  if (types.every((t) => (t.flags & (F.Boolean | F.BooleanLiteral)) !== 0)) {
    return { ...shape, type: "boolean" };
  }
  const [only] = types;
  if (types.length !== 1 || only === undefined || depth > MAX_DEPTH) return shape;
  if (checker.isArrayType(only)) {
    const [item] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (only));
    return { ...shape, type: "array", items: item ? shapeOf(checker, item, depth + 1) : {} };
  }
  if ((only.flags & F.Object) !== 0) {
    /** @type {Record<string, Shape>} */
    const properties = {};
    for (const property of checker.getPropertiesOfType(only)) {
      properties[property.getName()] = propertyShape(checker, property, depth + 1);
    }
    return { ...shape, type: "object", properties };
  }
  return shape;
}

/**
 * @param {ts.TypeChecker} checker
 * @param {ts.Symbol} property
 * @param {number} depth
 * @returns {Shape}
 */
function propertyShape(checker, property, depth) {
  const declaration = property.valueDeclaration ?? property.declarations?.[0];
  const type =
    declaration === undefined
      ? checker.getDeclaredTypeOfSymbol(property)
      : checker.getTypeOfSymbolAtLocation(property, declaration);
  const shape = shapeOf(checker, type, depth);
  if ((property.flags & ts.SymbolFlags.Optional) !== 0) shape.optional = true;
  const description = docOf(checker, property);
  return description === "" ? shape : { ...shape, description };
}

/**
 * The docs of every resource: the class `<Class>` exported by each resource.ts, its `<Class>Args`,
 * and the outputs the class declares (its own and its base classes', not Pulumi's `id`/`urn`).
 *
 * @returns {SchemaDocs}
 */
function extractSchemaDocs(root = REPO_ROOT) {
  const files = resourceFolders(root).map((f) =>
    path.join(root, "provider", "resources", f, "resource.ts"),
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
  /** @type {Record<string, ResourceDocs>} */
  const resources = {};
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`schema-docs: cannot read ${file}`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    const classes = exports.filter((s) => (s.flags & ts.SymbolFlags.Class) !== 0);
    if (classes.length !== 1 || classes[0] === undefined) {
      throw new Error(`schema-docs: ${file} must export exactly one resource class`);
    }
    const cls = classes[0];
    const name = cls.getName();
    const args = exports.find((s) => s.getName() === `${name}Args`);
    if (args === undefined) throw new Error(`schema-docs: ${file} exports no ${name}Args`);
    /** @type {Record<string, Shape>} */
    const argShapes = {};
    for (const p of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(args))) {
      argShapes[p.getName()] = propertyShape(checker, p, 0);
    }
    /** @type {Record<string, Shape>} */
    const outputs = {};
    for (const p of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(cls))) {
      const declaredIn = p.declarations?.[0]?.getSourceFile().fileName ?? "";
      if (!declaredIn.startsWith(path.join(root, "provider"))) continue;
      outputs[p.getName()] = propertyShape(checker, p, 0);
    }
    resources[name] = { description: docOf(checker, cls), args: argShapes, outputs };
  }
  return { resources };
}

module.exports = { OUTPUT, extractSchemaDocs, resourceFolders };

if (require.main === module) {
  const out = process.argv[2] ?? OUTPUT;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(extractSchemaDocs(), null, 2)}\n`);
}
