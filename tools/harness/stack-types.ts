/** What a {@link RealStack} operation takes and returns (real-stack.ts). */
import type { Diagnostic, ExportedState } from "./engine-events";

export type Op = "preview" | "up" | "refresh" | "destroy" | "export" | "outputs";

export interface ConfigValue {
  value: string;
  secret?: boolean;
}

export interface RunOptions {
  /** Stack config to set first (`pulumi config set`; secrets on stdin), unless already set so. */
  config?: Record<string, ConfigValue>;
  /**
   * The CLI's flags: `--diff`, `--expect-no-changes`, `--refresh`, `--replace <urn>`,
   * `--parallel N`, `--continue-on-error`.
   */
  options?: {
    diff?: boolean;
    expectNoChanges?: boolean;
    refresh?: boolean;
    replace?: string[];
    parallel?: number;
    continueOnError?: boolean;
  };
  /** Send the CLI SIGINT (Ctrl-C) once it has printed this text. */
  abortOnText?: string;
  /**
   * After {@link abortOnText}'s SIGINT, send a second one once the CLI says it is cancelling
   * (Ctrl-C pressed twice: the CLI then ends at once).
   */
  abortTwice?: boolean;
  timeoutMs?: number;
  /** Another engine root than the built engine's (e.g. a `pulumi` that records its commands). */
  engineRoot?: string;
  /** Called with the operation's CLI process id once it has started (e.g. to signal it). */
  onSpawn?: (pid: number) => void;
  /** More environment for the CLI (and so for the program and the providers). */
  env?: NodeJS.ProcessEnv;
}

export interface RunResult {
  ok: boolean;
  /** Everything the CLI printed on stdout (the engine's own display). */
  output: string;
  /** What the CLI printed on stderr. */
  stderr: string;
  error?: string;
  /** The CLI's output lines, each with the time it arrived (ms since the run started). */
  lines: Array<{ ms: number; text: string }>;
  changeSummary?: Record<string, number>;
  /** The messages the engine showed (its event log's diagnostic events). */
  diagnostics?: Diagnostic[];
  outputs?: Record<string, unknown>;
  state?: ExportedState;
  /** From the start of {@link RealStack.run} to its end: config commands and `stack output` too. */
  ms: number;
  /** The operation's own CLI process alone, from its spawn to its exit (0 when it never ran). */
  cliMs: number;
}

/** What one `pulumi` command printed, line by line with their times, and how it ended. */
export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: RunResult["lines"];
}
