/** The Pulumi resources: one file each (schema, implementation, provider, Resource class). */
export {
  Site,
  type SiteArgs,
  type SiteConfigStoreConnection,
  type SiteDirectory,
  type SiteInputs,
  type SiteLogSettings,
  type SiteOutputs,
  type SiteTimeouts,
  siteProvider,
} from "./site";
export { SiteExport, type SiteExportArgs } from "./site-export-resource";
export {
  type SiteExportInputs,
  type SiteExportOutputs,
  type SiteExportTimeouts,
} from "./site-export-inputs";
export { siteExportProvider } from "./site-export";
export { Collaboration, type CollaborationArgs } from "./collaboration-resource";
export { type CollaborationInputs, type CollaborationOutputs } from "./collaboration-inputs";
export { collaborationProvider } from "./collaboration";
export {
  LogSettings,
  type LogSettingsArgs,
  type LogSettingsInputs,
  type LogSettingsOutputs,
  logSettingsProvider,
} from "./log-settings";
export {
  SiteImport,
  type SiteImportArgs,
  type SiteImportInputs,
  type SiteImportOutputs,
  siteImportProvider,
} from "./site-import";
export {
  SiteMachine,
  type SiteMachineArgs,
  type SiteMachineInputs,
  type SiteMachineOutputs,
  siteMachineProvider,
} from "./site-machine";
export { type InputsOf, type TlsArgs, type TlsSettings } from "./tls";
export { LEGACY_RESOURCE_TYPE, TYPE_MODULE, typeToken } from "./resource-options";
export {
  CONFIG_NAMESPACE,
  CONNECTION_DEFAULTS,
  type PortalConnection,
  type ServerConnection,
} from "./connection";
