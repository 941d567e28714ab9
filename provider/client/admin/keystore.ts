/**
 * What the operations on a machine's keystore (`machines/<machine>/sslcertificates`) share: its
 * paths, and the wording of an alias it does not hold.
 */
import { isArcGISRequestError } from "../errors";
import { requestError } from "../response";
import type { AdminSession } from "../session";

/**
 * The path of a machine's resource under the admin root.
 *
 * @param machineName - the machine's name as the site lists it.
 * @returns e.g. `machines/GIS1.EXAMPLE.COM`.
 * @example
 * ```ts
 * machinePath("gis1.example.com") // "machines/gis1.example.com"
 * ```
 * Builds a path; sends no request.
 *
 * @internal
 */
export function machinePath(machineName: string): string {
  return `machines/${encodeURIComponent(machineName)}`;
}

/**
 * The path of a machine's keystore, in the lower-case spelling Chef and every product's pages use
 * (DSC writes `sslCertificates`; both are served).
 *
 * @param machineName - the machine's name as the site lists it.
 * @param below - a certificate's alias or an operation, if any.
 * @returns e.g. `machines/GIS1/sslcertificates/importRootOrIntermediate`.
 * @example
 * ```ts
 * keystorePath("gis1", "importRootOrIntermediate")
 * ```
 * Builds a path; sends no request.
 *
 * @internal
 */
export function keystorePath(machineName: string, ...below: string[]): string {
  return [`${machinePath(machineName)}/sslcertificates`, ...below.map(encodeURIComponent)].join(
    "/",
  );
}

/**
 * Words a 404 from a certificate's path: the keystore is listed (a read) to tell an alias it does
 * not hold from a machine the site does not have, and the error names which, with the aliases it
 * holds. Anything else, and a list that fails, leave the error as it was.
 *
 * @param session - the admin session.
 * @param machineName - the machine.
 * @param alias - the alias asked for.
 * @param error - the failure of the call.
 * @param operation - the operation's name for the message.
 * @returns the error to throw.
 * @example
 * ```ts
 * catch (e) { throw await unknownAliasError(session, machine, alias, e, "sslcertificates/<alias>"); }
 * ```
 * Maps to: `GET {admin_root}/machines/<machine>/sslcertificates` after a 404.
 *
 * @internal
 */
export async function unknownAliasError(
  session: AdminSession,
  machineName: string,
  alias: string,
  error: unknown,
  operation: string,
): Promise<unknown> {
  if (!isArcGISRequestError(error) || error.serverCode !== 404) return error;
  let held: string[];
  try {
    const list = await session.call(
      keystorePath(machineName),
      {},
      { method: "GET", idempotent: true, operation: "sslcertificates" },
    );
    held = aliasesOf(list) ?? [];
  } catch {
    return error;
  }
  const server = error.messages.join(" ");
  return requestError(
    { operation, url: error.url, secrets: session.secrets() },
    "SERVER",
    `the keystore of machine '${machineName}' holds no certificate under the alias '${alias}' ` +
      `(it holds: ${held.length === 0 ? "none" : held.join(", ")}).` +
      (server === "" ? "" : ` The server said: ${server}`),
    {
      serverCode: 404,
      messages: error.messages,
      cause: error,
      ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
      ...(error.errorFormat === undefined ? {} : { errorFormat: error.errorFormat }),
    },
  );
}

/**
 * The aliases of a keystore list: `certificates` on ArcGIS, Mission and Notebook Server (their
 * pages), `sslCertificates` on Video Server (its page) and where DSC reads Mission and Notebook
 * Server's; either is read, `certificates` first.
 *
 * @param body - the list's answer.
 * @returns the aliases, or undefined when neither key holds a list of strings.
 * @example
 * ```ts
 * aliasesOf({ sslCertificates: ["selfsignedcertificate"] }) // ["selfsignedcertificate"]
 * ```
 * Reads an answer; sends no request.
 *
 * @internal
 */
export function aliasesOf(body: Record<string, unknown>): string[] | undefined {
  for (const key of ["certificates", "sslCertificates"]) {
    const value = body[key];
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
  }
  return undefined;
}
