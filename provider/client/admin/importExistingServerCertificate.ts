import type * as Forge from "node-forge";
import { z } from "zod";
import { isArcGISRequestError } from "../errors";
import { postMultipart } from "../multipart";
import { requestError, validateAnswer } from "../response";
import type { AdminSession } from "../session";
import { keystorePath } from "./keystore";

/** Parameters of {@link importExistingServerCertificate}. */
export interface ImportExistingServerCertificateParams {
  /** The machine's name as the site lists it. */
  machineName: string;
  /** The alias to keep it under; a taken alias is refused by the server, never overwritten. */
  alias: string;
  /** The PKCS #12 file (`.pfx`, `.p12`): the server certificate, its private key, optionally its chain. A secret. */
  pkcs12: Uint8Array;
  /** The password that opens it; a secret: sent only in the request body, redacted from every error. */
  certPassword: string;
  /**
   * Also import the roots and intermediates the file holds (`importCertificateChain`, ArcGIS
   * Server 11.3 and later, as DSC sends it there); left out when not given.
   */
  importCertificateChain?: boolean | undefined;
}

/**
 * Imports a server certificate with its private key from a PKCS #12 file into a machine's
 * keystore; {@link editMachine} with `webServerCertificateAlias` then makes the machine's web server
 * present it. Before anything is sent, the file is opened with `certPassword` where it can be read
 * here (node-forge, the legacy and the OpenSSL 3 encryptions): a password that does not open it is
 * refused at once (`BAD_INPUT`, naming `certPassword`). A server's refusal (real servers answer
 * "Importing CA certificate failed.") names what to check. The password appears in no URL, log or
 * error. Never retried: an import is sent once; after a lost answer, list the keystore
 * ({@link listSslCertificates}).
 *
 * @param session - an admin session.
 * @param params - machine, alias, the file, its password, `importCertificateChain`.
 * @example
 * ```ts
 * await importExistingServerCertificate(session, { machineName: "GIS1.EXAMPLE.COM", alias: "gis-2025", pkcs12: await readFile("gis.pfx"), certPassword });
 * ```
 * Maps to: `POST {admin_root}/machines/<machineName>/sslcertificates/importExistingServerCertificate`
 * (multipart `certFile` as application/x-pkcs12, `certPassword`, `alias`, as Chef's
 * `import_server_ssl_certificate` and DSC's `Import-ExistingCertificate` send it).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/importexistingservercertificate
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-ssl-certificates-importexistingservercert,
 * Notebook Server: https://developers.arcgis.com/rest/enterprise-administration/notebook/import-existing-server-certificate-notebook-server,
 * Video Server: https://developers.arcgis.com/rest/enterprise-administration/video-server/importexistingservercertificate).
 */
export async function importExistingServerCertificate(
  session: AdminSession,
  params: ImportExistingServerCertificateParams,
): Promise<void> {
  const operation = "importExistingServerCertificate";
  const url = session.url(keystorePath(params.machineName, operation));
  const ctx = { operation, url, secrets: [params.certPassword] };
  if (pkcs12PasswordFits(params.pkcs12, params.certPassword) === "wrong-password") {
    throw requestError(
      ctx,
      "BAD_INPUT",
      `certPassword does not open the PKCS #12 file given for the alias '${params.alias}' ` +
        "(its integrity check fails with that password); nothing was sent. Give the password " +
        "the file was exported with.",
    );
  }
  let body: Record<string, unknown>;
  try {
    body = await postMultipart(
      session,
      url,
      {
        fields: {
          alias: params.alias,
          certPassword: params.certPassword,
          importCertificateChain:
            params.importCertificateChain === undefined
              ? undefined
              : String(params.importCertificateChain),
        },
        files: {
          certFile: {
            content: params.pkcs12,
            fileName: `${params.alias}.pfx`,
            type: "application/x-pkcs12",
          },
        },
      },
      ctx,
    );
  } catch (error) {
    throw refusedImport(error, params);
  }
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, ctx);
}

/**
 * Whether a password opens a PKCS #12 file, as far as can be told here: `wrong-password` only
 * when the file's integrity check (its MAC) or a bag's decryption fails with it; `unknown` for
 * anything else (a file this reader cannot parse goes to the server, which decides).
 */
function pkcs12PasswordFits(
  file: Uint8Array,
  password: string,
): "fits" | "wrong-password" | "unknown" {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: the package entry never loads node-forge
  const forge = require("node-forge") as typeof Forge;
  let asn1: Forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(Buffer.from(file).toString("binary"));
  } catch {
    return "unknown";
  }
  try {
    forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
    return "fits";
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /MAC could not be verified|Invalid password|wrong password/i.test(message)
      ? "wrong-password"
      : "unknown";
  }
}

/** A refused import, worded with what to check; the server's words kept, the password redacted. */
function refusedImport(error: unknown, params: ImportExistingServerCertificateParams): unknown {
  if (!isArcGISRequestError(error) || error.code !== "SERVER") return error;
  return requestError(
    { operation: error.operation, url: error.url, secrets: [params.certPassword] },
    "SERVER",
    `${error.messages.join(" ") || "the server refused the import."} Check that the file is a ` +
      "PKCS #12 file holding the server certificate with its private key, that certPassword " +
      `opens it, and that the alias '${params.alias}' is not already in the keystore of machine ` +
      `'${params.machineName}' (a certificate is never overwritten: use another alias).`,
    {
      messages: error.messages,
      cause: error,
      ...(error.serverCode === undefined ? {} : { serverCode: error.serverCode }),
      ...(error.errorFormat === undefined ? {} : { errorFormat: error.errorFormat }),
    },
  );
}
