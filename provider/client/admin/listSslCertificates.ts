import { requestError } from "../response";
import type { AdminSession } from "../session";
import { aliasesOf, keystorePath } from "./keystore";

/**
 * Lists the aliases of the certificates in a machine's keystore (self-signed, imported server
 * certificates, roots and intermediates). The list's key differs per product: `certificates` on
 * ArcGIS Server and in Mission and Notebook Server's pages, `sslCertificates` on Video Server (and
 * where DSC's `ArcGIS_Server_TLS` reads Mission and Notebook Server's); either is read. Aliases
 * come back as the server keeps them (lower-case on every product's examples). Retried on
 * transient failures: a read.
 *
 * @param session - an admin session.
 * @param machineName - the machine's name as the site lists it (`listMachines`).
 * @returns the aliases, e.g. `["selfsignedcertificate", "gis.example.com"]`.
 * @example
 * ```ts
 * const aliases = await listSslCertificates(session, "GIS1.EXAMPLE.COM");
 * ```
 * Maps to: `GET {admin_root}/machines/<machineName>/sslcertificates?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/sslcertificates
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-ssl-certificates,
 * Notebook Server: https://developers.arcgis.com/rest/enterprise-administration/notebook/ssl-certificates-notebook-server,
 * Video Server: https://developers.arcgis.com/rest/enterprise-administration/video-server/sslcertificates).
 */
export async function listSslCertificates(
  session: AdminSession,
  machineName: string,
): Promise<string[]> {
  const path = keystorePath(machineName);
  const body = await session.call(
    path,
    {},
    { method: "GET", idempotent: true, operation: "sslcertificates" },
  );
  const aliases = aliasesOf(body);
  if (aliases === undefined) {
    throw requestError(
      { operation: "sslcertificates", url: session.url(path) },
      "BAD_RESPONSE",
      "unexpected answer (neither certificates nor sslCertificates is a list of aliases)",
    );
  }
  return aliases;
}
