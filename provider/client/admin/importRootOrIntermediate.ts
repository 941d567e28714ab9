import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { isArcGISRequestError } from "../errors";
import { postMultipart } from "../multipart";
import { requestError, validateAnswer } from "../response";
import type { AdminSession } from "../session";
import { keystorePath } from "./keystore";

/** Parameters of {@link importRootOrIntermediate}. */
export interface ImportRootOrIntermediateParams {
  /** The machine's name as the site lists it. */
  machineName: string;
  /** The alias to keep it under; a taken alias is refused by the server, never overwritten. */
  alias: string;
  /** One X.509 certificate: PEM text, or DER bytes (a `.cer` as DSC uploads it). */
  certificate: string | Uint8Array;
}

/**
 * Imports a certificate authority's root or intermediate certificate into a machine's keystore, so
 * that the machine trusts what that CA signed (import it before a server certificate the CA
 * signed). The certificate is checked to be one X.509 certificate before anything is sent. Never
 * retried: an import is sent once; after a lost answer, list the keystore
 * ({@link listSslCertificates}) and compare fingerprints ({@link getSslCertificate}). The server
 * refuses an alias already in the keystore (real servers answer "Importing CA certificate
 * failed."); the error then names the alias.
 *
 * @param session - an admin session.
 * @param params - machine, alias and the certificate.
 * @returns the SHA-256 fingerprint of what was imported (lower-case hex, as the keystore reports it).
 * @example
 * ```ts
 * await importRootOrIntermediate(session, { machineName: "GIS1.EXAMPLE.COM", alias: "orgrootca", certificate: caPem });
 * ```
 * Maps to: `POST {admin_root}/machines/<machineName>/sslcertificates/importRootOrIntermediate`
 * (multipart `rootCACertificate`, `alias`, as Chef's `import_root_ssl_certificate` and DSC's
 * `Import-RootOrIntermediateCertificate` send it).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/importrootcertificate
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-ssl-certificates-importrootorintermediatecert,
 * Notebook Server: https://developers.arcgis.com/rest/enterprise-administration/notebook/import-root-certificate-notebook-server-.htm,
 * Video Server: https://developers.arcgis.com/rest/enterprise-administration/video-server/importrootcertificate).
 */
export async function importRootOrIntermediate(
  session: AdminSession,
  params: ImportRootOrIntermediateParams,
): Promise<{ sha256Fingerprint: string }> {
  const operation = "importRootOrIntermediate";
  const url = session.url(keystorePath(params.machineName, operation));
  const ctx = { operation, url };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(params.certificate);
  } catch {
    throw requestError(
      ctx,
      "BAD_INPUT",
      `the certificate given for the alias '${params.alias}' is not an X.509 certificate (PEM or ` +
        "DER); nothing was sent.",
    );
  }
  const der = typeof params.certificate !== "string";
  let body: Record<string, unknown>;
  try {
    body = await postMultipart(
      session,
      url,
      {
        fields: { alias: params.alias },
        files: {
          rootCACertificate: {
            content: params.certificate,
            fileName: `${params.alias}.cer`,
            type: der ? "application/pkix-cert" : "application/x-x509-ca-cert",
          },
        },
      },
      ctx,
    );
  } catch (error) {
    throw refusedImport(error, params.alias, params.machineName);
  }
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, ctx);
  return { sha256Fingerprint: certificate.fingerprint256.replaceAll(":", "").toLowerCase() };
}

/** A refused import, worded with what to check (the server's own words kept). */
function refusedImport(error: unknown, alias: string, machineName: string): unknown {
  if (!isArcGISRequestError(error) || error.code !== "SERVER") return error;
  return requestError(
    { operation: error.operation, url: error.url },
    "SERVER",
    `${error.messages.join(" ") || "the server refused the import."} Check that the file is one ` +
      `X.509 certificate and that the alias '${alias}' is not already in the keystore of machine ` +
      `'${machineName}' (a certificate is never overwritten: use another alias, or delete the old one).`,
    {
      messages: error.messages,
      cause: error,
      ...(error.serverCode === undefined ? {} : { serverCode: error.serverCode }),
      ...(error.errorFormat === undefined ? {} : { errorFormat: error.errorFormat }),
    },
  );
}
