/**
 * What downloadExport and uploadExport share besides the download URL: the answer that earns the
 * token one renewal, and the transport overrides a caller set.
 */
import { isArcGISRequestError } from "../errors";
import type { TransportOptions } from "../dispatcher";

/**
 * A download goes without f=json (which would describe the item instead of sending it), so a
 * server shows a token it no longer accepts as an HTML page (its error view or a login page) with
 * HTTP 200, not as a JSON 498: such an answer gets one renewal of the token too.
 */
export function isHtmlInsteadOfFile(e: unknown): boolean {
  return (
    isArcGISRequestError(e) &&
    e.code === "BAD_RESPONSE" &&
    e.httpStatus === 200 &&
    e.message.includes("the server answered an HTML page")
  );
}

/** The transport overrides a caller actually set. */
export function definedFields(t: TransportOptions): TransportOptions {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
}
