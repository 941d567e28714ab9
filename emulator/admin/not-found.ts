/**
 * The administrative API's answer to an unknown resource or operation. A leaf module, so that the
 * API's dispatcher and the parts it dispatches to word it alike without an import circle.
 */
import { AdminError } from "../core/http";

/** The 404 of an unknown resource or operation, in a real server's words. */
export function notFoundError(name: string): AdminError {
  return new AdminError(404, [`Could not find resource or operation '${name}' on the system.`]);
}
