/**
 * TSDoc on every field of the public types (every resource's classes and interfaces, and the
 * shared connection types), nested shapes included, read from the built declaration files as an
 * editor shows them; fields with a unit name it.
 */
import ts from "typescript";
import { entryExports } from "../../tools/harness/entry-declarations";
import { RESOURCES } from "../../provider/resources/registry";

/** The shared types of the resources' connections, beside each resource's own. */
const SHARED_TYPES = [
  "TlsSettings",
  "ServerConnection",
  "PortalConnection",
  "PortalConnectionArgs",
  "PortalResource",
  "ServerConnectionArgs",
  "ServerResource",
  "ServerResourceArgs",
];

/**
 * Whether an export is a resource's own class or interface: declared under
 * dist/provider/resources/<folder>/, so every resource the registry adds is checked.
 */
function isResourceType(symbol: ts.Symbol): boolean {
  if (!(symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface))) return false;
  const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "";
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf("resources");
  return parts[at - 1] === "provider" && parts.length === at + 3 && parts[at + 1] !== "common";
}

/** Members every Pulumi resource has (documented by @pulumi/pulumi). */
const INHERITED = new Set(["urn", "id", "getProvider"]);

let documented: Map<string, string>;

beforeAll(() => {
  const { checker, exports } = entryExports();
  documented = new Map();
  for (const { name, symbol } of exports) {
    if (!SHARED_TYPES.includes(name) && !isResourceType(symbol)) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    for (const property of checker.getPropertiesOfType(type)) {
      if (INHERITED.has(property.name)) continue;
      const doc = ts.displayPartsToString(property.getDocumentationComment(checker));
      documented.set(`${name}.${property.name}`, doc);
    }
  }
});

it("finds the shared types and each resource's class, Args and Outputs", () => {
  const found = new Set([...documented.keys()].map((k) => k.split(".")[0]));
  const expected = [
    ...SHARED_TYPES,
    ...RESOURCES.flatMap(({ type }) => [type, `${type}Args`, `${type}Outputs`]),
  ];
  expect(expected.filter((name) => !found.has(name))).toEqual([]);
});

it("documents every field", () => {
  const missing = [...documented].filter(([, doc]) => doc.trim() === "").map(([k]) => k);
  expect(missing).toEqual([]);
});

it("names the unit of every time limit and size", () => {
  const unitless = [...documented]
    .filter(([key]) => /(Ms|Bytes)$/.test(key))
    .filter(([key, doc]) =>
      key.endsWith("Ms") ? !/\bms\b|millisecond/i.test(doc) : !/bytes/i.test(doc),
    )
    .map(([key]) => key);
  expect(unitless).toEqual([]);
  expect(documented.get("SiteLogSettings.maxLogFileAge")).toContain("not documented by Esri");
  expect(documented.get("SiteDirectory.maxFileAge")).toContain("not documented by Esri");
});
