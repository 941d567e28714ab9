/** The Pulumi resources, exported by name. */
export { Site, type SiteArgs } from "./site/generated";
export {
  type SiteConfigStoreConnection,
  type SiteDirectory,
  type SiteInputs,
  type SiteLogSettings,
  type SiteTimeouts,
} from "./site/generated";
export {
  type SiteOutputs,
  type SiteReportedConfigStore,
  type SiteReportedDirectory,
} from "./site/report";
export { siteProvider } from "./site/generated";
export { SiteExport, type SiteExportArgs } from "./site-export/generated";
export {
  type SiteExportInputs,
  type SiteExportOutputs,
  type SiteExportTimeouts,
} from "./site-export/generated";
export { siteExportProvider } from "./site-export/generated";
export { Collaboration, type CollaborationArgs } from "./collaboration/generated";
export { type CollaborationInputs, type CollaborationOutputs } from "./collaboration/generated";
export { collaborationProvider } from "./collaboration/generated";
export { Federation, type FederationArgs } from "./federation/generated";
export { type ServerRole, SERVER_ROLES } from "./federation/values";
export { type FederationInputs, type FederationOutputs } from "./federation/generated";
export { federationProvider } from "./federation/generated";
export { LogSettings, type LogSettingsArgs } from "./log-settings/generated";
export { type LogSettingsInputs, type LogSettingsOutputs } from "./log-settings/generated";
export { logSettingsProvider } from "./log-settings/generated";
export { SystemProperties, type SystemPropertiesArgs } from "./system-properties/generated";
export {
  type SystemPropertiesInputs,
  type SystemPropertiesOutputs,
} from "./system-properties/generated";
export {
  type ManagedSystemProperties,
  type ReportedSystemProperties,
} from "./system-properties/values";
export { systemPropertiesProvider } from "./system-properties/generated";
export { SiteUpgrade, type SiteUpgradeArgs } from "./site-upgrade/generated";
export { type SiteUpgradeInputs, type SiteUpgradeOutputs } from "./site-upgrade/generated";
export { type SiteUpgradeOutcome } from "./site-upgrade/values";
export { siteUpgradeProvider } from "./site-upgrade/generated";
export { SiteImport, type SiteImportArgs } from "./site-import/generated";
export { type SiteImportInputs, type SiteImportOutputs } from "./site-import/generated";
export { siteImportProvider } from "./site-import/generated";
export { SiteMachine, type SiteMachineArgs } from "./site-machine/generated";
export { type SiteMachineInputs, type SiteMachineOutputs } from "./site-machine/generated";
export { siteMachineProvider } from "./site-machine/generated";
export { ServerCertificate, type ServerCertificateArgs } from "./server-certificate/generated";
export {
  type CaCertificate,
  type ServerCertificateInputs,
  type ServerCertificateOutputs,
} from "./server-certificate/generated";
export { serverCertificateProvider } from "./server-certificate/generated";
export { WebAdaptor, type WebAdaptorArgs } from "./web-adaptor/generated";
export { type WebAdaptorInputs, type WebAdaptorOutputs } from "./web-adaptor/generated";
export { type WebAdaptorMode, WEB_ADAPTOR_MODES } from "./web-adaptor/values";
export { webAdaptorProvider } from "./web-adaptor/generated";
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
