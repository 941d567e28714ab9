import { z } from "zod";
import { validateAnswer } from "../response";
import { type WebAdaptorRegistrar, webAdaptorsCall, webAdaptorsUrl } from "./registrar";

const WebAdaptorAnswer = z.looseObject({
  id: z.string().min(1),
  webAdaptorURL: z.string(),
  machineName: z.string().optional(),
  isAdminEnabled: z.union([z.boolean(), z.string()]).optional(),
});
const WebAdaptorsAnswer = z.looseObject({ webAdaptors: z.array(WebAdaptorAnswer) });

/** One Web Adaptor as a server or portal lists it. */
export interface RegisteredWebAdaptor {
  /** The list's id (the `<id>` of unregister). */
  id: string;
  /** Its URL as it registered it. */
  webAdaptorURL: string;
  /** The machine it runs on, when listed. */
  machineName?: string | undefined;
  /** Whether administrative access through it is enabled (false when not listed). */
  isAdminEnabled: boolean;
}

/**
 * Lists the Web Adaptors registered with a server site or a portal (Chef's `web_adaptors` of
 * `server_admin_client.rb` and `portal_admin_client.rb`, reading `webAdaptors`; the ArcGIS API
 * for Python's `WebAdaptorManager.list`).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/webadaptors.htm
 *
 * @param registrar - an admin session on the site, or a portal session.
 * @returns the registered Web Adaptors.
 * @example
 * ```ts
 * const mine = (await listWebAdaptors(session)).find((w) => sameUrl(w.webAdaptorURL, url));
 * ```
 * Maps to: `GET {admin root | portaladmin}/system/webadaptors?f=json`.
 */
export async function listWebAdaptors(
  registrar: WebAdaptorRegistrar,
): Promise<RegisteredWebAdaptor[]> {
  const raw = await webAdaptorsCall(registrar, "", {
    method: "GET",
    idempotent: true,
    operation: "webadaptors",
  });
  const answer = validateAnswer(WebAdaptorsAnswer, raw, {
    operation: "webadaptors",
    url: webAdaptorsUrl(registrar, ""),
  });
  return answer.webAdaptors.map((w) => ({
    id: w.id,
    webAdaptorURL: w.webAdaptorURL,
    machineName: w.machineName,
    isAdminEnabled: w.isAdminEnabled === true || w.isAdminEnabled === "true",
  }));
}
