/**
 * A Mission Server site, then its federation with the portal (role FEDERATED_SERVER, function
 * MissionServer), as Esri's Chef cookbook arcgis-mission does in its federation recipe.
 *
 * Both connections come from stack config in the `arcgis-admin` namespace (docs/connection.md):
 *
 * - the server: `arcgis-admin:adminUrl`, `arcgis-admin:username`, `arcgis-admin:password`
 *   (secret), `arcgis-admin:caCert` (optional);
 * - the portal: `arcgis-admin:sharingUrl`, `arcgis-admin:portalUsername`,
 *   `arcgis-admin:portalPassword` (secret);
 * - and, of this project, `serverUrl` (optional): the services URL users reach (a Web Adaptor's),
 *   default the site root.
 *
 * `pulumi destroy` unfederates the server and leaves the site running.
 */
import * as pulumi from "@pulumi/pulumi";
import { Federation, Site } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const serverUrl = config.get("serverUrl");

/** Creates the site on a machine in no site (URL, credentials and CA from arcgis-admin:*). */
const site = new Site("mission", {});

/** Federates the site's server; its primary administrator is the site's. */
const federation = new Federation("mission-federation", {
  serverType: site.serverType,
  adminUrl: site.adminUrl,
  serverUsername: site.username,
  serverPassword: site.password,
  ...(serverUrl === undefined ? {} : { serverUrl }),
});

export const serverId = federation.serverId;
export const federationState = federation.state;
