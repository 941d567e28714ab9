/**
 * An ArcGIS Server site whose machine presents a certificate from the organisation's own CA
 * instead of its self-signed one, as Esri's Chef cookbook does it (`:configure_https`): the CA's
 * root certificate and the server certificate (PKCS #12) imported into the machine's keystore,
 * the web server bound to it, and a TLS handshake that trusts only that CA checking the result.
 * Then the site is federated with the portal, which is given the CA first (Chef's
 * `:import_root_cert`) since it reaches the server that now presents the new certificate.
 * The CA is this example's own (pki.cjs, kept in ./pki); bring your organisation's instead.
 *
 * Config, in the `arcgis-admin` namespace (docs/connection.md): `adminUrl`, `username`,
 * `password` (secret), `caCert` (the server's self-signed certificate, PEM), and the portal's
 * `sharingUrl`, `portalUsername`, `portalPassword` (secret). Of this project: `pfxPassword`
 * (secret: the PKCS #12 file's password), `machineName` (default: the host of adminUrl),
 * `renewal` (default "1": another value is a new certificate, swapped in place),
 * `portalRestartWaitMs` (default 60000: the wait for the portal's restart after it imports the CA).
 *
 * `pulumi destroy` unfederates the server, binds the self-signed certificate again and leaves the
 * site running.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Federation, ServerCertificate, Site } from "pulumi-arcgis-admin";
import { organisationPki } from "./pki.cjs";

const config = new pulumi.Config();
const connection = new pulumi.Config("arcgis-admin");
const host = new URL(connection.require("adminUrl")).hostname.replace(/^\[|\]$/g, "");
const renewal = config.get("renewal") ?? "1";

/** The organisation's CA and this machine's certificate (made once, in ./pki). */
const pki = config
  .requireSecret("pfxPassword")
  .apply((password) =>
    organisationPki(path.join(__dirname, "pki"), { names: [host], renewal, password }),
  );
// The CA certificate is no secret, though it was made beside the password.
const caPem = pulumi.unsecret(pki.apply((p) => p.caPem));

/** The site: trusting the self-signed certificate until the bind, the new CA after it. */
const trusted = pulumi.interpolate`${connection.require("caCert")}\n${caPem}`;
const site = new Site("site", { serverType: "arcgis-server", tls: { caCert: trusted } });

/** The machine's certificate; destroy binds the previous (self-signed) one again. */
const https = new ServerCertificate("https", {
  serverType: site.serverType,
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  tls: { caCert: trusted },
  machineName: config.get("machineName") ?? host,
  caCertificates: [{ alias: "examplerootca", pem: caPem }],
  pkcs12: pki.apply((p) => p.pkcs12),
  certPassword: config.requireSecret("pfxPassword"),
  alias: "gis",
  rebindPreviousOnDestroy: true,
});

/**
 * Federates the site's server once its certificate is bound (dependsOn), so that the portal
 * reaches a server that presents the new certificate; the portal imports the CA first to trust it.
 */
const federation = new Federation(
  "federation",
  {
    serverType: site.serverType,
    adminUrl: site.adminUrl,
    serverUsername: site.username,
    serverPassword: site.password,
    // arcgis-admin:caCert and the new CA: a portal on the bound machine presents its certificate.
    tls: { caCert: trusted },
    serverCertificate: {
      alias: "examplerootca",
      pem: caPem,
      restartWaitMs: config.getNumber("portalRestartWaitMs") ?? 60_000,
    },
  },
  { dependsOn: [https] },
);

export const certificateAlias = https.certificateAlias;
export const sha256Fingerprint = https.sha256Fingerprint;
export const validUntil = https.validUntil;
export const caCertificate = caPem;
export const serverId = federation.serverId;
export const federationState = federation.state;
