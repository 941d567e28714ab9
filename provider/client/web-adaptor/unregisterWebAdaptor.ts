import { type WebAdaptorRegistrar, webAdaptorsCall } from "./registrar";

/**
 * Unregisters a Web Adaptor from a server site or a portal: it can no longer send requests to it
 * (Chef's `unregister_web_adaptor`, `server_admin_client.rb:1175`, `portal_admin_client.rb:699`;
 * the ArcGIS API for Python's `WebAdaptor.unregister`). Never retried by the client.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/unregisterwebadaptor.htm
 *
 * @param registrar - an admin session on the site, or a portal session.
 * @param id - the Web Adaptor's id in the list.
 * @example
 * ```ts
 * await unregisterWebAdaptor(session, "3f2a...");
 * ```
 * Maps to: `POST {admin root | portaladmin}/system/webadaptors/<id>/unregister`.
 */
export async function unregisterWebAdaptor(
  registrar: WebAdaptorRegistrar,
  id: string,
): Promise<void> {
  await webAdaptorsCall(registrar, `${encodeURIComponent(id)}/unregister`, {
    method: "POST",
    operation: "unregister web adaptor",
  });
}
