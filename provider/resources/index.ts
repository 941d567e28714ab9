/** The Pulumi resources, exported by name. */
export { Site, type SiteArgs } from "./site/resource";
export {
  type SiteConfigStoreConnection,
  type SiteDirectory,
  type SiteInputs,
  type SiteLogSettings,
  type SiteTimeouts,
} from "./site/inputs";
export {
  type SiteOutputs,
  type SiteReportedConfigStore,
  type SiteReportedDirectory,
} from "./site/report";
export { siteProvider } from "./site/resource";
export { SiteExport, type SiteExportArgs } from "./site-export/resource";
export {
  type SiteExportInputs,
  type SiteExportOutputs,
  type SiteExportTimeouts,
} from "./site-export/inputs";
export { siteExportProvider } from "./site-export/resource";
export { Collaboration, type CollaborationArgs } from "./collaboration/resource";
export { type CollaborationInputs, type CollaborationOutputs } from "./collaboration/inputs";
export { collaborationProvider } from "./collaboration/resource";
export {
  Federation,
  type FederationArgs,
  type ServerRole,
  SERVER_ROLES,
} from "./federation/resource";
export { type FederationInputs, type FederationOutputs } from "./federation/inputs";
export { federationProvider } from "./federation/resource";
export { LogSettings, type LogSettingsArgs } from "./log-settings/resource";
export { type LogSettingsInputs, type LogSettingsOutputs } from "./log-settings/inputs";
export { logSettingsProvider } from "./log-settings/resource";
export { SystemProperties, type SystemPropertiesArgs } from "./system-properties/resource";
export {
  type ManagedSystemProperties,
  type ReportedSystemProperties,
  type SystemPropertiesInputs,
  type SystemPropertiesOutputs,
} from "./system-properties/inputs";
export { systemPropertiesProvider } from "./system-properties/resource";
export { SiteUpgrade, type SiteUpgradeArgs } from "./site-upgrade/resource";
export {
  type SiteUpgradeInputs,
  type SiteUpgradeOutcome,
  type SiteUpgradeOutputs,
} from "./site-upgrade/inputs";
export { siteUpgradeProvider } from "./site-upgrade/resource";
export { SiteImport, type SiteImportArgs } from "./site-import/resource";
export { type SiteImportInputs, type SiteImportOutputs } from "./site-import/inputs";
export { siteImportProvider } from "./site-import/resource";
export { SiteMachine, type SiteMachineArgs } from "./site-machine/resource";
export { type SiteMachineInputs, type SiteMachineOutputs } from "./site-machine/inputs";
export { siteMachineProvider } from "./site-machine/resource";
export { ServerCertificate, type ServerCertificateArgs } from "./server-certificate/resource";
export {
  type CaCertificate,
  type ServerCertificateInputs,
  type ServerCertificateOutputs,
} from "./server-certificate/inputs";
export { serverCertificateProvider } from "./server-certificate/resource";
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
