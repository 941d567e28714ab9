/**
 * The portal's keystore of root and intermediate certificates:
 * `portaladmin/security/sslCertificates/<alias>` and its `importRootOrIntermediate`.
 *
 * Evidence:
 * - What clients send and read: Esri/arcgis-cookbook
 *   `cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb` at
 *   6b807249eec03146b913a2ad8661425472d53780 (`add_root_cert`: a multipart POST of `file`,
 *   `alias`, `norestart`, `token`, `f=json` to `<sslCertificates>/importRootOrIntermediate`, an
 *   `error` object read as a failure; `ssl_certificate_exist?`: GET `<sslCertificates>/<alias>`,
 *   present when `entryType` is `PrivateKeyEntry` or `trustedCertEntry`; `ssl_certificates_url`:
 *   `portaladmin/machines/<machine>/sslCertificates`, else `portaladmin/security/sslCertificates`),
 *   and `providers/portal.rb` (`:import_root_cert` imports only an alias that is not there).
 * - What the portal answers: https://developers.arcgis.com/rest/enterprise-administration/portal/import-root-or-intermediate-certificate
 *   (parameters `alias`, `file`, `norestart`; `{"status": "success"}`) and
 *   https://developers.arcgis.com/rest/enterprise-administration/portal/ssl-certificate (the
 *   certificate's fields: aliasName, entryType, issuer, subject, validFrom, validUntil,
 *   validFromEpoch, validUntilEpoch, serialNumber, version, sha1/sha256 fingerprints, ...).
 * Assumptions (docs/emulator.md): only `security/sslCertificates` is served (Chef falls back to it
 * when the per-machine resource does not answer); an unknown alias is code 404 and an alias
 * imported again is code 400, with this project's texts; the file must be one PEM certificate;
 * the portal does not restart (`norestart` is accepted and ignored).
 */
import { X509Certificate } from "node:crypto";
import { json, requirePost, SharingError, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { PortalCertificate } from "../core/state";

/** Handles `portaladmin/security/sslCertificates[/…]`; `segments` start after `sslCertificates`. */
export async function handleCertificates(
  rt: Runtime,
  req: ApiRequest,
  segments: readonly string[],
): Promise<Reply> {
  const [first, ...rest] = segments;
  if (first === undefined) {
    return json({ sslCertificates: rt.store.current.portal.certificates.map((c) => c.alias) });
  }
  if (rest.length > 0) throw notFound(segments.at(-1) ?? "");
  if (first === "importRootOrIntermediate") {
    requirePost(req, "importRootOrIntermediate");
    return importRootOrIntermediate(rt, req);
  }
  const found = rt.store.current.portal.certificates.find(
    (c) => c.alias.toLowerCase() === first.toLowerCase(),
  );
  if (found === undefined) {
    throw new SharingError(404, `Certificate with alias '${first}' does not exist.`);
  }
  return json(details(found));
}

function notFound(name: string): SharingError {
  return new SharingError(404, `Could not find resource or operation '${name}' on the system.`);
}

async function importRootOrIntermediate(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const alias = req.params.get("alias")?.trim() ?? "";
  if (alias === "") throw new SharingError(400, "The parameter 'alias' is required.");
  const file = req.files?.get("file");
  if (file === undefined) {
    throw new SharingError(400, "The parameter 'file' is required: a multipart file part.");
  }
  const pem = file.data.toString("utf8");
  try {
    new X509Certificate(pem);
  } catch {
    throw new SharingError(400, `The file for alias '${alias}' is not a PEM certificate.`);
  }
  await rt.store.update((draft) => {
    const taken = draft.portal.certificates.some(
      (c) => c.alias.toLowerCase() === alias.toLowerCase(),
    );
    if (taken) {
      throw new SharingError(
        400,
        `A certificate with alias '${alias}' is already in the keystore.`,
      );
    }
    draft.portal.certificates.push({ alias, pem });
  });
  rt.stats.certificatesImported++;
  rt.log(`root certificate ${alias} imported`);
  return json({ status: "success" });
}

function details(cert: PortalCertificate): Record<string, unknown> {
  const x509 = new X509Certificate(cert.pem);
  const colonless = (fingerprint: string) => fingerprint.replaceAll(":", "");
  return {
    aliasName: cert.alias,
    entryType: "trustedCertEntry",
    issuer: x509.issuer.replaceAll("\n", ", "),
    subject: x509.subject.replaceAll("\n", ", "),
    validFrom: x509.validFrom,
    validUntil: x509.validTo,
    validFromEpoch: Date.parse(x509.validFrom),
    validUntilEpoch: Date.parse(x509.validTo),
    serialNumber: x509.serialNumber,
    version: "3",
    sha1Fingerprint: colonless(x509.fingerprint),
    sha256Fingerprint: colonless(x509.fingerprint256),
  };
}
