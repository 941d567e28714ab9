/**
 * Before federating: the portal must trust the server's certificate. When the program gives the
 * root or intermediate certificate that signed it, it is imported into the portal's keystore,
 * once, as Chef's `:import_root_cert` does (Esri/arcgis-cookbook
 * `cookbooks/arcgis-enterprise/providers/portal.rb` at 6b807249: import only when
 * `ssl_certificate_exist?` says the alias is not there, then wait for the portal's restart).
 */
import { X509Certificate } from "node:crypto";
import {
  importRootCertificate,
  portalCertificate,
  portalSelf,
  type PortalSession,
} from "../../client";
import { failureMessage } from "../common/messages/failures";
import { logInfo } from "../common/messages/log";
import type { FederationInputs, FederationServerCertificate } from "./generated";

/** How often the portal is asked whether it answers again after its restart. */
const RESTART_POLL_MS = 2_000;

/** A fingerprint as hex without separators, upper case (portals write it either way). */
function plainFingerprint(fingerprint: string): string {
  return fingerprint.replace(/[^0-9a-f]/gi, "").toUpperCase();
}

/**
 * Makes the portal trust `serverCertificate`: nothing when the portal keeps the same certificate
 * under its alias; an import (once) when the alias is not there; an error when the alias holds
 * another certificate (never overwritten: the portal may use it for something else).
 *
 * @returns whether a certificate was imported.
 */
export async function trustServerCertificate(
  inputs: FederationInputs,
  session: PortalSession,
): Promise<boolean> {
  const certificate = inputs.serverCertificate;
  if (certificate === undefined) return false;
  const { alias } = certificate;
  const wanted = plainFingerprint(new X509Certificate(certificate.pem).fingerprint256);
  const present = await portalCertificate(session, alias);
  if (present !== undefined) {
    const have = present.sha256Fingerprint;
    if (have === undefined || plainFingerprint(have) === wanted) {
      logInfo(
        `The portal ${inputs.sharingUrl} trusts certificate ${alias} already; not imported again.`,
      );
      return false;
    }
    throw new Error(
      `The portal ${inputs.sharingUrl} keeps another certificate under the alias ${alias} ` +
        `(SHA-256 ${have}, not ${wanted}). It is not replaced: give serverCertificate.alias ` +
        "another name, or remove that certificate on the portal if it is no longer used.",
    );
  }
  try {
    await importRootCertificate(session, { alias, pem: certificate.pem });
  } catch (error) {
    throw new Error(
      `${failureMessage("importRootOrIntermediate", inputs.sharingUrl, error)} Nothing was ` +
        "federated. If the portal lists the certificate now, the next `pulumi up` does not import it again.",
      { cause: error },
    );
  }
  logInfo(
    `Imported certificate ${alias} into the portal ${inputs.sharingUrl}; waiting for its restart.`,
  );
  await waitForRestart(inputs, session, certificate);
  return true;
}

/** Waits `restartWaitMs`, then until the portal answers again (bounded by `timeouts.federateMs`). */
async function waitForRestart(
  inputs: FederationInputs,
  session: PortalSession,
  certificate: FederationServerCertificate,
): Promise<void> {
  const deadline = Date.now() + inputs.timeouts.federateMs;
  await new Promise((r) => setTimeout(r, certificate.restartWaitMs));
  for (;;) {
    try {
      await portalSelf(session);
      return;
    } catch (error) {
      if (Date.now() >= deadline) {
        throw new Error(
          `The portal ${inputs.sharingUrl} did not answer within timeouts.federateMs ` +
            `(${inputs.timeouts.federateMs} ms) after importing certificate ` +
            `${certificate.alias}; nothing was federated. Run \`pulumi up\` again once it answers ` +
            "(the certificate is not imported again).",
          { cause: error },
        );
      }
      await new Promise((r) => setTimeout(r, RESTART_POLL_MS));
    }
  }
}
