/**
 * No module of the repository's code (provider/, emulator/, the build and the demo in scripts/,
 * the toolchain, the test harness in tools/, the benchmarks in bench/) imports itself again
 * through others: a circle makes the load order decide which side sees the other
 * half-initialised, and hides which file owns a type. TypeScript and JavaScript (.cjs, .mjs, .js)
 * alike; type-only imports, `require()` calls (also inside functions, where a circle hides best)
 * and dynamic imports count too, as the compiler, Node and a reader follow them alike.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { runTempDir } from "../../tools/harness/temp";

const ROOT = path.resolve(__dirname, "..", "..");
/** The folders of the repository's own code (tests/ holds suites and the programs they run). */
const FOLDERS = ["provider", "emulator", "scripts", "toolchain", "tools", "bench"];
const SOURCE = /\.(ts|cjs|mjs|js)$/;

/** The TypeScript and JavaScript sources below `dir`, absolute (none of node_modules/). */
function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.split(path.sep).includes("node_modules"));
}

/**
 * The files of `files` that `file` imports, exports from, requires or imports dynamically, by a
 * relative path as TypeScript or Node resolves it (`./x` to x.ts, x.js or x/index.ts; `./x.js`
 * to x.ts as well).
 */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  const found: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const base = path.resolve(path.dirname(file), fileName);
    const target = [
      base,
      `${base}.ts`,
      `${base}.js`,
      path.join(base, "index.ts"),
      path.join(base, "index.js"),
      base.replace(/\.js$/, ".ts"),
    ].find((candidate) => files.has(candidate));
    if (target !== undefined) found.push(target);
  }
  return found;
}

/**
 * The circles of the import graph of the files below `dirs` (one graph: a circle may cross
 * folders): strongly connected parts of two or more files, or a file that imports itself.
 */
export function importCircles(...dirs: string[]): string[][] {
  const files = dirs.flatMap(sourcesOf);
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f, known)]));
  // Tarjan's algorithm, iterative so that a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const out = edges.get(frame.node)!;
      if (frame.edge < out.length) {
        const to = out[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const part: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          part.push(path.relative(ROOT, member));
        } while (member !== frame.node);
        if (part.length > 1 || out.includes(frame.node)) circles.push(part.sort());
      }
    }
  }
  return circles;
}

it("provider/, emulator/, scripts/, toolchain/, tools/ and bench/ have no import circle", () => {
  expect(importCircles(...FOLDERS.map((dir) => path.join(ROOT, dir)))).toEqual([]);
});

it("reads every kind of source of those folders", () => {
  const files = FOLDERS.flatMap((dir) => sourcesOf(path.join(ROOT, dir)));
  for (const ext of [".ts", ".cjs", ".mjs"]) {
    expect(files.some((file) => file.endsWith(ext))).toBe(true);
  }
});

describe("finds a circle when there is one", () => {
  /** The circles of a folder holding these files, by file name. */
  function circlesOf(files: Record<string, string>): string[][] {
    const dir = runTempDir("circle-");
    try {
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      return importCircles(dir).map((c) => c.map((f) => path.relative(dir, path.join(ROOT, f))));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("through type-only imports and re-exports", () => {
    expect(
      circlesOf({
        "a.ts": 'import type { B } from "./b";\nexport type A = B;\n',
        "b.ts": 'import { c } from "./c";\nexport type B = number;\n',
        "c.ts": 'export * from "./a";\nexport const c = 1;\n',
      }),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("through require() calls inside functions, across folders", () => {
    // The shape of the engine's build and the language hosts before they were untangled: each
    // required the other when called.
    expect(
      circlesOf({
        "engine.cjs":
          'const { install } = require("./hosts/install.cjs");\n' +
          "module.exports = { ensure: () => install() };\n",
        "hosts/install.cjs":
          'module.exports = { install: () => require("../engine.cjs").ensure() };\n',
        "cli.mjs": 'import engine from "./engine.cjs";\nengine.ensure();\n',
      }),
    ).toEqual([["engine.cjs", "hosts/install.cjs"]]);
  });

  it("through a TypeScript import of a CommonJS module that requires it back", () => {
    expect(
      circlesOf({
        "harness.ts": 'import * as tool from "./tool.cjs";\nexport const t = tool;\n',
        "tool.cjs": 'module.exports = { harness: () => require("./harness.js") };\n',
      }),
    ).toEqual([["harness.ts", "tool.cjs"]]);
  });
});
