/**
 * The signed-in user of a portal request, and the checks every portal API makes of it (a token,
 * an administrator). Apart from the sharing API so that the apps and portaladmin pages check
 * alike without importing it (and it them) in a circle.
 */
import { SharingError, type ApiRequest } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { PortalUser } from "../core/state";
import { checkToken, presentedToken } from "../core/tokens";

function tokenRequired(): SharingError {
  return new SharingError(499, "Token Required");
}

function forbidden(): SharingError {
  return new SharingError(
    403,
    "You do not have permissions to access this resource or perform this operation.",
  );
}

/** The signed-in user of a request: null without a token; a bad token is a 498. */
export function currentUser(rt: Runtime, req: ApiRequest): PortalUser | null {
  const state = rt.store.current;
  const token = presentedToken(req.headers, req.params);
  if (token === null) return null;
  const check = checkToken(token, {
    secret: state.tokenSecret,
    audience: "portal",
    scope: state.portal.id,
    epoch: state.tokenEpoch,
    now: Date.now(),
    referer: req.headers.referer,
    remoteAddress: req.remoteAddress,
  });
  const user = check.ok
    ? state.portal.users.find((u) => u.username === check.claims.sub)
    : undefined;
  if (user === undefined) throw new SharingError(498, "Invalid token.");
  return user;
}

/** The signed-in user of a request (499 without a token). */
export function requireUser(rt: Runtime, req: ApiRequest): PortalUser {
  const user = currentUser(rt, req);
  if (user === null) throw tokenRequired();
  return user;
}

/** The signed-in portal administrator of a request (499 without a token, 403 for a user). */
export function requireAdmin(rt: Runtime, req: ApiRequest): PortalUser {
  const user = requireUser(rt, req);
  if (user.role !== "org_admin") throw forbidden();
  return user;
}
