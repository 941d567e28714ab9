// @ts-check
"use strict";
/**
 * Pulumi YAML's language host `pulumi-language-yaml`, built in its own Go module (pkg/v3 at the
 * version pulumi-yaml requires: v3.206.0 for v1.25.0; built with the engine's newer pkg/v3 it does
 * not compile), into `<engine cache>/pulumi-language-yaml/v<version>/bin/`. It runs under the
 * engine all the same (the language host protocol is stable).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, buildOnce, isExecutable } = require("../cache.cjs");
const go = require("../go.cjs");
const { OR_INSTALL_PULUMI, cacheRoot } = require("../engine/versions.cjs");

/** Its Go module, the version built, and the package of the binary. */
const LANGUAGE_YAML = {
  module: "github.com/pulumi/pulumi-yaml",
  version: "1.25.0",
  pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  binary: "pulumi-language-yaml",
};

/** The folder of its builds: `<engine cache>/pulumi-language-yaml`. */
function languageYamlRoot(env = process.env) {
  return path.join(cacheRoot(env), LANGUAGE_YAML.binary);
}

/**
 * The cached host, or undefined.
 *
 * @returns {{root: string, version: string, bin: string} | undefined}
 */
function cachedLanguageYaml(env = process.env) {
  const root = path.join(languageYamlRoot(env), `v${LANGUAGE_YAML.version}`);
  const bin = path.join(root, "bin", LANGUAGE_YAML.binary);
  return isExecutable(bin) ? { root, version: LANGUAGE_YAML.version, bin } : undefined;
}

/**
 * The host, cached or freshly built (its own lock, so that it builds while nobody waits on the
 * engine's). Throws a ToolchainError with a message for people when Go is missing or the build
 * fails.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<{root: string, version: string, bin: string, built: boolean}>}
 */
async function ensureLanguageYaml({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const { module, version, pkg, binary } = LANGUAGE_YAML;
  const what = `Pulumi YAML's language host v${version}`;
  const root = languageYamlRoot(env);
  const { value, built } = await buildOnce({
    root,
    key: `v${version}`,
    find: () => cachedLanguageYaml(env),
    log,
    what: `building ${what}`,
    prepare: () => go.requireGo({ what, minimum: [1, 25], otherwise: OR_INSTALL_PULUMI, env }),
    build: async (out, work, goBin) => {
      log(`Building ${what} (${pkg}) with ${goBin} into ${root} (once).`);
      fs.writeFileSync(
        path.join(work, "go.mod"),
        `module pulumi-arcgis-admin.local/language-yaml\n\ngo 1.25\n\nrequire ${module} v${version}\n`,
      );
      const steps = { cwd: work, work, env: go.goEnv(env, "mod"), log };
      await go.goGet(goBin, `${pkg}@v${version}`, `${what}`, { ...steps, step: "[1/3]" });
      const bin = path.join(out, "bin");
      fs.mkdirSync(bin, { recursive: true });
      await go.goCompile(goBin, pkg, path.join(bin, binary), {
        ...steps,
        step: "[2/3]",
        what: `${binary} v${version}`,
        ldflags: `-s -w -X ${module}/pkg/version.Version=v${version}`,
      });
      log(`[3/3] Checking that ${binary} starts...`);
      const check = spawnSync(path.join(bin, binary), ["-help"], {
        encoding: "utf8",
        timeout: 30_000,
      });
      if (check.status !== 0 || !(check.stderr ?? "").includes("Usage of")) {
        throw new ToolchainError(
          `The built ${binary} does not start: ${check.error?.message ?? ""}${check.stdout}${check.stderr}`,
        );
      }
      go.writeBuildRecord(out, goBin, { version });
    },
  });
  if (built) log(`${what} ready: ${value.bin}`);
  return { ...value, built };
}

module.exports = { LANGUAGE_YAML, cachedLanguageYaml, ensureLanguageYaml };
