#!/usr/bin/env node
/**
 * `arcgis-admin-plugin-dir`: installs the npm package's provider plugin for the Pulumi CLI (`pulumi
 * plugin install resource arcgis-admin <version> --file <folder>`, with `pulumi` on PATH) from a
 * temporary folder that it removes afterwards; `arcgis-admin-plugin-dir <folder>` only writes that
 * folder, where the caller says, and prints the command.
 *
 * The CLI copies such a folder into its plugin cache (`$PULUMI_HOME/plugins/
 * resource-arcgis-admin-v<version>/`) and runs `pulumi-resource-arcgis-admin` from its root. The
 * plugin needs this package's compiled code and its dependencies, which a copy of the package's
 * own folder would leave behind (npm installs them next to it, not in it), so the folder holds
 * one launcher that runs the launcher of this installed package by its absolute path: installing
 * the package again elsewhere means installing the plugin again (the command says so). The plugin
 * archive (toolchain/plugin-archive.cjs) is the self-contained alternative.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The plugin's name: its executable is `pulumi-resource-<name>`. */
const PLUGIN = "arcgis-admin";
const EXECUTABLE = `pulumi-resource-${PLUGIN}`;

/** This package's folder (dist/provider/plugin/ or provider/plugin/ is three levels down). */
function packageRoot(): string {
  const up = path.join(__dirname, "..", "..");
  return fs.existsSync(path.join(up, "package.json")) ? up : path.join(up, "..");
}

/** Single-quotes a path for sh. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

/** The launcher the plugin folder holds: the installed package's launcher, by absolute path. */
export function pointerLauncher(packageDir: string, version: string): string {
  const target = path.join(packageDir, "bin", EXECUTABLE);
  return [
    "#!/bin/sh",
    `# The arcgis-admin provider plugin v${version}, installed with \`pulumi plugin install\` from a`,
    "# folder that arcgis-admin-plugin-dir wrote: runs the launcher of the npm package",
    "# pulumi-arcgis-admin installed at the path below.",
    `target=${shellQuote(target)}`,
    'if [ ! -x "$target" ]; then',
    `  echo "${EXECUTABLE}: the npm package pulumi-arcgis-admin v${version} it runs is no longer at $target. Install the package again, then the plugin: npx arcgis-admin-plugin-dir (in the folder where npm installed it)." >&2`,
    "  exit 1",
    "fi",
    'exec "$target" "$@"',
    "",
  ].join("\n");
}

/**
 * Writes the plugin folder (a new temporary one when `out` is not given: the caller removes it)
 * and returns it with the package's version.
 */
export function writePluginDir(out?: string): { dir: string; version: string } {
  const root = fs.realpathSync(packageRoot());
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = out ?? fs.mkdtempSync(path.join(os.tmpdir(), `${EXECUTABLE}-`));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, EXECUTABLE), pointerLauncher(root, version), { mode: 0o755 });
  return { dir: path.resolve(dir), version };
}

/** The install command for a folder, as `pulumi` takes it. */
function installArgs(version: string, dir: string): string[] {
  return ["plugin", "install", "resource", PLUGIN, version, "--file", dir];
}

/**
 * Installs the plugin with `pulumi` from PATH, from a temporary folder removed however the
 * install ends; returns the CLI's exit code.
 */
export function installPlugin(): number {
  const { dir, version } = writePluginDir();
  try {
    const args = installArgs(version, dir);
    process.stderr.write(`Running: pulumi ${args.slice(0, -1).join(" ")} <folder>\n`);
    const result = spawnSync("pulumi", args, { stdio: "inherit" });
    if (result.error !== undefined) {
      process.stderr.write(
        `arcgis-admin-plugin-dir: cannot run 'pulumi' (${result.error.message}): install the Pulumi CLI, or put it on PATH.\n`,
      );
      return 1;
    }
    return result.status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h") || args.length > 1) {
    process.stderr.write(
      "Usage: arcgis-admin-plugin-dir [folder]\n" +
        "Without a folder: installs the plugin for the Pulumi CLI (pulumi plugin install resource\n" +
        "arcgis-admin <version> --file <folder>, with `pulumi` on PATH), from a temporary folder\n" +
        "it removes afterwards. With a folder: writes the folder that command installs, prints it\n" +
        "on stdout and the command on stderr.\n",
    );
    process.exit(args.length > 1 ? 2 : 0);
  }
  if (args[0] === undefined) process.exit(installPlugin());
  const { dir, version } = writePluginDir(args[0]);
  process.stdout.write(`${dir}\n`);
  process.stderr.write(
    `Install the plugin for the Pulumi CLI with:\n  pulumi ${installArgs(version, shellQuote(dir)).join(" ")}\n`,
  );
}
