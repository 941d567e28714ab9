/**
 * What the engine's event log (`pulumi … --event-log <file>`) says of an operation: its change
 * summary, the messages it showed and the stack's outputs; and the resources of an exported state.
 */
import * as fs from "node:fs";
import { SECRET_SIG, SIG_KEY } from "./property-values";

/**
 * A value of the engine's event log as `pulumi stack output --json` shows it: the log keeps a
 * secret's envelope (its value masked), the command shows the string `[secret]`.
 */
export function secretsMasked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(secretsMasked);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  if (object[SIG_KEY] === SECRET_SIG) return "[secret]";
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, secretsMasked(v)]));
}

/** One message the engine showed (a diagnostic event of its event log). */
export interface Diagnostic {
  /** The resource it is filed under; "" for none (the display shows it under the stack). */
  urn: string;
  severity: string;
  message: string;
}

/**
 * The info and warning messages of an operation by the resource they are filed under (the URN's
 * type and name, e.g. `arcgis-admin:index:Site::site`; "" for the stack), in the order shown.
 */
export function messagesByResource(diagnostics: Diagnostic[]): Record<string, string[]> {
  const byResource: Record<string, string[]> = {};
  for (const d of diagnostics) {
    if (d.severity !== "info" && d.severity !== "warning") continue;
    const key = d.urn.split("::").slice(2).join("::");
    (byResource[key] ??= []).push(d.message);
  }
  return byResource;
}

/** The lines of the engine's event log (`--event-log`) read here. */
interface EngineEvent {
  summaryEvent?: { resourceChanges?: Record<string, number> };
  diagnosticEvent?: { urn?: string; severity?: string; message?: string; ephemeral?: boolean };
  resOutputsEvent?: {
    metadata?: { type?: string; new?: { outputs?: Record<string, unknown> } | null };
  };
}

/**
 * What the engine's event log (`--event-log <file>`) says of an operation, then removes it: the
 * change summary (undefined when the CLI failed before the engine ran), the messages shown, and
 * the stack's outputs as `pulumi stack output --json` shows them (secrets as `[secret]`), which
 * saves a CLI run after each `up`.
 */
export function engineEventsOf(events: string): {
  changeSummary: Record<string, number> | undefined;
  diagnostics: Diagnostic[];
  stackOutputs: Record<string, unknown> | undefined;
} {
  let changeSummary: Record<string, number> | undefined;
  let stackOutputs: Record<string, unknown> | undefined;
  const diagnostics: Diagnostic[] = [];
  try {
    for (const line of fs.readFileSync(events, "utf8").split("\n")) {
      const event = line.trim() === "" ? undefined : (JSON.parse(line) as EngineEvent);
      if (event?.summaryEvent) changeSummary = event.summaryEvent.resourceChanges ?? {};
      const outputs = event?.resOutputsEvent?.metadata;
      if (outputs?.type === "pulumi:pulumi:Stack" && outputs.new != null) {
        stackOutputs = outputs.new.outputs ?? {};
      }
      const diag = event?.diagnosticEvent;
      if (diag !== undefined && diag.ephemeral !== true) {
        diagnostics.push({
          urn: diag.urn ?? "",
          severity: diag.severity ?? "",
          message: (diag.message ?? "").trim(),
        });
      }
    }
  } catch {
    // No event log.
  } finally {
    fs.rmSync(events, { force: true });
  }
  return { changeSummary, diagnostics, stackOutputs };
}

/** A stack's state as `pulumi stack export` prints it. */
export interface ExportedState {
  deployment: { resources?: Array<Record<string, unknown>> } & Record<string, unknown>;
}

/** The resources of an exported state, by type token suffix and name. */
export function stateResources(
  state: ExportedState | undefined,
): Array<{ urn: string; type: string; id?: string; outputs?: Record<string, unknown> }> {
  return (state?.deployment.resources ?? []) as Array<{
    urn: string;
    type: string;
    id?: string;
    outputs?: Record<string, unknown>;
  }>;
}
