/**
 * Teaches `require` to load the benchmark's TypeScript: each `.ts` file is transpiled to CommonJS
 * with the repo's own `typescript` (transpile only, like ts-node's transpile-only mode; `npm run
 * typecheck` checks the types). Why not `tsc` into an output folder: tools/harness/project.ts finds
 * the repository from its own `__dirname`, which must stay tools/harness; and nothing is emitted
 * that would need a .gitignore entry.
 */
"use strict";
const fs = require("node:fs");
const ts = require("typescript");

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2023,
  esModuleInterop: true,
  inlineSourceMap: true,
};

require.extensions[".ts"] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, "utf8");
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
process.setSourceMapsEnabled(true);
