/**
 * `arcgis-admin-plugin-dir` without a folder (provider/plugin/plugin-dir.ts): installs the npm
 * package's plugin with the real `pulumi` CLI from PATH, and leaves nothing in the temporary
 * folder; the installed plugin answers with the package's schema.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { engine } from "../../tools/harness/real-stack";
import { run } from "../../tools/harness/process";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

jest.setTimeout(180_000);

let tmp: string;
beforeAll(() => {
  tmp = runTempDir("plugin-dir-");
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

it("installs the plugin with `pulumi plugin install` from a temporary folder it removes", async () => {
  const { bin } = await engine();
  const home = path.join(tmp, "pulumi-home");
  const temp = path.join(tmp, "temp");
  fs.mkdirSync(temp);
  const env = {
    ...process.env,
    PATH: [path.dirname(bin), path.dirname(process.execPath), process.env.PATH].join(
      path.delimiter,
    ),
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    TMPDIR: temp,
  };
  const installed = await run(
    process.execPath,
    [path.join(REPO_ROOT, "dist", "provider", "plugin", "plugin-dir.js")],
    { cwd: tmp, env, timeoutMs: 120_000 },
  );
  expect(installed.stderr).toContain("pulumi plugin install resource arcgis-admin");
  expect(installed.code).toBe(0);
  expect(fs.readdirSync(temp)).toEqual([]);
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  expect(fs.existsSync(path.join(home, "plugins", `resource-arcgis-admin-v${version}`))).toBe(true);
  const schema = await run(bin, ["package", "get-schema", "arcgis-admin"], {
    cwd: tmp,
    env,
    timeoutMs: 60_000,
  });
  expect(schema.code).toBe(0);
  expect(JSON.parse(schema.stdout)).toMatchObject({ name: "arcgis-admin", version });
});
