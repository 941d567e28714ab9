/**
 * `ServerCertificate`: the certificate a machine of a site presents, as Chef's
 * `arcgis_enterprise_server` action `:configure_https` and DSC's `ArcGIS_Server_TLS` set it:
 * import the CA's root (and intermediates) when the keystore lacks them, import the server
 * certificate when it lacks it, bind it (`machines/<m>/edit` `webServerCertificateAlias`), wait
 * for the web server's restart; then check in a TLS handshake that it presents that certificate.
 * Reads top-down as its lifecycle: diff, create, read (refresh), update, delete; then the
 * implementation the host loads from this module's path. Its inputs, class and frame derive from
 * `definition.ts` (`generated.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  type AdminSession,
  answerMayBeLost,
  editMachine,
  getMachine,
  getSslCertificate,
  importExistingServerCertificate,
  importRootOrIntermediate,
  isNotFoundError,
  listSslCertificates,
  permanentReason,
  presentedCertificate,
} from "../../client";
import { adminSessionFor } from "../common/connection/admin";
import { caCertOf } from "../common/connection/tls";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { implementationOf } from "../common/pulumi/implementation";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { logInfo, logWarn } from "../common/messages/log";
import { partialCreate } from "../common/pulumi/partial-create";
import { inputChanged, sameValue } from "../common/pulumi/state-diff";
import { SERVER_CERTIFICATE_DEFINITION, SERVER_CERTIFICATE } from "./definition";
import { withoutTrailingSlash } from "../../url";
import { pemFingerprint, type Pkcs12Certificate } from "./pkcs12";
import { certificateFailures, openedCertificate, provenCertificate } from "./proof";
import type { ServerCertificateInputs, ServerCertificateOutputs } from "./generated";

/** How often the keystore, the machine or its web server is looked at while waiting. */
const POLL_MS = 500;

/** The inputs that change what is imported or bound: an update in place. */
const IN_PLACE = ["alias", "pkcs12", "certPassword", "caCertificates"] as const;

/** Inputs, recorded inputs or outputs, as the comparisons below read them. */
type Values = Partial<Record<keyof ServerCertificateInputs, unknown>>;

/** Whether an input that changes what is imported or bound differs between `olds` and `news`. */
function differs(key: (typeof IN_PLACE)[number], olds: Values, news: Values): boolean {
  switch (key) {
    case "caCertificates":
      return !sameValue(casOf(olds.caCertificates), casOf(news.caCertificates));
    case "pkcs12":
      return String(olds.pkcs12).replace(/\s+/g, "") !== String(news.pkcs12).replace(/\s+/g, "");
    default:
      return !sameValue(olds[key], news[key]);
  }
}

/** The host the certificate must name: of `webServerUrl`, else of `adminUrl`, lower case. */
function certificateHost(values: Values): string {
  const url = String(values.webServerUrl ?? values.adminUrl);
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url;
  }
}

/**
 * Whether the certificate is new or changed: the file, its password, the CA certificates or the
 * host it must name. Only then is it proven (proof.ts): an unchanged certificate, bound and since
 * expired, never stops a preview or an update of something else.
 */
function certificateChanged(olds: Values, news: Values): boolean {
  if (olds.pkcs12 === undefined) return true;
  return (
    (["pkcs12", "certPassword", "caCertificates"] as const).some((key) =>
      differs(key, olds, news),
    ) || certificateHost(olds) !== certificateHost(news)
  );
}

/** The keystore alias of the server certificate: the given name and its fingerprint's start. */
export function keystoreAlias(alias: string, sha256Fingerprint: string): string {
  return `${alias}-${sha256Fingerprint.slice(0, 8)}`.toLowerCase();
}

function describeMachine(inputs: ServerCertificateInputs): string {
  return `machine '${inputs.machineName}' of ${inputs.adminUrl}`;
}

/**
 * The resource's session: the `tls` input, and the CA's certificates too (the machine presents a
 * certificate they signed once it is bound).
 */
function sessionFor(inputs: ServerCertificateInputs): AdminSession {
  const tls = inputs.tls ?? {};
  if (tls.insecureSkipVerify === true) return adminSessionFor(inputs);
  const pems = [caCertOf(tls), ...inputs.caCertificates.map((ca) => ca.pem)].filter(
    (pem): pem is string => pem !== undefined,
  );
  const { caCertConfig: _named, ...rest } = tls;
  return adminSessionFor({
    ...inputs,
    tls: pems.length === 0 ? tls : { ...rest, caCert: pems.join("\n") },
  });
}

/**
 * The PEMs without whitespace, aliases lower-cased: how CA certificates are compared. A list
 * still unknown (a preview) is compared as it is.
 */
function casOf(cas: unknown): unknown {
  if (!Array.isArray(cas)) return cas ?? [];
  return (cas as Array<{ alias?: unknown; pem?: unknown }>).map((ca) => ({
    alias: String(ca?.alias).toLowerCase(),
    pem: String(ca?.pem).replace(/\s+/g, ""),
  }));
}

/**
 * diff: another server or machine is a replacement (another spelling of the URL is not); a new
 * certificate, alias or CA certificate is an update in place, as is a machine found bound to
 * another certificate at refresh; credentials, `tls`, `webServerUrl`, `timeouts` and
 * `rebindPreviousOnDestroy` only update state.
 */
function diff(
  _id: string,
  olds: ServerCertificateOutputs,
  rawNews: unknown,
): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews) as Partial<ServerCertificateInputs>;
  const replaces = SERVER_CERTIFICATE.replacing.filter((key) =>
    key === "machineName"
      ? String(olds.machineName).toLowerCase() !== String(news.machineName).toLowerCase()
      : inputChanged(SERVER_CERTIFICATE_DEFINITION, key, olds, news),
  );
  if (replaces.length > 0) return { changes: true, replaces: [...replaces] };
  const inPlace = IN_PLACE.filter((key) => differs(key, olds, news));
  const drifted = olds.boundAlias?.toLowerCase() !== olds.certificateAlias?.toLowerCase();
  const stateOnly = SERVER_CERTIFICATE.stateOnly.some((key) => !sameValue(olds[key], news[key]));
  return { changes: inPlace.length > 0 || drifted || stateOnly };
}

/** What a create or update has done so far: kept as partial state when a later step fails. */
interface Progress {
  previousAlias: string;
  importedAliases: string[];
  boundAlias: string;
  changed: boolean;
}

/**
 * create: reads the machine (its bound certificate becomes `previousAlias`), then converges:
 * the CA's certificates and the server certificate imported where the keystore lacks them, the
 * bind, the wait and the TLS check. A failure after something was imported or bound keeps the
 * resource as Pulumi's partial state; the next `pulumi up` finishes it.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = SERVER_CERTIFICATE.parse(raw);
  // Proven again here: a URL still unknown when check() ran is known now.
  const certificate = provenCertificate(inputs);
  const session = sessionFor(inputs);
  const machine = await explained(
    () => getMachine(session, inputs.machineName),
    (error) => `${failureMessage("machines/<machine>", inputs.adminUrl, error)} Nothing was sent.`,
  );
  const bound = machine.webServerCertificateAlias ?? "";
  const progress: Progress = {
    previousAlias: bound,
    importedAliases: [],
    boundAlias: bound,
    changed: false,
  };
  const id = `${withoutTrailingSlash(inputs.adminUrl)}/machines/${inputs.machineName}/webServerCertificate`;
  try {
    return { id, outs: await converge(inputs, session, certificate, progress) };
  } catch (error) {
    if (!progress.changed) throw error;
    const done =
      `What was done is recorded in the stack (imported: ` +
      `${progress.importedAliases.join(", ") || "none"}; bound: ${progress.boundAlias})`;
    throw partialCreate(
      needsNewInputs(error)
        ? `${messageOf(error)} ${done}.`
        : `${messageOf(error)} ${done}; run \`pulumi up\` again to finish.`,
      id,
      outputsOf(inputs, certificate, progress),
      raw,
      error,
    );
  }
}

function outputsOf(
  inputs: ServerCertificateInputs,
  certificate: Pkcs12Certificate,
  progress: Progress,
): ServerCertificateOutputs {
  return {
    ...inputs,
    certificateAlias: keystoreAlias(inputs.alias, certificate.sha256Fingerprint),
    sha256Fingerprint: certificate.sha256Fingerprint,
    validUntil: certificate.validUntil,
    previousAlias: progress.previousAlias,
    boundAlias: progress.boundAlias,
    importedAliases: progress.importedAliases,
  };
}

/** Imports what the keystore lacks, binds, waits and checks; `progress` says what was done. */
async function converge(
  inputs: ServerCertificateInputs,
  session: AdminSession,
  certificate: Pkcs12Certificate,
  progress: Progress,
): Promise<ServerCertificateOutputs> {
  const alias = keystoreAlias(inputs.alias, certificate.sha256Fingerprint);
  for (const ca of inputs.caCertificates) {
    const caAlias = ca.alias.toLowerCase();
    const imported = await importOnce(inputs, session, caAlias, pemFingerprint(ca.pem), () =>
      importRootOrIntermediate(session, {
        machineName: inputs.machineName,
        alias: caAlias,
        certificate: ca.pem,
      }),
    );
    if (imported) record(progress, caAlias);
  }
  const imported = await importOnce(inputs, session, alias, certificate.sha256Fingerprint, () =>
    importExistingServerCertificate(session, {
      machineName: inputs.machineName,
      alias,
      pkcs12: certificate.bytes,
      certPassword: inputs.certPassword,
    }),
  );
  if (imported) record(progress, alias);
  await bindOnce(inputs, session, alias, progress);
  await waitUntilPresented(inputs, certificate.sha256Fingerprint, alias);
  return outputsOf(inputs, certificate, progress);
}

function record(progress: Progress, alias: string): void {
  progress.changed = true;
  if (!progress.importedAliases.includes(alias)) progress.importedAliases.push(alias);
}

/**
 * Imports a certificate under `alias` unless the keystore holds it there already (adopted, as
 * Chef's `ssl_certificate_exist?` skips it); an alias holding another certificate is an error,
 * never overwritten. A lost answer is resolved by reading the keystore until
 * `timeouts.importMs`, never by a second import.
 *
 * @returns whether this call imported it.
 */
async function importOnce(
  inputs: ServerCertificateInputs,
  session: AdminSession,
  alias: string,
  fingerprint: string,
  send: () => Promise<unknown>,
): Promise<boolean> {
  const where = describeMachine(inputs);
  const found = await explained(
    () => keystoreEntry(session, inputs.machineName, alias),
    (error) => `${failureMessage("sslcertificates", inputs.adminUrl, error)} Nothing was sent.`,
  );
  if (found !== null) {
    if (found === undefined || found === fingerprint) {
      logInfo(`The keystore of ${where} holds ${alias} already; not imported again.`);
      return false;
    }
    throw anotherCertificate(where, alias, found, fingerprint);
  }
  let lost: string;
  try {
    await send();
    logInfo(`Imported ${alias} into the keystore of ${where}.`);
    return true;
  } catch (error) {
    if (!answerMayBeLost(error)) {
      throw new Error(`${failureMessage("import", inputs.adminUrl, error)}`, { cause: error });
    }
    lost = messageOf(error);
  }
  logWarn(
    `The answer to the import of ${alias} on ${where} was lost (${lost}); reading the keystore ` +
      "until timeouts.importMs to learn whether it was imported. The import is not sent again.",
  );
  const deadline = Date.now() + inputs.timeouts.importMs;
  for (;;) {
    const now = await keystoreEntry(session, inputs.machineName, alias).catch(() => null);
    if (now !== null) {
      if (now !== undefined && now !== fingerprint) {
        throw anotherCertificate(where, alias, now, fingerprint);
      }
      logInfo(`The lost import had imported ${alias} into the keystore of ${where}.`);
      return true;
    }
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  throw new Error(
    `The answer to the import of ${alias} on ${where} was lost (${lost}), and the keystore has ` +
      `not listed it within timeouts.importMs (${inputs.timeouts.importMs} ms). The import was ` +
      "not sent again; the next `pulumi up` reads the keystore first and imports it only if it " +
      "is still missing.",
  );
}

/**
 * The fingerprint of the keystore's certificate under `alias`: null when the keystore lacks it,
 * undefined when the server reports none.
 */
async function keystoreEntry(
  session: AdminSession,
  machineName: string,
  alias: string,
): Promise<string | null | undefined> {
  const aliases = (await listSslCertificates(session, machineName)).map((a) => a.toLowerCase());
  if (!aliases.includes(alias)) return null;
  return (await getSslCertificate(session, machineName, alias)).sha256Fingerprint;
}

function anotherCertificate(where: string, alias: string, have: string, want: string): Error {
  return new Error(
    `The keystore of ${where} holds another certificate under the alias ${alias} (SHA-256 ` +
      `${have}, not ${want}). It is not overwritten: give another alias, or delete that ` +
      "certificate on the server if nothing uses it.",
  );
}

/**
 * Binds `alias` as the web server's certificate unless the machine is bound to it already. The
 * edit is sent once: after a lost answer the machine is read until `timeouts.bindMs`.
 */
async function bindOnce(
  inputs: ServerCertificateInputs,
  session: AdminSession,
  alias: string,
  progress: Progress,
): Promise<void> {
  const where = describeMachine(inputs);
  const machine = await explained(
    () => getMachine(session, inputs.machineName),
    (error) => failureMessage("machines/<machine>", inputs.adminUrl, error),
  );
  progress.boundAlias = machine.webServerCertificateAlias ?? progress.boundAlias;
  if (progress.boundAlias.toLowerCase() === alias) return;
  let lost: string;
  try {
    await editMachine(session, machine, { webServerCertificateAlias: alias });
    progress.boundAlias = alias;
    progress.changed = true;
    logInfo(`Bound ${alias} as the web server certificate of ${where}; waiting for its restart.`);
    return;
  } catch (error) {
    if (!answerMayBeLost(error)) {
      throw new Error(
        `${failureMessage("machines/<machine>/edit", inputs.adminUrl, error)} The web server ` +
          `certificate of ${where} is still ${progress.boundAlias}.`,
        { cause: error },
      );
    }
    lost = messageOf(error);
  }
  logWarn(
    `The answer to the edit binding ${alias} on ${where} was lost (${lost}); reading the ` +
      "machine until timeouts.bindMs to learn whether it took it. The edit is not sent again.",
  );
  const deadline = Date.now() + inputs.timeouts.bindMs;
  for (;;) {
    const now = await getMachine(session, inputs.machineName).then(
      (m) => m.webServerCertificateAlias,
      () => undefined,
    );
    if (now?.toLowerCase() === alias) {
      progress.boundAlias = alias;
      progress.changed = true;
      logInfo(`The lost edit had bound ${alias} on ${where}.`);
      return;
    }
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  throw new Error(
    `The answer to the edit binding ${alias} on ${where} was lost (${lost}), and the machine ` +
      `has not reported it bound within timeouts.bindMs (${inputs.timeouts.bindMs} ms). The ` +
      "edit was not sent again; the next `pulumi up` reads the machine first and binds it only " +
      "if it is still not bound.",
  );
}

/** Host and port of the machine's web server (`webServerUrl`, else `adminUrl`). */
function webServerOf(inputs: ServerCertificateInputs): { host: string; port: number } {
  const url = new URL(inputs.webServerUrl ?? inputs.adminUrl);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? 443 : Number(url.port),
  };
}

/**
 * Waits until the web server presents the certificate `fingerprint` (its restart), then checks it
 * in a handshake that trusts only `caCertificates` (with none: the fingerprint alone), bounded by
 * `timeouts.bindMs`.
 */
async function waitUntilPresented(
  inputs: ServerCertificateInputs,
  fingerprint: string,
  alias: string,
): Promise<void> {
  const { host, port } = webServerOf(inputs);
  const where = `${describeMachine(inputs)} (${host}:${port})`;
  const deadline = Date.now() + inputs.timeouts.bindMs;
  for (;;) {
    let seen: string;
    try {
      const presented = await presentedCertificate({
        host,
        port,
        trust: "do-not-verify",
        timeoutMs: 10_000,
      });
      if (presented.sha256Fingerprint === fingerprint) break;
      seen = `SHA-256 ${presented.sha256Fingerprint}`;
    } catch (error) {
      seen = messageOf(error);
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `The web server of ${where} did not present ${alias} (SHA-256 ${fingerprint}) within ` +
          `timeouts.bindMs (${inputs.timeouts.bindMs} ms); last seen: ${seen}. Check ` +
          "webServerUrl, or raise timeouts.bindMs; the next `pulumi up` checks again.",
      );
    }
    await sleep(POLL_MS);
  }
  if (inputs.caCertificates.length === 0) {
    logInfo(`The web server of ${where} presents ${alias} (SHA-256 ${fingerprint}).`);
    return;
  }
  const trusted = await presentedCertificate({
    host,
    port,
    trust: { trustOnly: inputs.caCertificates.map((ca) => ca.pem) },
    timeoutMs: 10_000,
  }).catch((error: unknown) => {
    throw notTrustedAfterBind(
      `The web server of ${where} presents ${alias}, but a TLS handshake that trusts only ` +
        `caCertificates fails: ${messageOf(error)} ${whatToChangeAfter(error, host)} The ` +
        `machine stays bound to ${alias}; once the inputs are changed, \`pulumi up\` imports ` +
        "and binds the certificate they give.",
    );
  });
  if (trusted.sha256Fingerprint !== fingerprint) {
    throw new Error(
      `The web server of ${where} presented SHA-256 ${trusted.sha256Fingerprint}, not ${alias}.`,
    );
  }
  logInfo(
    `The web server of ${where} presents ${alias} (SHA-256 ${fingerprint}), trusted through ` +
      "caCertificates.",
  );
}

/** What to change when the handshake after the bind refuses the certificate, by its reason. */
function whatToChangeAfter(error: unknown, host: string): string {
  switch (permanentReason(error)) {
    case "tls-hostname":
      return (
        `Set webServerUrl to the machine's https URL under a name the certificate holds, or ` +
        `give pkcs12 a certificate issued for ${host}.`
      );
    case "tls-expired":
    case "tls-not-yet-valid":
      return "Give pkcs12 a certificate valid now (or check the clocks of this computer and the machine).";
    case "tls-untrusted":
      return (
        "Give caCertificates the root (and intermediate) certificates of the CA that issued " +
        "pkcs12's certificate, or check that webServerUrl reaches this machine itself, not " +
        "something in front of it."
      );
    default:
      return "Check that webServerUrl reaches this machine itself, not something in front of it.";
  }
}

/**
 * The error of a handshake after the bind that refuses the certificate: waiting or running again
 * cannot change it, so a create does not say to run `pulumi up` again. The client's failure is in
 * the message, not kept as its cause: its sentence for a server's certificate (set tls.caCert, or
 * tls.insecureSkipVerify) would replace what to change here.
 */
function notTrustedAfterBind(message: string): Error {
  return Object.assign(new Error(message), { [NEEDS_NEW_INPUTS]: true });
}

const NEEDS_NEW_INPUTS = "needsNewInputs";

function needsNewInputs(error: unknown): boolean {
  return (error as Record<string, unknown> | null)?.[NEEDS_NEW_INPUTS] === true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * read (refresh): the certificate the machine is bound to (`boundAlias`); another one than this
 * resource's shows as a change at the next preview, and `pulumi up` binds it back. A machine the
 * site no longer lists is gone.
 */
async function read(
  id: string,
  props: ServerCertificateOutputs,
): Promise<pulumi.dynamic.ReadResult> {
  const inputs = SERVER_CERTIFICATE.parse(props);
  let bound: string | undefined;
  try {
    bound = (await getMachine(sessionFor(inputs), inputs.machineName)).webServerCertificateAlias;
  } catch (error) {
    if (isNotFoundError(error)) {
      logInfo(`The site no longer lists ${describeMachine(inputs)}.`);
      return {};
    }
    throw new Error(
      `Cannot refresh the certificate of ${describeMachine(inputs)}: ${messageOf(error)}. ` +
        "State is kept.",
      { cause: error },
    );
  }
  const boundAlias = bound ?? props.boundAlias;
  if (boundAlias.toLowerCase() !== props.certificateAlias.toLowerCase()) {
    logWarn(
      `The web server of ${describeMachine(inputs)} is bound to ${boundAlias}, not ` +
        `${props.certificateAlias}; the next \`pulumi up\` binds it back.`,
    );
  } else if (Date.parse(props.validUntil) < Date.now()) {
    logWarn(
      `The certificate ${props.certificateAlias} that ${describeMachine(inputs)} presents ` +
        `expired on ${props.validUntil}: clients refuse it. Give pkcs12 a renewed certificate ` +
        "(and its certPassword); `pulumi up` imports and binds it.",
    );
  }
  const now = { ...props, boundAlias };
  const {
    certificateAlias: _c,
    sha256Fingerprint: _f,
    validUntil: _v,
    previousAlias: _p,
    boundAlias: _b,
    importedAliases: _i,
    ...recorded
  } = now;
  return { id, props: now, inputs: recorded };
}

/**
 * update: converges again (a renewal imports the new certificate under its own alias and binds
 * it; what is there already is not sent again), keeping `previousAlias` and what was imported.
 */
async function update(
  _id: string,
  olds: ServerCertificateOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  const inputs = SERVER_CERTIFICATE.parse(rawNews);
  const certificate = certificateChanged(olds, inputs)
    ? provenCertificate(inputs)
    : openedCertificate(inputs);
  const progress: Progress = {
    previousAlias: olds.previousAlias,
    importedAliases: [...(olds.importedAliases ?? [])],
    boundAlias: olds.boundAlias,
    changed: false,
  };
  const outs = await converge(inputs, sessionFor(inputs), certificate, progress);
  return { outs };
}

/**
 * delete: by default leaves the server as it is (the certificate stays bound and in the
 * keystore). With `rebindPreviousOnDestroy`, binds `previousAlias` again, only while the machine
 * is still bound to this resource's certificate, and waits until it presents it. No certificate
 * is deleted.
 */
async function remove(_id: string, props: ServerCertificateOutputs): Promise<void> {
  const inputs = SERVER_CERTIFICATE.parse(props);
  const where = describeMachine(inputs);
  if (!inputs.rebindPreviousOnDestroy) {
    logInfo(
      `Left ${where} presenting ${props.boundAlias} (rebindPreviousOnDestroy is false); it is ` +
        "no longer managed by this stack.",
    );
    return;
  }
  const session = sessionFor(inputs);
  const machine = await explained(
    () => getMachine(session, inputs.machineName),
    (error) =>
      `Cannot bind ${props.previousAlias} again on ${where}: ${messageOf(error)}. The resource ` +
      "stays in the stack; run `pulumi destroy` again once the server answers.",
  );
  const bound = machine.webServerCertificateAlias ?? "";
  if (bound.toLowerCase() !== props.certificateAlias.toLowerCase()) {
    logInfo(
      `Left ${where} bound to ${bound}: it no longer presents ${props.certificateAlias}, so ` +
        "someone else changed it since.",
    );
    return;
  }
  const previous = props.previousAlias.toLowerCase();
  if (previous === "" || previous === props.certificateAlias.toLowerCase()) {
    // A create after a killed run found the machine bound to this certificate already: what was
    // bound before is unknown, and nothing is guessed.
    logInfo(
      `Left ${where} bound to ${bound}: the certificate bound before this stack is not known ` +
        "(the machine presented this one already when the resource was created).",
    );
    return;
  }
  const fingerprint = await explained(
    () => getSslCertificate(session, inputs.machineName, previous),
    (error) =>
      `Cannot bind ${props.previousAlias} again on ${where}: ${messageOf(error)}. The resource ` +
      "stays in the stack.",
  );
  const progress: Progress = {
    previousAlias: props.previousAlias,
    importedAliases: [],
    boundAlias: bound,
    changed: false,
  };
  await bindOnce(inputs, session, previous, progress);
  if (fingerprint.sha256Fingerprint !== undefined) {
    await waitUntilPresented(
      { ...inputs, caCertificates: [] },
      fingerprint.sha256Fingerprint,
      previous,
    );
  }
  logInfo(`Bound ${props.previousAlias} again as the web server certificate of ${where}.`);
}

/**
 * The ServerCertificate implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(SERVER_CERTIFICATE.rules, {
  refusals: (olds, inputs) => (certificateChanged(olds, inputs) ? certificateFailures(inputs) : []),
  diff,
  create,
  read,
  update,
  delete: remove,
});
