/**
 * TSDoc on every field of the public types, nested shapes included, read from the built
 * declaration files as an editor shows them; fields with a unit name it.
 */
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../engine/harness";

const PUBLIC_TYPES = [
  "Site",
  "SiteArgs",
  "SiteOutputs",
  "SiteConfigStoreConnection",
  "SiteDirectory",
  "SiteLogSettings",
  "SiteTimeouts",
  "SiteExport",
  "SiteExportArgs",
  "SiteExportOutputs",
  "SiteExportTimeouts",
  "Collaboration",
  "CollaborationArgs",
  "CollaborationOutputs",
  "TlsSettings",
  "ServerConnection",
  "PortalConnection",
];

/** Members every Pulumi resource has (documented by @pulumi/pulumi). */
const INHERITED = new Set(["urn", "id", "getProvider"]);

let documented: Map<string, string>;

beforeAll(() => {
  const entry = path.join(REPO_ROOT, "dist", "provider", "index.d.ts");
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  documented = new Map();
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    if (!PUBLIC_TYPES.includes(exported.name)) continue;
    const symbol =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const type =
      symbol.flags & ts.SymbolFlags.Class
        ? checker.getDeclaredTypeOfSymbol(symbol)
        : checker.getDeclaredTypeOfSymbol(symbol);
    for (const property of checker.getPropertiesOfType(type)) {
      if (INHERITED.has(property.name)) continue;
      const doc = ts.displayPartsToString(property.getDocumentationComment(checker));
      documented.set(`${exported.name}.${property.name}`, doc);
    }
  }
});

it("finds every public type", () => {
  const found = new Set([...documented.keys()].map((k) => k.split(".")[0]));
  expect([...found].sort()).toEqual([...PUBLIC_TYPES].sort());
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
