import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { serverProduct, type ServerType } from "../products";
import { arcgisRequest } from "../request";
import { withoutTrailingSlash } from "../../url";

/** Parameters of {@link joinSite}. */
export interface JoinSiteParams {
  /** The product; decides the wire form. Default `mission-server`. */
  serverType?: ServerType | undefined;
  /** Administrative root of a machine of the site to join (joinSite's `adminURL`). */
  siteAdminUrl: string;
  /** An administrator of that site. */
  username: string;
  /** Its password; a secret. */
  password: string;
}

/** What joinSite answered. */
export interface JoinSiteAnswer {
  /** `success` (a failure is thrown as an error). */
  status: string;
  /** Seconds after which to look at the machine again, when the server says (`pollAfter`). */
  pollAfterSeconds?: number;
}

/**
 * The form of joinSite, as Esri's tools send it: `adminURL`, `username`, `password` on every
 * product (Chef `join_site` of arcgis-mission, arcgis-notebooks, arcgis-video; DSC `Join-Site`),
 * plus `pullLicense=false` on ArcGIS Server (Chef `arcgis-enterprise` and Ansible
 * `server_admin_client.py` send it). The password is among the values: never log the result.
 *
 * @param params - product, site admin URL, credentials.
 * @returns the form parameters.
 * @example
 * ```ts
 * joinSiteForm({ serverType: "arcgis-server", siteAdminUrl, username, password }).pullLicense // false
 * ```
 * Maps to: `POST {machine admin root}/joinSite`.
 *
 * @internal
 */
export function joinSiteForm(params: JoinSiteParams): Record<string, unknown> {
  const classic = serverProduct(params.serverType ?? "mission-server").dialect === "classic";
  return {
    adminURL: params.siteAdminUrl,
    username: params.username,
    password: params.password,
    ...(classic ? { pullLicense: false } : {}),
  };
}

/**
 * Joins the machine behind `adminUrl` (in no site) to the site of the machine behind
 * `params.siteAdminUrl`. No token: a machine in no site has no administrator yet, and Esri's
 * tools send none. Never retried: a lost answer must be followed by watching the machine
 * ({@link waitForJoin}), not by a second joinSite.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/joinsite
 *
 * @param adminUrl - administrative root of the joining machine.
 * @param params - product, site admin URL, credentials.
 * @param transport - TLS options, timeouts, signal.
 * @returns `status` and, when the server gives it, `pollAfterSeconds`.
 * @example
 * ```ts
 * const { pollAfterSeconds } = await joinSite("https://b:20443/arcgis/admin", { siteAdminUrl: "https://a:20443/arcgis/admin", username, password });
 * ```
 * Maps to: `POST {machine admin root}/joinSite`.
 */
export async function joinSite(
  adminUrl: string,
  params: JoinSiteParams,
  transport: TransportOptions = {},
): Promise<JoinSiteAnswer> {
  const body = await arcgisRequest({
    ...transport,
    url: `${withoutTrailingSlash(adminUrl)}/joinSite`,
    operation: "joinSite",
    params: joinSiteForm(params),
    referer: DEFAULT_REFERER,
    secrets: [params.password],
    retry: false,
  });
  const answer: JoinSiteAnswer = {
    status: typeof body["status"] === "string" ? body["status"] : "success",
  };
  const pollAfter = Number(body["pollAfter"]);
  if (body["pollAfter"] !== undefined && Number.isFinite(pollAfter) && pollAfter >= 0) {
    answer.pollAfterSeconds = pollAfter;
  }
  return answer;
}
