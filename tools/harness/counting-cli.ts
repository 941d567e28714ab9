/**
 * A `pulumi` that writes each command it runs (its first two words) into a log, then runs the
 * real CLI: put its folder first on PATH to count the CLI processes a script starts. Used by the
 * npm start tests and by the benchmark's npm start figure.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** A counting `pulumi` in a folder of its own. */
export interface CountingCli {
  /** The folder that holds it: put it first on PATH. */
  bin: string;
  /** The commands run since the last call (`up --yes`, `config set-all`, ...); clears the log. */
  commands(): string[];
}

/**
 * Writes the counting `pulumi` into `dir` (once: the same file on later calls, since npm start
 * remembers a CLI's version per file) in front of the CLI at `target`.
 */
export function countingCli(dir: string, target: string): CountingCli {
  const bin = path.join(dir, "counting-cli");
  const log = path.join(dir, "cli-calls.log");
  const script = path.join(bin, "pulumi");
  if (!fs.existsSync(script)) {
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(script, `#!/bin/sh\necho "$1 $2" >> '${log}'\nexec '${target}' "$@"\n`, {
      mode: 0o755,
    });
  }
  return {
    bin,
    commands: () => {
      const lines = fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n") : [];
      fs.rmSync(log, { force: true });
      return lines.map((line) => line.trim());
    },
  };
}
