/**
 * `pulumi import` of a LogSettings (through the provider plugin): the id is the server's
 * administrative root (or the resource's own id, `<adminUrl>/logs/settings`). Every field the
 * server reports becomes a declared input with the server's value, so the imported resource
 * changes nothing until the program does; `restoreOnDestroy` is false (destroy leaves them), and
 * nothing is recorded as written by this stack (`writtenSettings` is empty).
 */
import { adminSessionFor, type AdminTarget } from "../common/connection/admin";
import { explained, messageOf } from "../common/messages/failures";
import { type Importer, urlOfId, type Values } from "../common/pulumi/importer";
import { serverTypeOfId } from "../site/import";
import { withoutTrailingSlash } from "../../url";
import { LOG_SETTINGS } from "./definition";
import type { LogSettingsOutputs } from "./generated";
import { readLogSettings } from "./lifecycle";
import { MANAGED_LOG_FIELDS, type ReportedLogSettings } from "./values";

const EXAMPLE = "https://gis.example.com:20443/arcgis/admin";

/** The server's settings, plain scalars only, or an error naming the server. */
async function reported(target: AdminTarget, id: string): Promise<ReportedLogSettings> {
  return explained(
    () => readLogSettings(adminSessionFor(target)),
    (error) =>
      `Cannot import the LogSettings "${id}": the log settings of ${target.adminUrl} cannot be ` +
      `read (${messageOf(error)}).`,
  );
}

/** @internal */
export const importer: Importer = {
  idFormat: "<adminUrl>[/logs/settings][,serverType=<type>]",
  options: ["serverType"],
  fromId(id) {
    return {
      serverType: serverTypeOfId("LogSettings", id.options.serverType) ?? "mission-server",
      adminUrl: urlOfId(
        "LogSettings",
        "adminUrl",
        withoutTrailingSlash(id.main).replace(/\/logs\/settings$/i, ""),
        EXAMPLE,
      ),
    };
  },
  async declared(id, connection) {
    const settings = await reported(connection as unknown as AdminTarget, id.text);
    const declared: Values = { serverType: connection.serverType, adminUrl: connection.adminUrl };
    for (const field of MANAGED_LOG_FIELDS) {
      // ArcGIS Server does not report usage metering; the inputs' rule refuses it there.
      if (field === "usageMeteringEnabled" && connection.serverType === "arcgis-server") continue;
      if (settings[field] !== undefined) declared[field] = settings[field];
    }
    return declared;
  },
  async adopt(id, raw) {
    const inputs = LOG_SETTINGS.parse(raw);
    const now = await reported(inputs, id.text);
    // Imported, so written by no one of this stack: destroy restores nothing of it.
    const outs: LogSettingsOutputs = {
      ...inputs,
      previousSettings: now,
      writtenSettings: {},
      serverLogSettings: now,
    };
    return {
      id: `${withoutTrailingSlash(inputs.adminUrl)}/logs/settings`,
      outs: outs as unknown as Values,
    };
  },
};
