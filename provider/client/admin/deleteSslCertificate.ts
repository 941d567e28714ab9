import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";
import { keystorePath, unknownAliasError } from "./keystore";

/**
 * Deletes a certificate from a machine's keystore. The certificate the machine's web server is
 * bound to cannot be deleted (bind another one with {@link editMachine} first, as DSC does with a
 * temporary import). An alias the keystore does not hold is an error (code 404) naming it. Not
 * retried: a second call after a lost answer would only find the alias gone.
 *
 * @param session - an admin session.
 * @param machineName - the machine's name as the site lists it.
 * @param alias - the certificate's alias.
 * @example
 * ```ts
 * await deleteSslCertificate(session, "GIS1.EXAMPLE.COM", "gis-2024");
 * ```
 * Maps to: `POST {admin_root}/machines/<machineName>/sslcertificates/<alias>/delete` (DSC's
 * `Invoke-DeleteSSLCertForMachine`).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/deletecertificate
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-ssl-certificates-ssl-cert-delete-cert).
 */
export async function deleteSslCertificate(
  session: AdminSession,
  machineName: string,
  alias: string,
): Promise<void> {
  const path = keystorePath(machineName, alias.toLowerCase(), "delete");
  const operation = "sslcertificates/<alias>/delete";
  let body: Record<string, unknown>;
  try {
    body = await session.call(path, {}, { operation });
  } catch (error) {
    throw await unknownAliasError(session, machineName, alias, error, operation);
  }
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, {
    operation,
    url: session.url(path),
  });
}
