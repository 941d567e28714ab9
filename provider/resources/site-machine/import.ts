/**
 * `pulumi import` of a SiteMachine (through the provider plugin): the id is the machine's
 * administrative root; the site is the default server (`arcgis-admin:adminUrl`) unless the id
 * names it (`siteAdminUrl=`). Recorded as adopted: destroy leaves the machine in the site unless
 * `unregisterAdoptedOnDestroy` is set.
 */
import { type Importer, urlOfId, type Values } from "../common/pulumi/importer";
import { serverTypeOfId } from "../site/import";
import { adoptListed } from "./lifecycle";
import { SITE_MACHINE } from "./definition";

const EXAMPLE = "https://gis2.example.com:20443/arcgis/admin";

/** @internal */
export const importer: Importer = {
  idFormat:
    "<adminUrl of the machine>[,siteAdminUrl=<adminUrl of a machine of the site>]" +
    "[,machineName=<name>][,serverType=<type>]",
  options: ["siteAdminUrl", "machineName", "serverType"],
  fromId(id) {
    const values: Values = {
      serverType: serverTypeOfId("SiteMachine", id.options.serverType) ?? "mission-server",
      adminUrl: urlOfId("SiteMachine", "adminUrl", id.main, EXAMPLE),
    };
    const { siteAdminUrl, machineName } = id.options;
    if (siteAdminUrl !== undefined) {
      values.siteAdminUrl = urlOfId("SiteMachine", "siteAdminUrl", siteAdminUrl, EXAMPLE);
    }
    if (machineName !== undefined) values.machineName = machineName;
    return values;
  },
  async adopt(_id, raw) {
    const { id, outs } = await adoptListed(SITE_MACHINE.parse(raw));
    return { id, outs: outs as unknown as Values };
  },
};
