import { z } from "zod";
import { isNotFoundError } from "../errors";
import { postMultipart } from "../multipart";
import { validateAnswer } from "../response";
import type { PortalSession } from "../session";

const CertificateAnswer = z.looseObject({
  aliasName: z.string().optional(),
  entryType: z.string().optional(),
  sha256Fingerprint: z.string().optional(),
});

/** A certificate in the portal's keystore, as the portal reports it. */
export interface PortalCertificate {
  /** The alias it is stored under. */
  alias: string;
  /** `trustedCertEntry` (a root or intermediate certificate) or `PrivateKeyEntry`. */
  entryType?: string | undefined;
  /** Its SHA-256 fingerprint, as the portal writes it (hex, with or without colons). */
  sha256Fingerprint?: string | undefined;
}

/** The keystore's path under the portal's administrative root (Chef's fallback, Esri's page). */
const KEYSTORE = "security/sslCertificates";

/**
 * Reads the certificate the portal keeps under `alias`, or undefined when it has none (Chef's
 * `ssl_certificate_exist?`, the guard before its import).
 *
 * @param session - a portal session with administrator rights.
 * @param alias - the certificate's alias.
 * @returns the certificate, or undefined.
 * @example
 * ```ts
 * if ((await portalCertificate(portal, "serverca")) === undefined) { ... }
 * ```
 * Maps to: `GET {portaladmin}/security/sslCertificates/<alias>?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/ssl-certificate
 */
export async function portalCertificate(
  session: PortalSession,
  alias: string,
): Promise<PortalCertificate | undefined> {
  const path = `${KEYSTORE}/${encodeURIComponent(alias)}`;
  let raw: Record<string, unknown>;
  try {
    raw = await session.adminCall(path, {}, { method: "GET", idempotent: true });
  } catch (error) {
    if (isNotFoundError(error)) return undefined;
    throw error;
  }
  const answer = validateAnswer(CertificateAnswer, raw, {
    operation: "sslCertificates",
    url: `${session.portalAdminUrl}/${path}`,
  });
  return {
    alias: answer.aliasName ?? alias,
    entryType: answer.entryType,
    sha256Fingerprint: answer.sha256Fingerprint,
  };
}

/**
 * Imports a root or intermediate certificate (PEM) into the portal's keystore under `alias`, so
 * that the portal trusts the servers whose certificates it signed. Never retried: an alias is
 * imported once (see {@link portalCertificate}). The portal restarts afterwards unless
 * `restart` is false (Esri's default restarts; Chef sends `norestart=false` and waits for it).
 *
 * @param session - a portal session with administrator rights.
 * @param options - `alias`, `pem` (the certificate), `restart` (default true).
 * @example
 * ```ts
 * await importRootCertificate(portal, { alias: "serverca", pem });
 * ```
 * Maps to: `POST {portaladmin}/security/sslCertificates/importRootOrIntermediate` (multipart
 * `file`, `alias`, `norestart`).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/import-root-or-intermediate-certificate
 */
export async function importRootCertificate(
  session: PortalSession,
  options: { alias: string; pem: string; restart?: boolean },
): Promise<void> {
  const url = `${session.portalAdminUrl}/${KEYSTORE}/importRootOrIntermediate`;
  const ctx = { operation: "importRootOrIntermediate", url, secrets: session.secrets() };
  const body = await postMultipart(
    session,
    url,
    {
      fields: { alias: options.alias, norestart: options.restart === false ? "true" : "false" },
      files: {
        file: {
          content: options.pem,
          fileName: `${options.alias}.cer`,
          type: "application/x-x509-ca-cert",
        },
      },
    },
    ctx,
  );
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, ctx);
}
