/** Operations of the portal's sharing API, one per file. */
export * from "./portalSelf";
export * from "./communitySelf";
export * from "./paths";
export * from "./getCollaboration";
export * from "./deleteCollaboration";
export * from "./removeParticipation";
export * from "./federatedServers";
export * from "./federateServer";
export * from "./updateFederatedServer";
export * from "./unfederateServer";
export * from "./rootCertificates";
export { isNotFoundError } from "../errors";
export * from "./createPortalSite";
export * from "./portalSiteStatus";
export * from "./waitForPortalSite";
