/**
 * The federated server as the portal names it: its URL (the site root by default) and its server
 * function (by product by default).
 */
import type { ServerType } from "../../client";
import { withoutTrailingSlash } from "../../url";
import type { FederationInputs } from "./generated";

/**
 * The server function each product is given by default: Chef's `federation.rb` of
 * arcgis-mission, arcgis-notebooks and arcgis-video (`MissionServer`, `NotebookServer`,
 * `VideoServer`); ArcGIS Server none.
 */
export const DEFAULT_SERVER_FUNCTION: Record<ServerType, string> = {
  "mission-server": "MissionServer",
  "notebook-server": "NotebookServer",
  "video-server": "VideoServer",
  "arcgis-server": "",
};

/**
 * The site root the portal is given as `adminUrl`: the administrative root without `/admin`
 * (Chef sends the server's `private_url`, e.g. `https://host:20443/arcgis`).
 *
 * @internal
 */
export function siteRootOf(adminUrl: string): string {
  return withoutTrailingSlash(adminUrl).replace(/\/admin$/i, "");
}

/**
 * The services URL: the given one, else the site root.
 *
 * @internal
 */
export function serverUrlOf(inputs: FederationInputs): string {
  return withoutTrailingSlash(inputs.serverUrl ?? siteRootOf(inputs.adminUrl));
}

/**
 * The function the server is given: the input, else the product's default.
 *
 * @internal
 */
export function serverFunctionOf(inputs: FederationInputs): string {
  return inputs.serverFunction ?? DEFAULT_SERVER_FUNCTION[inputs.serverType];
}
