/**
 * The value types Federation's generated types name: the server roles. A leaf module (it imports
 * nothing), so that the generated types, the class and the definition share them without an
 * import circle.
 */

/** The server roles a portal takes (Chef's `update_server`; the portal's update docs). */
export const SERVER_ROLES = [
  "FEDERATED_SERVER",
  "FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING",
  "HOSTING_SERVER",
] as const;

/** One of {@link SERVER_ROLES}. */
export type ServerRole = (typeof SERVER_ROLES)[number];
