/**
 * The public types in real consumer projects: the packed package installed in a project made from
 * Pulumi's TypeScript template, and `tsc` run on a program that uses every resource and reads every
 * output (tests/package/fixtures/consumer-types/index.ts), once per template shape of the last two
 * years (pulumi/templates typescript/tsconfig.json):
 * - from 2024-04-15 (a3029400) until 2026-03-25: `module: commonjs`, `moduleResolution: node`;
 * - since 2026-03-25 (81e65225, "Use moduleResolution: nodenext"): `nodenext` both.
 * Both with the template's `typescript` ^5 and `@types/node` ^18 (and the current shape also with
 * TypeScript 6), and without `skipLibCheck`, as the templates have it: an error inside any
 * declaration file the package pulls in (zod's, for one) fails the test. Each compile also proves
 * the check is real: the program expects errors where it misuses an output (`@ts-expect-error`,
 * which tsc refuses when unused).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { prepareConsumer, type Consumer } from "../../tools/harness/consumer";
import { REPO_ROOT } from "../../tools/harness/project";

/** compilerOptions shared by both template shapes (pulumi/templates typescript/tsconfig.json). */
const TEMPLATE_OPTIONS = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: false,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};

const SHAPES = {
  "2024 template (commonjs, moduleResolution node)": {
    module: "commonjs",
    moduleResolution: "node",
  },
  "2026 template (nodenext)": { module: "nodenext", moduleResolution: "nodenext" },
};

const TS5 = path.join(REPO_ROOT, "node_modules", "typescript5", "bin", "tsc");
const TS6 = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");

let consumer: Consumer;

beforeAll(async () => {
  consumer = await prepareConsumer();
  fs.copyFileSync(
    path.join(__dirname, "fixtures", "consumer-types", "index.ts"),
    path.join(consumer.dir, "index.ts"),
  );
  // The templates' @types/node ^18, found before the repository's through typeRoots.
  fs.mkdirSync(path.join(consumer.dir, "types18"));
  fs.symlinkSync(
    path.join(REPO_ROOT, "node_modules", "types-node18"),
    path.join(consumer.dir, "types18", "node"),
    "junction",
  );
}, 180_000);

afterAll(async () => {
  await consumer?.cleanup();
});

/**
 * The compiler's records of earlier runs (`--incremental`), one per compiler and shape: a record
 * holds each file's hash, so only what changed (the package's declarations, the fixture) is
 * checked again. Each consumer project is a new folder of the same depth, and a record's paths
 * are relative to it.
 */
const BUILD_INFO_CACHE = path.join(
  REPO_ROOT,
  "node_modules",
  ".cache",
  "pulumi-arcgis-admin",
  "consumer-types",
);

function compile(tsc: string, shape: keyof typeof SHAPES): { code: number | null; out: string } {
  const id = `${Object.keys(SHAPES).indexOf(shape)}-${tsc === TS5 ? "ts5" : "ts6"}`;
  const name = `tsconfig.${id}.json`;
  const info = `${id}.tsbuildinfo`;
  const cached = path.join(BUILD_INFO_CACHE, info);
  if (fs.existsSync(cached)) fs.copyFileSync(cached, path.join(consumer.dir, info));
  fs.writeFileSync(
    path.join(consumer.dir, name),
    JSON.stringify({
      compilerOptions: {
        ...TEMPLATE_OPTIONS,
        ...SHAPES[shape],
        typeRoots: ["./types18"],
        noEmit: true,
        incremental: true,
        tsBuildInfoFile: `./${info}`,
      },
      files: ["index.ts"],
    }),
  );
  const result = spawnSync(process.execPath, [tsc, "-p", name], {
    cwd: consumer.dir,
    encoding: "utf8",
  });
  if (fs.existsSync(path.join(consumer.dir, info))) {
    fs.mkdirSync(BUILD_INFO_CACHE, { recursive: true });
    fs.copyFileSync(path.join(consumer.dir, info), cached);
  }
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe.each(Object.keys(SHAPES) as Array<keyof typeof SHAPES>)("%s", (shape) => {
  it("compiles with the template's TypeScript 5", () => {
    expect(spawnSync(process.execPath, [TS5, "-v"], { encoding: "utf8" }).stdout).toMatch(
      /^Version 5\./,
    );
    expect(compile(TS5, shape)).toEqual({ code: 0, out: "" });
  });
});

it("compiles in the 2026 template with TypeScript 6", () => {
  expect(compile(TS6, "2026 template (nodenext)")).toEqual({ code: 0, out: "" });
});

it("checks misuses in every compile: the fixture expects an error where an output is misused", () => {
  // tsc fails on an unused `@ts-expect-error`, so each compile above fails if these lines ever
  // compile (an output or the whole package typed `any`, a misspelt output name accepted).
  const fixture = fs.readFileSync(path.join(consumer.dir, "index.ts"), "utf8");
  expect(fixture).toMatch(
    /\/\/ @ts-expect-error[^\n]*\nexport const misused: number = site\.machines;/,
  );
  expect(fixture).toMatch(/\/\/ @ts-expect-error[^\n]*\nexport const misspelt = site\.adminURL;/);
});
