/**
 * The Pulumi resources: each one's generated.ts whole, and the names its definition's
 * `publicExports` lists.
 */
// resources: generated from provider/resources/registry.ts (npm run build)
export * from "./site/generated";
export { type SiteReportedDirectory, type SiteReportedConfigStore } from "./site/values";
export * from "./site-export/generated";
export * from "./site-import/generated";
export * from "./site-machine/generated";
export * from "./log-settings/generated";
export * from "./system-properties/generated";
export {
  type ManagedSystemProperties,
  type ReportedSystemProperties,
} from "./system-properties/values";
export * from "./site-upgrade/generated";
export { type SiteUpgradeOutcome } from "./site-upgrade/values";
export * from "./server-certificate/generated";
export * from "./security-settings/generated";
export { type ReportedSecuritySettings, type TlsProtocol } from "./security-settings/values";
export * from "./portal-site/generated";
export * from "./collaboration/generated";
export * from "./federation/generated";
export { type ServerRole, SERVER_ROLES } from "./federation/values";
export * from "./web-adaptor/generated";
export { type WebAdaptorMode, WEB_ADAPTOR_MODES } from "./web-adaptor/values";
// /resources
export { type InputsOf, type TlsArgs, type TlsSettings } from "./common/connection/tls";
export { ServerResource, type ServerResourceArgs } from "./common/base/server-resource";
export { type PortalConnectionArgs, PortalResource } from "./common/base/portal-resource";
export { LEGACY_RESOURCE_TYPE, TYPE_MODULE, typeToken } from "./common/pulumi/resource-options";
export {
  CONFIG_NAMESPACE,
  CONNECTION_DEFAULTS,
  type PortalConnection,
  type ServerConnection,
  type ServerConnectionArgs,
} from "./common/connection/resolve";
