/**
 * No module of provider/ or emulator/ imports itself again through others: a circle makes the
 * load order decide which side sees the other half-initialised, and hides which file owns a type.
 * Type-only imports count too, as the compiler and a reader follow them alike.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { runTempDir } from "../../tools/harness/temp";

const ROOT = path.resolve(__dirname, "..", "..");

/** The TypeScript sources below `dir`, absolute. */
function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The files of `files` that `file` imports, exports from, requires or imports dynamically. */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  const found: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const base = path.resolve(path.dirname(file), fileName);
    const target = [`${base}.ts`, path.join(base, "index.ts"), base.replace(/\.js$/, ".ts")].find(
      (candidate) => files.has(candidate),
    );
    if (target !== undefined) found.push(target);
  }
  return found;
}

/** The circles of the import graph of `dir`: strongly connected parts of two or more files. */
export function importCircles(dir: string): string[][] {
  const files = sourcesOf(dir);
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

it.each(["provider", "emulator"])("%s/ has no import circle", (dir) => {
  expect(importCircles(path.join(ROOT, dir))).toEqual([]);
});

it("finds a circle when there is one", () => {
  const dir = runTempDir("circle-");
  try {
    fs.writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b";\nexport type A = B;\n');
    fs.writeFileSync(path.join(dir, "b.ts"), 'import { c } from "./c";\nexport type B = number;\n');
    fs.writeFileSync(path.join(dir, "c.ts"), 'export * from "./a";\nexport const c = 1;\n');
    expect(importCircles(dir).map((c) => c.map((f) => path.basename(f)))).toEqual([
      ["a.ts", "b.ts", "c.ts"],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
