/**
 * The portal's administrative API under {@link PORTALADMIN_PREFIX} (`{portal}/portaladmin`): its
 * federation resource (portal/federation.ts). Errors are in the sharing API's form, which Chef's
 * `validate_response` reads (`error.message`), for both APIs of the portal.
 */
import { SharingError, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import { handleFederation } from "./federation";
import { requireAdmin } from "./sharing-api";

/** Path of the portal's administrative root. */
export const PORTALADMIN_PREFIX = "/portal/portaladmin";

/** Handles one request under {@link PORTALADMIN_PREFIX}. */
export async function handlePortalAdmin(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const [first, ...rest] = req.segments;
  if (first === "federation") {
    requireAdmin(rt, req);
    return handleFederation(rt, req, rest);
  }
  throw new SharingError(
    404,
    `Could not find resource or operation '${req.segments.at(-1) ?? ""}' on the system.`,
  );
}
