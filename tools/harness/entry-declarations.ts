/**
 * The built package entry's declaration file (`dist/provider/index.d.ts`) as TypeScript reads it
 * in a consumer project: its exports, each resolved through re-export aliases.
 */
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "./project";

/** One export of the entry: its public name and the symbol it stands for. */
export interface EntryExport {
  name: string;
  symbol: ts.Symbol;
}

/** Reads the entry's exports with a type checker (`npm run build` must have run). */
export function entryExports(): { checker: ts.TypeChecker; exports: EntryExport[] } {
  const entry = path.join(REPO_ROOT, "dist", "provider", "index.d.ts");
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const exports = checker.getExportsOfModule(moduleSymbol).map((exported) => ({
    name: exported.name,
    symbol: exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
  }));
  return { checker, exports };
}
