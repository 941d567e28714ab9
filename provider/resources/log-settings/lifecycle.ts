/**
 * `LogSettings`: a site's log settings (`logs/settings`, `logs/settings/edit`) kept as declared,
 * as a Pulumi dynamic resource with an in-place update, by the one rule of kept settings
 * (`common/kept/lifecycle.ts`): this file names the settings, the outputs and the calls. The
 * server's edit takes every field at once, as DSC sends it, so each write sends the declared
 * fields with the others as read just before; `previousSettings` records the server's whole set.
 * Its inputs, class and frame derive from `definition.ts`; `pulumi import`: `import.ts`.
 */
import { type AdminSession, editLogSettings, getLogSettings } from "../../client";
import { declaredFields, keptSettings } from "../common/kept/lifecycle";
import { withChange } from "../common/kept/write";
import { LOG_SETTINGS } from "./definition";
import type { LogSettingsInputs } from "./generated";
import { MANAGED_LOG_FIELDS, type ReportedLogSettings } from "./values";

/**
 * The server's log settings, plain scalars only (outputs must be plain JSON).
 *
 * @internal
 */
export async function readLogSettings(session: AdminSession): Promise<ReportedLogSettings> {
  const out: ReportedLogSettings = {};
  for (const [key, value] of Object.entries(await getLogSettings(session))) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The LogSettings implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = keptSettings<LogSettingsInputs>({
  frame: LOG_SETTINGS,
  settings: "log settings",
  setting: "log setting",
  path: "logs/settings",
  update: "logs/settings/edit",
  outputs: {
    previous: "previousSettings",
    written: "writtenSettings",
    server: "serverLogSettings",
  },
  recordsWholeSet: true,
  declared: declaredFields<LogSettingsInputs>(MANAGED_LOG_FIELDS),
  // A field the server no longer reports keeps its declared value.
  asInputs: (settings) => settings,
  serverView: (_declared, reported) => reported,
  read: readLogSettings,
  send: async (session, change, current) => {
    const whole = withChange(current, change);
    await editLogSettings(session, {
      logLevel: whole.logLevel as string | undefined,
      logDir: whole.logDir as string | undefined,
      maxErrorReportsCount: whole.maxErrorReportsCount as number | undefined,
      maxLogFileAge: whole.maxLogFileAge as number | undefined,
      usageMeteringEnabled: whole.usageMeteringEnabled as boolean | undefined,
    });
  },
});
