/**
 * The portal's `portaladmin/system/webadaptors`: the Web Adaptors registered with the portal,
 * `<id>`, `<id>/unregister`, and `register`, which the emulated Web Adaptor's configuration calls
 * (emulator/web-adaptor/web-adaptor.ts).
 *
 * Evidence:
 * - Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb`: `web_adaptors` (POST
 *   `portaladmin/system/webadaptors` with token and f=json, reads `webAdaptors`, line 714) and
 *   `unregister_web_adaptor` (POST `portaladmin/system/webadaptors/<id>/unregister`, line 699;
 *   `validate_response`), called for each one listed by `providers/portal.rb` (line 442).
 * - Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_WebAdaptor/ArcGIS_WebAdaptor.psm1` `Unregister-WebAdaptor`
 *   (GET `…/portaladmin/system/webadaptors` with token, matches `webAdaptorURL`, then POSTs
 *   `<id>/unregister`).
 * - The ArcGIS API for Python 2.4.4, `arcgis/gis/admin/_system.py`: `WebAdaptors.list` (reads
 *   `webAdaptors[].id`), `WebAdaptor.unregister` (POST f=json).
 * - https://developers.arcgis.com/rest/enterprise-administration/portal/web-adaptors.htm and
 *   `…/portal/web-adaptor.htm` (each entry: `machineName`, `machineIP`, `webAdaptorURL`, `id`,
 *   `description`, `httpPort`, `httpsPort`, `refreshServerListInterval`,
 *   `reconnectServerOnFailureInterval`).
 * Assumptions (docs/emulator.md, "Web Adaptor"): the portal's `register` (no page documents it:
 * the Web Adaptor's configure tool registers itself) takes the server's `register` parameters;
 * both intervals are 1, as the page's example shows; the refusals' texts.
 */
import { json, SharingError, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { WebAdaptorRecord } from "../core/state";
import { webAdaptorEntry, withWebAdaptor } from "../admin/web-adaptors";

/** An entry as the portal's pages show it (no `isAdminEnabled`: a portal has no admin switch). */
function describe(entry: WebAdaptorRecord): Record<string, unknown> {
  const { isAdminEnabled: _unused, ...shown } = entry;
  return { ...shown, refreshServerListInterval: 1, reconnectServerOnFailureInterval: 1 };
}

function notFound(id: string): SharingError {
  return new SharingError(404, `Web Adaptor '${id}' is not registered with this portal.`);
}

function requirePost(req: ApiRequest, op: string): void {
  if (req.method !== "POST") {
    throw new SharingError(405, `Method not supported. ${op} accepts POST only.`);
  }
}

/** Handles `portaladmin/system/webadaptors/…` (`rest`: what follows); an administrator asks. */
export async function handlePortalWebAdaptors(
  rt: Runtime,
  req: ApiRequest,
  rest: readonly string[],
): Promise<Reply> {
  const [first, second] = rest;
  const list = rt.store.current.portal.webAdaptors;
  if (first === undefined) return json({ webAdaptors: list.map(describe) });
  if (first === "register" && second === undefined) {
    requirePost(req, "register");
    const entry = webAdaptorEntry(req);
    await rt.store.update((draft) => {
      draft.portal.webAdaptors = withWebAdaptor(draft.portal.webAdaptors, entry);
    });
    rt.log(`web adaptor registered with the portal`);
    return json({ status: "success" });
  }
  if (second === undefined) {
    const found = list.find((w) => w.id === first);
    if (found === undefined) throw notFound(first);
    return json(describe(found));
  }
  if (second === "unregister" && rest.length === 2) {
    requirePost(req, "unregister");
    await rt.store.update((draft) => {
      if (!draft.portal.webAdaptors.some((w) => w.id === first)) throw notFound(first);
      draft.portal.webAdaptors = draft.portal.webAdaptors.filter((w) => w.id !== first);
    });
    return json({ status: "success" });
  }
  throw new SharingError(
    404,
    `Could not find resource or operation '${rest.at(-1)}' on the system.`,
  );
}
