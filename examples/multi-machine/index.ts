/**
 * A site of two machines: `Site` creates the site on the first machine (createNewSite), and
 * `SiteMachine` joins the second machine to it (joinSite on the second machine, with the first
 * one's admin URL and the site's administrator). The join waits for the site: the machine's
 * `siteAdminUrl` is the Site's output.
 *
 * `pulumi destroy` unregisters the second machine from the site (the machine keeps running, in
 * no site) and leaves the site itself running (`deleteSiteOnDestroy` is false by default).
 */
import * as pulumi from "@pulumi/pulumi";
import { type ServerType, Site, SiteMachine } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const caCert = config.get("caCert");
const tls = caCert === undefined ? {} : { tls: { caCert } };
const serverType = config.get<ServerType>("serverType");

const site = new Site("site", {
  ...(serverType === undefined ? {} : { serverType }),
  adminUrl: config.require("firstAdminUrl"),
  username: config.require("siteAdminUsername"),
  password: config.requireSecret("siteAdminPassword"),
  ...tls,
});

const second = new SiteMachine("second", {
  ...(serverType === undefined ? {} : { serverType }),
  adminUrl: config.require("secondAdminUrl"),
  siteAdminUrl: site.adminUrl,
  // How the site names the second machine; by default the host of its admin URL.
  ...(config.get("secondMachineName") === undefined
    ? {}
    : { machineName: config.require("secondMachineName") }),
  username: site.username,
  password: site.password,
  ...tls,
});

/** The site's machines once the second one has joined. */
export const siteMachines = second.machines;
/** "joined", or "adopted" when the second machine was in this site already. */
export const secondState = second.state;
