/**
 * Comments in provider/, emulator/, scripts/ and toolchain/ say why, not what was measured: timings, sizes and
 * their history belong in bench/RESULTS.md, docs/, CHANGELOG.md and commit messages. This suite
 * reads every comment of those folders (TypeScript and JavaScript through the TypeScript scanner,
 * Python's `#` lines and docstrings, Go's `//` lines) and fails on the phrases a measurement report is written in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..");
const FOLDERS = ["provider", "emulator", "scripts", "toolchain"];

/** Phrases that report a measurement: a median, repeated runs, a range of times or sizes. */
const MEASUREMENT_PHRASES: readonly RegExp[] = [
  /\bmedians? of\b/i,
  /\bruns each\b/i,
  /\d+(\.\d+)? ?(to|–|-) ?\d+(\.\d+)? ?(ms|MiB|MB)\b/,
  /\bms (faster|slower)\b/i,
];

/** A comment and the line it starts on. */
interface Comment {
  line: number;
  text: string;
}

/** Every comment of a TypeScript or JavaScript text, each once, in order. */
export function scriptComments(file: string, text: string): Comment[] {
  const kind = file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found.entries()]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({
      line: source.getLineAndCharacterOfPosition(pos).line + 1,
      text: comment,
    }));
}

/**
 * The comments of a Python text: `#` to the end of a line (outside a string on that line) and
 * triple-quoted strings that stand as statements (docstrings). A plain reading, enough for this
 * repository's scripts.
 */
export function pythonComments(text: string): Comment[] {
  const comments: Comment[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const docstring = /^\s*[rRbBuU]?("""|''')/.exec(line);
    if (docstring) {
      const quote = docstring[1]!;
      const start = i;
      const rest = line.slice(line.indexOf(quote) + 3);
      while (!(i === start ? rest : lines[i]!).includes(quote) && i < lines.length - 1) i++;
      comments.push({ line: start + 1, text: lines.slice(start, i + 1).join("\n") });
      continue;
    }
    let quote: string | undefined;
    for (let c = 0; c < line.length; c++) {
      const ch = line[c]!;
      if (quote) {
        if (ch === "\\") c++;
        else if (ch === quote) quote = undefined;
      } else if (ch === '"' || ch === "'") {
        quote = ch;
      } else if (ch === "#") {
        comments.push({ line: i + 1, text: line.slice(c) });
        break;
      }
    }
  }
  return comments;
}

/**
 * The `//` comments of a Go text: to the end of a line, outside a string on that line (the Go of
 * this repository writes no block comments and no multi-line raw strings).
 */
export function goComments(text: string): Comment[] {
  const comments: Comment[] = [];
  text.split("\n").forEach((line, i) => {
    let quote: string | undefined;
    for (let c = 0; c < line.length; c++) {
      const ch = line[c]!;
      if (quote) {
        if (ch === "\\" && quote !== "`") c++;
        else if (ch === quote) quote = undefined;
      } else if (ch === '"' || ch === "'" || ch === "`") {
        quote = ch;
      } else if (line.startsWith("//", c)) {
        comments.push({ line: i + 1, text: line.slice(c) });
        break;
      }
    }
  });
  return comments;
}

/** The files of a folder, recursively, relative to the repository root. */
function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes("node_modules"))
    .sort();
}

/** The comments of one file of the scanned folders (none for files that are not code). */
function commentsOf(file: string): Comment[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  if (/\.(ts|cts|mts|js|cjs|mjs)$/.test(file) && !file.endsWith(".d.ts")) {
    return scriptComments(file, text);
  }
  if (file.endsWith(".py")) return pythonComments(text);
  if (file.endsWith(".go")) return goComments(text);
  return [];
}

/** `file:line: text` for every line of a comment that reads as a measurement report. */
function measurementLines(file: string, comments: Comment[]): string[] {
  return comments.flatMap((comment) =>
    comment.text
      .split("\n")
      .map((text, offset) => ({ text, line: comment.line + offset }))
      .filter(({ text }) => MEASUREMENT_PHRASES.some((phrase) => phrase.test(text)))
      .map(({ text, line }) => `${file}:${line}: ${text.trim()}`),
  );
}

const FILES = FOLDERS.flatMap(filesUnder);

it("scans the code of provider/, emulator/, scripts/ and toolchain/", () => {
  for (const folder of FOLDERS) {
    expect(FILES.filter((f) => f.startsWith(folder + path.sep)).length).toBeGreaterThan(5);
  }
  expect(FILES.some((f) => f.endsWith(".py"))).toBe(true);
  expect(FILES.some((f) => f.endsWith(".cjs"))).toBe(true);
  expect(FILES.some((f) => f.endsWith(".go"))).toBe(true);
});

it("finds no comment that reports a measurement", () => {
  const found = FILES.flatMap((file) => measurementLines(file, commentsOf(file)));
  // Say why in a sentence or two; the numbers go to bench/RESULTS.md (point to its figure), docs/,
  // CHANGELOG.md or the commit message.
  expect(found).toEqual([]);
});

describe("the scan itself", () => {
  it("catches the phrases of a measurement report", () => {
    const reports = [
      "// 25 to 75 ms faster than before (medians of 9 to 11 runs)",
      "// 28 to 31 ms, then 18 to 21 ms (Node 24, 4 runs each)",
      "/* the host grew 59 to 76 MiB */",
      "// about 12 ms slower",
      "// 1.5–2.5 MB per site",
    ];
    for (const report of reports) {
      const comments = scriptComments("x.ts", `${report}\nexport const x = 1;\n`);
      expect(measurementLines("x.ts", comments)).toHaveLength(1);
    }
  });

  it("passes facts that are no measurements, and code that is no comment", () => {
    const code = [
      "/** 5 MiB: S3's minimum part size. */",
      "export const PART_BYTES = 5 * 1024 * 1024;",
      "// Esri's own tools poll every 5 to 10 s; the bucket name is 3 to 63 characters.",
      'export const range = "25 to 75 ms faster"; // a string, not a comment',
      "export const re = /medians of/;",
    ].join("\n");
    expect(measurementLines("x.ts", scriptComments("x.ts", code))).toEqual([]);
  });

  it("reads Python comments and docstrings, not strings", () => {
    const code = [
      '"""A module docstring.',
      "",
      'Medians of 9 runs."""',
      'label = "4 runs each"  # 10 to 20 ms',
      "def f():",
      "    '''One line, 3 to 4 MiB.'''",
    ].join("\n");
    expect(measurementLines("x.py", pythonComments(code))).toEqual([
      'x.py:3: Medians of 9 runs."""',
      "x.py:4: # 10 to 20 ms",
      "x.py:6: '''One line, 3 to 4 MiB.'''",
    ]);
  });

  it("reads Go comments, not strings", () => {
    const code = [
      "// Package x: 10 to 20 ms.",
      'const label = "4 runs each // not a comment" // medians of 3',
      "var re = `//medians of`",
    ].join("\n");
    expect(measurementLines("x.go", goComments(code))).toEqual([
      "x.go:1: // Package x: 10 to 20 ms.",
      "x.go:2: // medians of 3",
    ]);
  });
});
