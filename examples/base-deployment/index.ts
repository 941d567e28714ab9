/**
 * An ArcGIS Enterprise base deployment from fresh installs, in the order Esri's automation builds
 * one (Chef's arcgis-enterprise recipes, PowerShell DSC's base deployment): the portal's own site
 * (`PortalSite`), the server's site (`Site`), the organisation's certificate on the server's
 * machine (`ServerCertificate`), the server's security settings (`SecuritySettings`: HTTPS only,
 * HSTS, TLS 1.2 and 1.3), a Web Adaptor registered with the server (`WebAdaptor`), and the
 * server federated with the portal through the Web Adaptor's URL (`Federation`).
 *
 * Config, in the `arcgis-admin` namespace (docs/connection.md): the server's `adminUrl`,
 * `username`, `password` (secret: the primary administrator the site is created with) and
 * `caCert` (the certificate it presents now, PEM); the portal's `sharingUrl`, `portalUsername`,
 * `portalPassword` (secret: the initial administrator the portal's site is created with). Of this
 * project: `portalFullName`, `portalEmail`, `portalContentDir` (the content store's folder),
 * `machineName` (default: the host of adminUrl), `caCertificate` (the organisation's CA, PEM),
 * `serverCertificatePfx` and `serverCertificatePassword` (secrets: the PKCS #12 file in base64
 * and its password), `webAdaptorUrl` (the Web Adaptor's URL, e.g. https://gis.example.com/server).
 *
 * `pulumi destroy` unfederates the server, unregisters the Web Adaptor, puts back the security
 * settings it changed, binds the machine's previous certificate again, and leaves both sites
 * running (neither product documents deleting its site from outside).
 */
import * as pulumi from "@pulumi/pulumi";
import {
  Federation,
  PortalSite,
  SecuritySettings,
  ServerCertificate,
  Site,
  WebAdaptor,
} from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const connection = new pulumi.Config("arcgis-admin");
const host = new URL(connection.require("adminUrl")).hostname.replace(/^\[|\]$/g, "");
const caCertificate = config.require("caCertificate");

/** What the server's clients trust: its certificate now, and the organisation's CA after the bind. */
const tls = { caCert: `${connection.require("caCert")}\n${caCertificate}` };

/** The portal's site, with its initial administrator (arcgis-admin:portalUsername, …). */
const portal = new PortalSite("portal", {
  fullName: config.get("portalFullName") ?? "Portal Administrator",
  email: config.require("portalEmail"),
  contentStore: { connectionString: config.require("portalContentDir") },
  tls,
});

/** The server's site (arcgis-admin:adminUrl, username, password). */
const site = new Site("server", { serverType: "arcgis-server", tls });
const server = {
  serverType: site.serverType,
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  tls,
};

/** The organisation's certificate on the server's machine; destroy binds the previous one. */
const certificate = new ServerCertificate("certificate", {
  ...server,
  machineName: config.get("machineName") ?? host,
  caCertificates: [{ alias: "orgroot", pem: caCertificate }],
  pkcs12: config.requireSecret("serverCertificatePfx"),
  certPassword: config.requireSecret("serverCertificatePassword"),
  alias: "gis",
  rebindPreviousOnDestroy: true,
});

/** HTTPS only, with HSTS and modern TLS, once the certificate is bound; destroy puts back what it set. */
const security = new SecuritySettings(
  "security",
  {
    ...server,
    httpsOnly: true,
    hstsEnabled: true,
    tlsProtocols: ["TLSv1.2", "TLSv1.3"],
    // A suite for each protocol: the TLS 1.3 suites, then TLS 1.2's with forward secrecy.
    cipherSuites: [
      "TLS_AES_256_GCM_SHA384",
      "TLS_AES_128_GCM_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    ],
    restoreOnDestroy: true,
  },
  { dependsOn: [certificate] },
);

/** The Web Adaptor in front of the server; destroy unregisters it. */
const webAdaptor = new WebAdaptor(
  "web-adaptor",
  { ...server, webAdaptorUrl: config.require("webAdaptorUrl") },
  { dependsOn: [security] },
);

/**
 * The server federated with the portal, its services reached through the Web Adaptor. The portal's
 * connection is the one PortalSite created its administrator with (arcgis-admin:sharingUrl,
 * portalUsername, portalPassword), once the portal's site exists.
 */
const federation = new Federation(
  "federation",
  {
    tls,
    serverType: site.serverType,
    adminUrl: site.adminUrl,
    serverUsername: site.username,
    serverPassword: site.password,
    serverUrl: webAdaptor.webAdaptorUrl,
  },
  { dependsOn: [portal] },
);

export const portalAdministrator = portal.username;
export const certificateFingerprint = certificate.sha256Fingerprint;
export const webAdaptorId = webAdaptor.webAdaptorId;
export const webAdaptorUrl = webAdaptor.webAdaptorUrl;
export const serverId = federation.serverId;
export const federationState = federation.state;
