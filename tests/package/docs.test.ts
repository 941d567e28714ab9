/**
 * The documentation's code cannot rot: every ```ts block of README.md, CHANGELOG.md and docs/*.md is
 * type-checked as a program of its own in a consumer project with the packed package installed,
 * and the plugin's Node.js SDK as `npm run sdk -- --language nodejs` packs it (Pulumi's current
 * TypeScript template: nodenext, strict), as a user would paste it.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { prepareConsumer, type Consumer } from "../../tools/harness/consumer";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";
import * as sdk from "../../toolchain/sdk.cjs";

/** A TypeScript block of a page: where it starts, and its text. */
interface Block {
  page: string;
  line: number;
  code: string;
}

/** The pages whose code is checked. */
function pages(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join("docs", f));
  return ["README.md", "CHANGELOG.md", ...docs.sort()];
}

/** The ```ts / ```typescript blocks of a Markdown text. */
export function typeScriptBlocks(page: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.startsWith("```")) end++;
    blocks.push({ page, line: start + 1, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

const TSC = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const blocks = pages().flatMap((page) =>
  typeScriptBlocks(page, fs.readFileSync(path.join(REPO_ROOT, page), "utf8")),
);

let consumer: Consumer;
let sdkOut: string;
/** tsc's diagnostics per block file. */
const diagnostics = new Map<string, string[]>();

function fileOf(block: Block): string {
  return `${block.page.replace(/[/.]/g, "_")}_${block.line}.ts`;
}

beforeAll(async () => {
  sdkOut = runTempDir("arcgis-docs-sdk-");
  const { nodejsTarball } = await sdk.writeSdks({
    out: sdkOut,
    languages: ["nodejs"],
    log: () => undefined,
  });
  consumer = await prepareConsumer({ tarballs: [nodejsTarball!] });
  for (const block of blocks) {
    // `export {}` makes each block a module of its own: names never clash between blocks.
    fs.writeFileSync(path.join(consumer.dir, fileOf(block)), `${block.code}\nexport {};\n`);
  }
  fs.writeFileSync(
    path.join(consumer.dir, "tsconfig.docs.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "es2020",
        module: "nodenext",
        moduleResolution: "nodenext",
        noEmit: true,
        pretty: false,
        skipLibCheck: true,
      },
      files: blocks.map(fileOf),
    }),
  );
  const result = spawnSync(process.execPath, [TSC, "-p", "tsconfig.docs.json"], {
    cwd: consumer.dir,
    encoding: "utf8",
  });
  for (const line of `${result.stdout}${result.stderr}`.split("\n")) {
    const match = /^([^(]+\.ts)\(\d+,\d+\): (error .*)$/.exec(line);
    if (!match) continue;
    diagnostics.set(match[1]!, [...(diagnostics.get(match[1]!) ?? []), match[2]!]);
  }
}, 300_000);

afterAll(async () => {
  await consumer?.cleanup();
  if (sdkOut !== undefined) fs.rmSync(sdkOut, { recursive: true, force: true });
});

it("finds the blocks: README's example and at least one per resource page", () => {
  const byPage = new Set(blocks.map((b) => b.page));
  for (const page of ["README.md", "docs/site.md", "docs/site-export.md", "docs/connection.md"]) {
    expect(byPage).toContain(page);
  }
});

it("reads a block's text and where it starts", () => {
  expect(typeScriptBlocks("x.md", "a\n```ts\nconst a = 1;\n```\n```sh\nls\n```\n")).toEqual([
    { page: "x.md", line: 3, code: "const a = 1;" },
  ]);
});

it.each(blocks.map((b) => [`${b.page}:${b.line}`, b] as const))(
  "%s type-checks against the packed package",
  (_where, block) => {
    expect(diagnostics.get(fileOf(block)) ?? []).toEqual([]);
  },
);

it("shows every example URL in the right place: a sharing root as sharingUrl, an admin root as adminUrl", () => {
  // README, docs, examples and the resources' own TSDoc.
  const files = [
    ...pages(),
    ...fs
      .readdirSync(path.join(REPO_ROOT, "examples"), { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(ts|md)$/.test(f))
      .map((f) => path.join("examples", f)),
    ...fs
      .readdirSync(path.join(REPO_ROOT, "provider", "resources"), {
        recursive: true,
        encoding: "utf8",
      })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join("provider", "resources", f)),
  ];
  const wrong: string[] = [];
  let seen = 0;
  for (const file of files) {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
    for (const m of text.matchAll(
      /\b(sharingUrl|adminUrl|siteAdminUrl)\b[^\n`"]*?[`"](https?:\/\/[^`"\s]+)[`"]/g,
    )) {
      seen++;
      const [, key, url] = m;
      const sharing = /\/sharing\/rest\/?$/.test(url!);
      if ((key === "sharingUrl") !== sharing) wrong.push(`${file}: ${key} = ${url}`);
    }
  }
  expect(seen).toBeGreaterThan(5);
  expect(wrong).toEqual([]);
});

it("names the tarball `npm pack` makes with package.json's version, wherever it is installed from", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  const readmes = fs
    .readdirSync(path.join(REPO_ROOT, "examples"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith("README.md"))
    .map((f) => path.join("examples", f));
  const named: string[] = [];
  for (const file of [...pages(), ...readmes]) {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
    for (const m of text.matchAll(/pulumi-arcgis-admin-(\d+\.\d+\.\d+[^\s/`]*?)\.tgz/g)) {
      named.push(`${file}: ${m[1]}`);
    }
  }
  expect(named.length).toBeGreaterThan(3);
  expect(named.filter((n) => !n.endsWith(`: ${version}`))).toEqual([]);
});
