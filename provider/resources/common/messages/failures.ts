/**
 * What a failed step tells the user: the message of a failed operation, and a step whose failure is
 * thrown again as one error worded for the resource, the failure kept as its cause.
 */
import { CERTIFICATE_INPUTS } from "../pulumi/secrets";
import {
  type ArcGISRequestError,
  cleanUrl,
  isArcGISRequestError,
  permanentReason,
} from "../../../client";
import { createHash, X509Certificate } from "node:crypto";
import { describeError } from "../../../client/transport-error";
import { credentialsToCheck } from "../inputs/sources";

/**
 * The message for a failed operation: a client error already says which operation failed where,
 * anything else gets that prefix.
 */
export function failureMessage(operation: string, target: string, error: unknown): string {
  if (isArcGISRequestError(error)) return error.message;
  return `${operation} on ${target} failed: ${messageOf(error)}`;
}

/**
 * A PEM's SHA-256 fingerprint, as `openssl x509 -fingerprint -sha256` prints it, of its first
 * certificate; a text that is no certificate gets the SHA-256 of its bytes. Messages show this
 * instead of the PEM.
 */
export function fingerprintOf(pem: string): string {
  try {
    return `SHA-256 ${new X509Certificate(pem).fingerprint256}`;
  } catch {
    return `SHA-256 of the text ${createHash("sha256").update(pem).digest("hex").slice(0, 16)}…`;
  }
}

/**
 * One line per certificate input whose value differs between old and new inputs, naming both by
 * fingerprint: "tls.caCert changes from SHA-256 AB:… to SHA-256 CD:…".
 */
export function certificateChanges(olds: unknown, news: unknown): string[] {
  const lines: string[] = [];
  for (const path of CERTIFICATE_INPUTS) {
    const before = new Map(valuesAt(olds, path, ""));
    const after = new Map(valuesAt(news, path, ""));
    for (const label of new Set([...before.keys(), ...after.keys()])) {
      const is = after.get(label);
      // A value not known yet (preview) is said once it is known.
      if (is === UNKNOWN_VALUE) continue;
      const was = before.get(label);
      if (was === is) continue;
      const shown = (pem: string | undefined) => (pem === undefined ? "none" : fingerprintOf(pem));
      lines.push(`${label} changes from ${shown(was)} to ${shown(is)}.`);
    }
  }
  return lines;
}

/** The trimmed strings at a path (`*`: every item of a list), each with its dotted label. */
function valuesAt(value: unknown, path: readonly string[], label: string): Array<[string, string]> {
  if (path.length === 0) return typeof value === "string" ? [[label, value.trim()]] : [];
  const [head, ...rest] = path;
  if (head === "*") {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, i) => valuesAt(item, rest, `${label}[${i}]`));
  }
  if (value === null || typeof value !== "object") return [];
  const next = (value as Record<string, unknown>)[head!];
  return valuesAt(next, rest, label === "" ? head! : `${label}.${head!}`);
}

/** Pulumi's sentinel of a value not known yet during a preview. */
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Reads a message from anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a step; when it fails, throws an `Error` with the message `explain` words from the failure
 * (what failed, what it means for the resource, what to do), the failure as its `cause`.
 *
 * @example
 * ```ts
 * const current = await explained(
 *   () => readSettings(session),
 *   (error) => `${failureMessage("logs/settings", adminUrl, error)} Nothing was changed.`,
 * );
 * ```
 */
export async function explained<T>(
  step: () => Promise<T>,
  explain: (error: unknown) => string,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new Error(explain(error), { cause: error });
  }
}

/** The URL inputs of the resources, and what each should look like, for {@link whatToChange}. */
const URL_INPUTS: Record<string, string> = {
  adminUrl:
    "a server's administrative root, e.g. https://gis.example.com:6443/arcgis/admin (Mission Server: port 20443)",
  siteAdminUrl:
    "a server's administrative root, e.g. https://gis.example.com:6443/arcgis/admin (Mission Server: port 20443)",
  sharingUrl:
    "a portal's sharing API, e.g. https://gis.example.com/portal/sharing/rest or https://gis.example.com:7443/arcgis/sharing/rest",
};

/**
 * What to change when waiting cannot fix a failure (client/readiness.ts classifies it), naming
 * the input: the URL input whose server failed (found in `inputs` by the failed request's URL),
 * `tls.caCert`, and the inputs holding refused credentials (`username` and `password`, or
 * Federation's `serverUsername` and `serverPassword` for its server), with what supplies them on
 * this path. Undefined for any other failure. Never shows a secret: only URLs, the username and
 * the server's own words are quoted.
 *
 * @example
 * ```ts
 * whatToChange(error, { adminUrl: "http://gis:20443/arcgis/admin" })
 * // "adminUrl is an http:// URL on a port that speaks https: set adminUrl to https://gis:20443/arcgis/admin. …"
 * ```
 */
export function whatToChange(
  error: unknown,
  inputs: unknown,
  resource?: string,
): string | undefined {
  const failure = requestErrorIn(error);
  const reason = permanentReason(failure);
  if (failure === undefined || reason === undefined || reason === "aborted") return undefined;
  const values = (typeof inputs === "object" && inputs !== null ? inputs : {}) as Record<
    string,
    unknown
  >;
  const input = urlInputOf(failure, values);
  const name = input?.name ?? "the URL";
  const shown = input === undefined ? failure.url : input.value;
  const notWaited = "Waiting cannot change this, so it was not waited for.";
  switch (reason) {
    case "plain-http":
      return (
        `${name} is an http:// URL on a port that speaks https: set ${name} to ` +
        `${shown.replace(/^http:/i, "https:")}. ${notWaited}`
      );
    case "no-tls":
      return (
        `${name} (${shown}) is an https:// URL, but its port does not speak TLS: check the ` +
        `port in ${name} (the server's https port, e.g. 6443 or 20443). ${notWaited}`
      );
    case "not-found":
      return (
        `Nothing answers at ${name} (${shown}, HTTP 404): check the path of ${name}; it must be ` +
        `${URL_INPUTS[input?.name ?? ""] ?? "the service's root"}. ${notWaited}`
      );
    case "wrong-product":
      return (
        `${name} (${shown}) does not reach the product this resource declares: set ${name} to ` +
        `${URL_INPUTS[input?.name ?? ""] ?? "the right server"}, or serverType to the product ` +
        `that answers there. ${notWaited}`
      );
    case "tls-untrusted": {
      const tls = values["tls"] as { caCert?: unknown; caCertConfig?: unknown } | undefined;
      const given =
        typeof tls?.caCert === "string"
          ? " (the tls.caCert given does not match it)"
          : typeof tls?.caCertConfig === "string"
            ? ` (the certificate in stack config ${tls.caCertConfig}, tls.caCertConfig, does not match it)`
            : "";
      return (
        `The certificate of ${name} (${new URL(failure.url).origin}) is not trusted` +
        `${transportWords(failure)}: set tls.caCert to the PEM certificate of the CA that signed ` +
        `it${given} (or stack config arcgis-admin:caCert, or environment variable ` +
        `ARCGIS_ADMIN_CA_CERT); as a last resort, set tls.insecureSkipVerify: true. ${notWaited}`
      );
    }
    case "tls-expired":
    case "tls-not-yet-valid":
      return (
        `The certificate of ${name} (${new URL(failure.url).origin}), or one of its chain, ` +
        `${reason === "tls-expired" ? "has expired" : "is not valid yet"}` +
        `${transportWords(failure)}: ${
          reason === "tls-expired"
            ? "the server must present a renewed certificate (for a machine of a site, a ServerCertificate binds one)"
            : "check the clocks of this computer and of the server, or give the server a certificate valid now"
        }; trusting another CA (tls.caCert) does not change this. To reach the server meanwhile, ` +
        `set tls.insecureSkipVerify: true. ${notWaited}`
      );
    case "tls-hostname":
      return (
        `The certificate of ${name} (${new URL(failure.url).origin}) does not name the host ` +
        `${new URL(failure.url).hostname}${transportWords(failure)}: use in ${name} a host name ` +
        `the certificate names. ${notWaited}`
      );
    case "credentials": {
      const [userKey, passwordKey] = credentialInputs(resource, input?.name);
      const given = values[userKey];
      const user = typeof given === "string" ? ` "${given}"` : "";
      const said =
        failure.messages.length > 0 ? ` (it answered "${failure.messages.join(" ")}")` : "";
      const what = input?.name === "sharingUrl" ? "portal" : "server";
      return (
        `The ${what} at ${name} (${shown}) refused the username${user} with the password ` +
        `given${said}: ${credentialsToCheck(resource ?? "", [userKey, passwordKey])}. ${notWaited}`
      );
    }
    case "redirect":
      return (
        `${name} (${shown}) redirects elsewhere, which is never followed: put the address it ` +
        `redirects to into ${name} if it is the same server. ${notWaited}`
      );
  }
}

/**
 * The inputs holding the credentials sent to the server at `urlInput`: Federation signs in to its
 * server as `serverUsername`, every other sign-in uses `username` and `password`.
 */
function credentialInputs(resource: string | undefined, urlInput: string | undefined) {
  return resource === "Federation" && urlInput === "adminUrl"
    ? (["serverUsername", "serverPassword"] as const)
    : (["username", "password"] as const);
}

/** What the transport said of a TLS failure (its code), in parentheses; "" when it said nothing. */
function transportWords(failure: ArcGISRequestError): string {
  if (failure.cause === undefined) return "";
  const words = describeError(failure.cause);
  return words === "" ? "" : ` (${words})`;
}

/**
 * Words a failure waiting cannot fix once, for the resource (`whatToChange`): the client's own
 * message, which says the same in the client's terms (an operation, a URL, the transport's advice),
 * is replaced by the sentence naming the input, so that no sentence is said twice; a message that
 * does not carry it (worded by the resource) gets the sentence appended. Changes `error` in place.
 *
 * @param resource - the resource's class name, for the names of its credential inputs.
 */
export function wordForTheInput(error: Error, inputs: unknown, resource?: string): void {
  const change = whatToChange(error, inputs, resource);
  if (change === undefined || error.message.includes(change)) return;
  const failure = requestErrorIn(error);
  // Only where the sentence says all the client's message says (the client's advice repeated in
  // other words); elsewhere the client's facts (a product's evidence, a portal's address) stay.
  const own = REWORDED.includes(permanentReason(failure) ?? "aborted")
    ? failure?.message
    : undefined;
  const at = own === undefined || own === "" ? -1 : error.message.indexOf(own);
  if (at < 0) {
    error.message = `${error.message} ${change}`;
    return;
  }
  const after = error.message.slice(at + own!.length);
  // The resource's own punctuation after the client's message stays, without a second stop.
  const sentence = after.startsWith(".") ? change.replace(/\.$/, "") : change;
  error.message = `${error.message.slice(0, at)}${sentence}${after}`;
}

/** The reasons whose sentence replaces the client's message (see {@link wordForTheInput}). */
const REWORDED: readonly string[] = [
  "credentials",
  "tls-untrusted",
  "tls-hostname",
  "tls-expired",
  "tls-not-yet-valid",
];

/** The client's error in a failure: the failure itself, or one of its causes. */
function requestErrorIn(error: unknown): ArcGISRequestError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined; depth++) {
    if (isArcGISRequestError(current)) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** The URL input whose address the failed request went to: the longest one it starts with. */
function urlInputOf(
  failure: ArcGISRequestError,
  values: Record<string, unknown>,
): { name: string; value: string } | undefined {
  const target = cleanUrl(failure.url).toLowerCase();
  let best: { name: string; value: string } | undefined;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== "string" || !/^https?:\/\//i.test(value)) continue;
    const root = cleanUrl(value).toLowerCase();
    if (target !== root && !target.startsWith(`${root}/`)) continue;
    if (best === undefined || value.length > best.value.length) best = { name, value };
  }
  return best;
}
