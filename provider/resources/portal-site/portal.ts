/**
 * What a `PortalSite` asks its portal around createNewSite: the transport, whether the declared
 * administrator signs in (generateToken) and is the portal's administrator (community/self), and
 * the words for a portal that has its site already.
 */
import {
  communitySelf,
  createPortalSession,
  isAuthError,
  portalAdminUrlOf,
  TokenCache,
  type TransportOptions,
} from "../../client";
import { transportFor } from "../common/connection/tls";
import { messageOf } from "../common/messages/failures";
import { alreadyThereMessage } from "../common/messages/one-shot";
import type { PortalSiteInputs } from "./generated";

/** The transport options of the portal: its TLS settings, and `extra`. */
export function transportOf(
  inputs: PortalSiteInputs,
  extra: Omit<TransportOptions, "tls"> = {},
): TransportOptions {
  return transportFor(inputs.sharingUrl, inputs.tls, extra);
}

/** What to do when the portal has its site already and adoptExisting is not set. */
export function alreadyInSiteMessage(sharingUrl: string): string {
  return alreadyThereMessage({
    found: `The portal at ${sharingUrl} has its site already`,
    operation: "createNewSite",
    thing: "portal's site",
    credentials: "an administrator of that portal as username and password",
  });
}

/** Where a user can look to see whether the portal has its site, for messages. */
export function whereToCheck(inputs: PortalSiteInputs): string {
  return (
    `${portalAdminUrlOf(inputs.sharingUrl)}/?f=json answers code 499 (token required) once the ` +
    `portal has its site, and ${inputs.sharingUrl}/generateToken gives ${inputs.username} a ` +
    "token once it is that site's administrator"
  );
}

/** The declared administrator's session, with a token cache of its own (no token from before). */
function administratorSession(inputs: PortalSiteInputs) {
  return createPortalSession({
    sharingUrl: inputs.sharingUrl,
    username: inputs.username,
    password: inputs.password,
    tokenCache: new TokenCache(),
    ...transportOf(inputs),
  });
}

/**
 * Whether the portal's site is the one this stack asked for, after a lost answer: the declared
 * administrator signs in (generateToken, DSC's check after its createNewSite) and the portal
 * reports that account as an administrator (`community/self` role `org_admin`). Returns true, or
 * why not.
 */
export async function isOurPortalSite(inputs: PortalSiteInputs): Promise<true | string> {
  const session = administratorSession(inputs);
  try {
    const self = await communitySelf(session);
    if (self.role === "org_admin" && self.username === inputs.username) return true;
    return `${inputs.username} signs in, but the portal reports the role ${self.role ?? "(none)"}, not org_admin`;
  } catch (error) {
    if (isAuthError(error)) {
      return `the portal does not accept ${inputs.username} with the declared password`;
    }
    return `the portal could not be asked whether ${inputs.username} is its administrator (${messageOf(error)})`;
  }
}

/**
 * Proves that the declared administrator signs in to the portal; else throws, `prefix` saying in
 * which step.
 */
export async function proveAdministrator(inputs: PortalSiteInputs, prefix: string): Promise<void> {
  try {
    await administratorSession(inputs).token();
  } catch (error) {
    const why = isAuthError(error)
      ? "the portal does not accept them"
      : `they could not be checked (${messageOf(error)})`;
    throw new Error(
      `${prefix} the credentials of ${inputs.username} could not obtain a token from ` +
        `${inputs.sharingUrl}/generateToken: ${why}. Give an administrator of the portal as ` +
        "username and password. This resource never changes an account on the portal.",
      { cause: error },
    );
  }
}
