#!/usr/bin/env node
/**
 * `arcgis-admin-plugin-dir [folder]`: writes the folder that `pulumi plugin install resource
 * arcgis-admin <version> --file <folder>` installs, and prints that command.
 *
 * The CLI copies such a folder into its plugin cache (`$PULUMI_HOME/plugins/
 * resource-arcgis-admin-v<version>/`) and runs `pulumi-resource-arcgis-admin` from its root. The
 * plugin needs this package's compiled code and its dependencies, which a copy of the package's
 * own folder would leave behind (npm installs them next to it, not in it), so the folder holds
 * one launcher that runs the launcher of this installed package by its absolute path: installing
 * the package again elsewhere means installing the plugin again (the command says so).
 */
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
    `  echo "${EXECUTABLE}: the npm package pulumi-arcgis-admin v${version} it runs is no longer at $target. Install the package again, then the plugin: npx arcgis-admin-plugin-dir prints the command." >&2`,
    "  exit 1",
    "fi",
    'exec "$target" "$@"',
    "",
  ].join("\n");
}

/**
 * Writes the plugin folder (a new temporary one when `out` is not given) and returns it with the
 * package's version.
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

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h") || args.length > 1) {
    process.stderr.write(
      "Usage: arcgis-admin-plugin-dir [folder]\n" +
        "Writes the folder `pulumi plugin install resource arcgis-admin <version> --file <folder>`\n" +
        "installs (a new temporary folder when none is given), prints the folder on stdout and\n" +
        "the command on stderr.\n",
    );
    process.exit(args.length > 1 ? 2 : 0);
  }
  const { dir, version } = writePluginDir(args[0]);
  process.stdout.write(`${dir}\n`);
  process.stderr.write(
    `Install the plugin for the Pulumi CLI with:\n  pulumi plugin install resource ${PLUGIN} ${version} --file ${shellQuote(dir)}\n`,
  );
}
