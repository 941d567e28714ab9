/**
 * A site of two machines: `Site` creates the site on the first machine (createNewSite), and
 * `SiteMachine` joins the second machine to it (joinSite on the second machine, with the first
 * one's admin URL and the site's administrator). The join waits for the site: the machine's
 * `siteAdminUrl` is the Site's output.
 *
 * The site's connection (the first machine) is the package's stack config (docs/connection.md):
 * `arcgis-admin:adminUrl`, `arcgis-admin:username` and `arcgis-admin:password` (the primary
 * administrator to create), optionally `arcgis-admin:caCert` (one CA for both machines); or the
 * `ARCGIS_ADMIN_*` environment variables. The second machine is this project's own config:
 * `secondMachineAdminUrl`, and optionally `secondMachineName`.
 *
 * `pulumi destroy` unregisters the second machine from the site (the machine keeps running, in
 * no site) and leaves the site itself running (`deleteSiteOnDestroy` is false by default).
 */
import * as pulumi from "@pulumi/pulumi";
import { type ServerConnection, type ServerType, Site, SiteMachine } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const serverType = config.get<ServerType>("serverType");

/**
 * The machine that joins: its own admin root. It has no administrator of its own yet (joinSite
 * signs in with the site's), and its certificate is checked with the site's TLS settings.
 */
const secondMachine = {
  adminUrl: config.require("secondMachineAdminUrl"),
} satisfies ServerConnection;

const site = new Site("site", {
  ...(serverType === undefined ? {} : { serverType }),
});

const second = new SiteMachine("second", {
  ...(serverType === undefined ? {} : { serverType }),
  adminUrl: secondMachine.adminUrl,
  siteAdminUrl: site.adminUrl,
  // How the site names the second machine; by default the host of its admin URL.
  ...(config.get("secondMachineName") === undefined
    ? {}
    : { machineName: config.require("secondMachineName") }),
  username: site.username,
  password: site.password,
});

/** The site's machines once the second one has joined. */
export const siteMachines = second.machines;
/** "joined", or "adopted" when the second machine was in this site already. */
export const secondState = second.state;
