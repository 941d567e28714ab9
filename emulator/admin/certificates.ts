/**
 * A machine's keystore, `machines/<machine>/sslcertificates` (every product): the list, one
 * certificate, `importRootOrIntermediate`, `importExistingServerCertificate` and `<alias>/delete`;
 * and what `machines/<machine>/edit` needs to make the machine's web server present a certificate
 * of it (admin/machine.ts), which the HTTPS listener does after the restart delay.
 *
 * Evidence (what Esri's tools send and read):
 * - Chef, Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb`: `ssl_certificate_exist?` POSTs
 *   `machines/<m>/sslcertificates/<alias>` and takes any error as "absent", an answer as present
 *   when `entryType` is missing or is the one asked (`PrivateKeyEntry`, `trustedCertEntry` for a
 *   root); `import_server_ssl_certificate` POSTs multipart `certFile` (application/x-pkcs12),
 *   `certPassword`, `alias`, `token`, `f` to `.../importExistingServerCertificate`;
 *   `import_root_ssl_certificate` multipart `rootCACertificate`, `alias`, `token`, `f` to
 *   `.../importRootOrIntermediate`; `providers/server.rb` `:configure_https` (import the root when
 *   absent, the server certificate when absent, then `set_server_ssl_certificate`, then wait:
 *   "Editing the machine configuration causes the machine to be restarted"). The Mission,
 *   Notebook and Video cookbooks have no certificate calls.
 * - DSC, Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1` (used for ArcGIS,
 *   Mission, Notebook and Video Server): `Get-AllSSLCertificateForMachine` reads `certificates`
 *   (ArcGIS Server) or `sslCertificates` (the others); `Get-SSLCertificateForMachine` GETs
 *   `sslCertificates/<alias lower-cased>` and reads `issuer` and `sha1Fingerprint`, an `error` or
 *   `status: error` meaning absent; `Import-ExistingCertificate` sends `certFile`, `alias`,
 *   `certPassword` (and `importCertificateChain` on ArcGIS Server 11.3+), the token as a form field
 *   on ArcGIS Server and as `X-Esri-Authorization: Bearer` on the others;
 *   `Import-RootOrIntermediateCertificate` sends `rootCACertificate`; `Invoke-DeleteSSLCertForMachine`
 *   POSTs `sslCertificates/<alias>/delete`; a certificate that is bound is first replaced by an
 *   `<alias>-temp` import before it is deleted. `ArcGIS_TLSCertificateImport.psm1` imports a
 *   DER `.cer` (application/pkix-cert) as `rootCACertificate`.
 * - Ansible, Esri/arcgis-gitops at 1254036ab438965776b0792e3876e098a183d9ff,
 *   `ansible_collections/arcgis/server/plugins/module_utils/server_admin_client.py`
 *   `ssl_certificate_exists`: an unknown alias is an error with code 404.
 * - Esri's pages: ArcGIS Server (https://developers.arcgis.com/rest/enterprise-administration/server/sslcertificates,
 *   .../server/certificate, .../server/importrootcertificate, .../server/importexistingservercertificate,
 *   .../server/deletecertificate), Mission Server (.../mission-server/machines-machine-ssl-certificates
 *   and its -ssl-cert, -importrootorintermediatecert, -importexistingservercert, -ssl-cert-delete-cert
 *   pages), Notebook Server (.../notebook/ssl-certificates-notebook-server, ...), Video Server
 *   (.../video-server/sslcertificates, .../video-server/certificate, ...): the list
 *   `{"certificates": [...]}` (ArcGIS, Mission, Notebook) or `{"sslCertificates": [...]}` (Video),
 *   with `selfsignedcertificate` in every example; the certificate's fields (aliasName, entryType,
 *   issuer, subject, subjectAlternativeNames, validFrom, validUntil, their epochs, keyAlgorithm,
 *   keySize, serialNumber, version, signatureAlgorithm, keyUsage, md5/sha1/sha256 fingerprints;
 *   the portal page's example shows their forms); each import and delete answers
 *   `{"status": "success"}`.
 * - A failed import: "Importing CA certificate failed." is what real ArcGIS Servers answered
 *   (Esri/arcgis-cookbook issue #225, Esri/arcgis-powershell-dsc issue #446, Esri support article
 *   000012881).
 * Assumptions (docs/emulator.md, "Certificates"): the rest of the refusals (codes and second
 * messages), aliases kept lower-case, both list keys on Mission and Notebook Server, the field
 * formats, and that the listener keeps answering while the machine "restarts".
 */
import { createHash, X509Certificate } from "node:crypto";
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import { keyUsageOf, Pkcs12Error, readPkcs12 } from "../core/pkcs12";
import { machinesOfProcess } from "../core/registry";
import type { Runtime } from "../core/runtime";
import type { EmulatorState, KeystoreEntry, SiteRecord } from "../core/state";
import { notFoundError } from "./not-found";
import { refuseDuringExport } from "./site";

/** Alias of the self-signed certificate a machine starts with, as the keystore lists it. */
export const SELF_SIGNED_ALIAS = "selfsignedcertificate";
/** The machine's `webServerCertificateAlias` before any edit (the docs' machine example). */
export const DEFAULT_WEB_SERVER_ALIAS = "SelfSignedCertificate";
/** What real ArcGIS Servers answered for an import that failed (see the evidence above). */
const IMPORT_FAILED = "Importing CA certificate failed.";

type Entry = Pick<KeystoreEntry, "alias" | "entryType" | "chain" | "key">;

/** The self-signed entry, derived from the TLS material the emulator started with. */
function selfSignedEntry(rt: Runtime, keystore: EmulatorState["keystore"]): Entry[] {
  if (rt.webServer === null || keystore.selfSignedDeleted) return [];
  const { cert, key } = rt.webServer.initial;
  return [{ alias: SELF_SIGNED_ALIAS, entryType: "PrivateKeyEntry", chain: [cert], key }];
}

function entriesOf(rt: Runtime, keystore: EmulatorState["keystore"] = rt.store.current.keystore) {
  return [...selfSignedEntry(rt, keystore), ...keystore.entries];
}

/** The keystore's entry under `alias` (aliases are case-insensitive), if any. */
export function findCertificate(rt: Runtime, alias: string): Entry | undefined {
  const wanted = alias.toLowerCase();
  return entriesOf(rt).find((entry) => entry.alias === wanted);
}

/**
 * The runtime of the site's machine `name` in this process, and its name as the site lists it:
 * each machine keeps its own keystore and listener, as a real machine does.
 */
export function machineRuntime(
  rt: Runtime,
  site: SiteRecord,
  name: string,
): { rt: Runtime; name: string } {
  const listed = site.machines.find((m) => m.toLowerCase() === name.toLowerCase());
  if (listed === undefined) throw notFoundError(name);
  if (rt.options.machineName.toLowerCase() === listed.toLowerCase()) return { rt, name: listed };
  const other = machinesOfProcess().find(
    (m) =>
      m.rt.store.current.site?.id === site.id &&
      m.rt.options.machineName.toLowerCase() === listed.toLowerCase(),
  );
  if (other === undefined) throw notFoundError(name);
  return { rt: other.rt, name: listed };
}

/** The alias a machine's web server is bound to, as its resource shows it. */
export function boundAlias(site: SiteRecord, machine: string): string {
  return site.machineSettings[machine]?.webServerCertificateAlias ?? DEFAULT_WEB_SERVER_ALIAS;
}

type Handler = (rt: Runtime, req: ApiRequest, site: SiteRecord) => Promise<Reply> | Reply;

/**
 * The route of `machines/<machine>/sslcertificates/<below...>`, or null for none; `post` for the
 * operations (which must be POSTed).
 */
export function certificateRoute(
  machine: string,
  below: readonly string[],
): { post: boolean; run: Handler } | null {
  const [first, second, ...rest] = below;
  if (rest.length > 0) return null;
  if (first === undefined) {
    return { post: false, run: (rt, _req, site) => list(machineRuntime(rt, site, machine).rt) };
  }
  if (second === undefined && first === "importRootOrIntermediate") {
    return {
      post: true,
      run: (rt, req, site) => importRoot(rt, req, machineRuntime(rt, site, machine)),
    };
  }
  if (second === undefined && first === "importExistingServerCertificate") {
    return {
      post: true,
      run: (rt, req, site) => importServerCertificate(rt, req, machineRuntime(rt, site, machine)),
    };
  }
  if (second === undefined) {
    return { post: false, run: (rt, _req, site) => read(machineRuntime(rt, site, machine), first) };
  }
  if (second === "delete") {
    return {
      post: true,
      run: (rt, _req, site) => remove(rt, site, machineRuntime(rt, site, machine), first),
    };
  }
  return null;
}

/**
 * The list: `certificates` on ArcGIS Server (its docs, DSC), `sslCertificates` on Video Server
 * (its docs, DSC); Mission and Notebook Server's docs show `certificates` where DSC reads
 * `sslCertificates`, so both are answered there.
 */
function list(target: Runtime): Reply {
  const aliases = entriesOf(target).map((entry) => entry.alias);
  switch (target.product.type) {
    case "arcgis-server":
      return json({ certificates: aliases });
    case "video-server":
      return json({ sslCertificates: aliases });
    default:
      return json({ certificates: aliases, sslCertificates: aliases });
  }
}

function read(target: { rt: Runtime; name: string }, alias: string): Reply {
  const entry = findCertificate(target.rt, alias);
  if (entry === undefined) throw unknownAlias(alias, target.name);
  return json(describe(entry));
}

function unknownAlias(alias: string, machine: string): AdminError {
  // Code 404: what Ansible's ssl_certificate_exists reads as "absent".
  return new AdminError(404, [
    `Certificate with alias '${alias}' does not exist in the keystore of machine '${machine}'.`,
  ]);
}

function importFailed(reason: string): AdminError {
  return new AdminError(500, [IMPORT_FAILED, reason]);
}

function requiredAlias(req: ApiRequest): string {
  const alias = req.params.get("alias")?.trim() ?? "";
  if (alias === "") throw new AdminError(400, ["The parameter 'alias' is required."]);
  // Keystore aliases are case-insensitive and kept lower-case (Java keystores; the docs' lists).
  return alias.toLowerCase();
}

function requiredFile(req: ApiRequest, name: string): Buffer {
  const file = req.files?.get(name);
  if (file === undefined) {
    throw new AdminError(400, [`The parameter '${name}' is required: a multipart file part.`]);
  }
  return file.data;
}

/** Adds an entry unless its alias is taken (a certificate is never overwritten). */
async function addEntry(
  rt: Runtime,
  target: { rt: Runtime; name: string },
  entry: KeystoreEntry,
): Promise<void> {
  refuseDuringExport(rt);
  await target.rt.store.update((draft) => {
    if (entriesOf(target.rt, draft.keystore).some((e) => e.alias === entry.alias)) {
      throw importFailed(
        `A certificate with alias '${entry.alias}' is already in the keystore of machine '${target.name}'.`,
      );
    }
    draft.keystore.entries.push(entry);
  });
}

/** `importRootOrIntermediate`: one certificate, PEM or DER (DSC uploads a DER `.cer`). */
async function importRoot(
  rt: Runtime,
  req: ApiRequest,
  target: { rt: Runtime; name: string },
): Promise<Reply> {
  const alias = requiredAlias(req);
  const file = requiredFile(req, "rootCACertificate");
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(file);
  } catch {
    throw importFailed("The file is not an X.509 certificate (PEM or DER).");
  }
  await addEntry(rt, target, {
    alias,
    entryType: "trustedCertEntry",
    chain: [certificate.toString()],
    importedAt: Date.now(),
  });
  target.rt.log(`root certificate '${alias}' imported on machine '${target.name}'`);
  return json({ status: "success" });
}

/**
 * `importExistingServerCertificate`: a PKCS #12 file (`certFile`) opened with `certPassword`.
 * `importCertificateChain` (ArcGIS Server 11.3+, DSC) is accepted; the file's chain is kept with
 * the certificate either way, and presented with it.
 */
async function importServerCertificate(
  rt: Runtime,
  req: ApiRequest,
  target: { rt: Runtime; name: string },
): Promise<Reply> {
  const alias = requiredAlias(req);
  const file = requiredFile(req, "certFile");
  const password = req.params.get("certPassword") ?? "";
  let contents: ReturnType<typeof readPkcs12>;
  try {
    contents = readPkcs12(file, password);
  } catch (error) {
    if (error instanceof Pkcs12Error) throw importFailed(error.message);
    throw error;
  }
  await addEntry(rt, target, {
    alias,
    entryType: "PrivateKeyEntry",
    chain: [...contents.chainPem],
    key: contents.keyPem,
    importedAt: Date.now(),
  });
  target.rt.log(`server certificate '${alias}' imported on machine '${target.name}'`);
  return json({ status: "success" });
}

/** `<alias>/delete`: the certificate the web server presents cannot be deleted. */
async function remove(
  rt: Runtime,
  site: SiteRecord,
  target: { rt: Runtime; name: string },
  alias: string,
): Promise<Reply> {
  const wanted = alias.toLowerCase();
  if (findCertificate(target.rt, wanted) === undefined) throw unknownAlias(alias, target.name);
  if (boundAlias(site, target.name).toLowerCase() === wanted) {
    // DSC replaces a bound certificate with a temporary one before deleting it.
    throw new AdminError(400, [
      `The certificate '${wanted}' is the web server certificate of machine '${target.name}'. Set another one with 'edit' before deleting it.`,
    ]);
  }
  refuseDuringExport(rt);
  await target.rt.store.update((draft) => {
    if (wanted === SELF_SIGNED_ALIAS) draft.keystore.selfSignedDeleted = true;
    draft.keystore.entries = draft.keystore.entries.filter((e) => e.alias !== wanted);
  });
  target.rt.log(`certificate '${wanted}' deleted on machine '${target.name}'`);
  return json({ status: "success" });
}

/**
 * For `machines/<name>/edit`: a new `webServerCertificateAlias` must name a server certificate
 * (with its key) of that machine's keystore.
 */
export function requireServerCertificate(target: { rt: Runtime; name: string }, alias: string) {
  const entry = findCertificate(target.rt, alias);
  if (entry === undefined) {
    throw new AdminError(400, [
      `The web server certificate alias '${alias}' is not in the keystore of machine '${target.name}'. Import the certificate first.`,
    ]);
  }
  if (entry.key === undefined) {
    throw new AdminError(400, [
      `The certificate '${entry.alias}' of machine '${target.name}' has no private key and cannot be the web server certificate.`,
    ]);
  }
}

/**
 * After the machine's restart delay, its HTTPS listener presents the certificate `alias` names to
 * new connections (a real machine restarts its web server after `edit`; Chef and DSC wait for it).
 */
export function presentAfterRestart(target: Runtime, alias: string): void {
  target.delay(target.options.restartDelayMs).then(
    () => {
      const entry = findCertificate(target, alias);
      if (entry?.key === undefined || target.webServer === null) return;
      target.webServer.present(entry.chain.join(""), entry.key);
      target.log(`web server restarted with certificate '${entry.alias}'`);
    },
    // Aborted: the emulator closed first.
    () => undefined,
  );
}

/**
 * The certificate the listener presents at start: the one the machine's `webServerCertificateAlias`
 * names when it is an imported server certificate, else the TLS material it was started with.
 */
export function certificateAtStart(
  state: Readonly<EmulatorState>,
  machine: string,
  initial: { cert: string; key: string },
): { cert: string; key: string } {
  const settings = Object.entries(state.site?.machineSettings ?? {}).find(
    ([name]) => name.toLowerCase() === machine.toLowerCase(),
  )?.[1];
  const alias = settings?.webServerCertificateAlias?.toLowerCase();
  const entry = state.keystore.entries.find((e) => e.alias === alias);
  if (entry?.key === undefined) return initial;
  return { cert: entry.chain.join(""), key: entry.key };
}

/** Java's names of the usual signature algorithms (what a Java server's certificate shows). */
const SIGNATURE_ALGORITHMS: Record<string, string> = {
  "1.2.840.113549.1.1.5": "SHA1withRSA",
  "1.2.840.113549.1.1.11": "SHA256withRSA",
  "1.2.840.113549.1.1.12": "SHA384withRSA",
  "1.2.840.113549.1.1.13": "SHA512withRSA",
  "1.2.840.113549.1.1.14": "SHA224withRSA",
  "1.2.840.113549.1.1.10": "RSASSA-PSS",
  "1.2.840.10045.4.1": "SHA1withECDSA",
  "1.2.840.10045.4.3.2": "SHA256withECDSA",
  "1.2.840.10045.4.3.3": "SHA384withECDSA",
  "1.2.840.10045.4.3.4": "SHA512withECDSA",
  "1.3.101.112": "Ed25519",
};

const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };

/** A distinguished name as Java prints it: most specific first, comma-separated. */
function javaName(name: string): string {
  return name.split("\n").reverse().join(", ");
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A date as Java's `Date.toString()` prints it (the portal page's example), in UTC. */
function javaDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${two(date.getUTCDate())} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC ${date.getUTCFullYear()}`;
}

/** The certificate's fields as the docs list them, read from the certificate itself. */
function describe(entry: Entry): Record<string, unknown> {
  const x509 = new X509Certificate(entry.chain[0]!);
  const digest = (algorithm: string) => createHash(algorithm).update(x509.raw).digest("hex");
  const key = x509.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const keySize =
    details.modulusLength ??
    (details.namedCurve === undefined ? undefined : CURVE_BITS[details.namedCurve]);
  return {
    aliasName: entry.alias,
    entryType: entry.entryType,
    issuer: javaName(x509.issuer),
    subject: javaName(x509.subject),
    // The portal page's example form: "DNSName: <name>".
    subjectAlternativeNames: (x509.subjectAltName ?? "")
      .split(", ")
      .filter((name) => name !== "")
      .map((name) => name.replace(/^DNS:/, "DNSName: ").replace(/^IP Address:/, "IPAddress: ")),
    validFrom: javaDate(x509.validFromDate),
    validUntil: javaDate(x509.validToDate),
    validFromEpoch: x509.validFromDate.getTime(),
    validUntilEpoch: x509.validToDate.getTime(),
    keyAlgorithm: (key.asymmetricKeyType ?? "").toUpperCase(),
    ...(keySize === undefined ? {} : { keySize }),
    serialNumber: x509.serialNumber.toLowerCase().replace(/^0+(?=.)/, ""),
    version: "3",
    signatureAlgorithm:
      SIGNATURE_ALGORITHMS[x509.signatureAlgorithmOid ?? ""] ?? x509.signatureAlgorithm,
    keyUsage: keyUsageOf(x509),
    md5Fingerprint: digest("md5"),
    sha1Fingerprint: digest("sha1"),
    sha256Fingerprint: digest("sha256"),
  };
}
