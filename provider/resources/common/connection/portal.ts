/**
 * The portal session of a portal resource (Collaboration, Federation; PortalSite opens its own):
 * its sharing URL, its credentials as given (username and password, or a token) and its TLS
 * settings.
 */
import { createPortalSession, type PortalSession } from "../../../client";
import { type TlsSettings, transportFor } from "./tls";

/** What a portal resource's inputs hold of its portal. */
export interface PortalAccess {
  sharingUrl: string;
  username?: string | undefined;
  password?: string | undefined;
  token?: string | undefined;
  tls?: TlsSettings | undefined;
}

/**
 * A session with the portal the inputs name, with the credentials they give.
 *
 * @internal
 */
export function portalSessionFor(inputs: PortalAccess): PortalSession {
  const credentials: { username?: string; password?: string; token?: string } = {};
  if (inputs.token !== undefined) credentials.token = inputs.token;
  if (inputs.username !== undefined) credentials.username = inputs.username;
  if (inputs.password !== undefined) credentials.password = inputs.password;
  return createPortalSession({
    sharingUrl: inputs.sharingUrl,
    ...credentials,
    ...transportFor(inputs.sharingUrl, inputs.tls),
  });
}
