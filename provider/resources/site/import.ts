/**
 * `pulumi import` of a Site (through the provider plugin): the id is the administrative root, the
 * site is read as at adoption (`outputsOf(server, "adopted")`) and nothing is written to it.
 * Destroy never deletes it unless `deleteSiteOnDestroy` is set, as for any Site.
 */
import { SERVER_TYPES, type ServerType, serverProduct, siteStatus } from "../../client";
import { type Importer, urlOfId, type Values } from "../common/pulumi/importer";
import { explained, messageOf } from "../common/messages/failures";
import { outputsOf } from "./report";
import { siteServer } from "./server";
import { endSentence } from "../../sentence";
import { SITE } from "./definition";

const EXAMPLE = "https://gis.example.com:20443/arcgis/admin";

/**
 * The serverType option of an import id (Site, SiteMachine, LogSettings): one of the products;
 * absent, the schema's default.
 *
 * @internal
 */
export function serverTypeOfId(type: string, value: string | undefined): ServerType | undefined {
  if (value === undefined) return undefined;
  if ((SERVER_TYPES as readonly string[]).includes(value)) return value as ServerType;
  throw new Error(
    `Cannot import the ${type}: serverType "${value}" (from the import id) must be one of ` +
      `${SERVER_TYPES.join(", ")}.`,
  );
}

/** @internal */
export const importer: Importer = {
  idFormat: "<adminUrl>[,serverType=<mission-server|arcgis-server|notebook-server|video-server>]",
  options: ["serverType"],
  fromId(id) {
    return {
      serverType: serverTypeOfId("Site", id.options.serverType) ?? "mission-server",
      adminUrl: urlOfId("Site", "adminUrl", id.main, EXAMPLE),
    };
  },
  async adopt(_id, raw: Values) {
    const inputs = SITE.parse(raw);
    const server = siteServer(inputs);
    const status = await siteStatus(inputs.adminUrl, server.transport);
    const cannot = `Cannot import the site at ${inputs.adminUrl}`;
    if (status.state === "unreachable") {
      throw new Error(`${cannot}: ${endSentence(status.error.message)}`);
    }
    if (status.state === "no-site") {
      throw new Error(
        `${cannot}: the machine is in no site (${status.message}). Nothing was recorded; declare ` +
          "the Site in the program to create it.",
      );
    }
    // The admin root's error format tells ArcGIS Server from the others: a site recorded under
    // the wrong product would be refreshed and deleted in the wrong dialect.
    const classic = serverProduct(inputs.serverType).dialect === "classic";
    if (status.errorFormat !== undefined && (status.errorFormat === "status") !== classic) {
      const hint = classic ? "mission-server, notebook-server or video-server" : "arcgis-server";
      throw new Error(
        `${cannot}: serverType is ${inputs.serverType}, but its admin root answers as ` +
          `${classic ? "a Mission, Notebook or Video Server" : "ArcGIS Server"} does. Add ` +
          `,serverType=<${hint}> to the import id.`,
      );
    }
    const outs = await explained(
      () => outputsOf(server, "adopted"),
      (error) =>
        `${cannot}: ${messageOf(error)}. The credentials come from the stack config ` +
        "(arcgis-admin:username, arcgis-admin:password): give an administrator's.",
    );
    return { id: inputs.adminUrl, outs: outs as unknown as Values };
  },
};
