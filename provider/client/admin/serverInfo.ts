import { z } from "zod";
import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { serverRootOf } from "../products";
import { arcgisRequest } from "../request";
import { validateAnswer } from "../response";

/** What `rest/info` says about the server's version. */
export interface ServerInfo {
  /** e.g. 11.3 (a number; some releases answer it as text, which is read as a number). */
  currentVersion: number;
  /** e.g. "11.3.0", when the server reports it. */
  fullVersion?: string;
}

const InfoAnswer = z.looseObject({
  currentVersion: z.union([z.number(), z.string().regex(/^\d+(\.\d+)*$/)]),
  fullVersion: z.string().optional(),
});

/**
 * Reads the server's version (Chef `MissionServerAdminClient#info`; the REST info page documents
 * `currentVersion` and `fullVersion`). No token is needed before a site exists; Video Server's
 * documentation asks for one once it does (give `token` then). Retried on transient failures: a
 * read.
 *
 * @param adminUrl - administrative root; `rest/info` lives under the server root.
 * @param transport - TLS options, timeouts, signal, and an optional admin `token` (sent in the
 *   X-Esri-Authorization header, never in the URL).
 * @returns the version.
 * @example
 * ```ts
 * const { currentVersion } = await serverInfo("https://h:20443/arcgis/admin"); // 11.3
 * ```
 * Maps to: `GET {server_root}/rest/info?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/services-reference/enterprise/info.htm
 * (Video Server: https://developers.arcgis.com/rest/enterprise-administration/video-server/info).
 */
export async function serverInfo(
  adminUrl: string,
  options: TransportOptions & { token?: string | undefined } = {},
): Promise<ServerInfo> {
  const { token, ...transport } = options;
  const url = `${serverRootOf(adminUrl)}/rest/info`;
  const body = await arcgisRequest({
    ...transport,
    url,
    token,
    operation: "serverInfo",
    method: "GET",
    referer: DEFAULT_REFERER,
    retry: {},
  });
  const answer = validateAnswer(InfoAnswer, body, { operation: "serverInfo", url });
  const info: ServerInfo = { currentVersion: versionNumber(answer.currentVersion) };
  if (answer.fullVersion !== undefined) info.fullVersion = answer.fullVersion;
  return info;
}

/** "10.8.1" reads as 10.8 (major.minor), the precision `currentVersion` has. */
function versionNumber(value: number | string): number {
  if (typeof value === "number") return value;
  const [major = "0", minor = "0"] = value.split(".");
  return Number(`${major}.${minor}`);
}
