/** The Pulumi resources, one module each; Site's in site-*.ts (inputs, lifecycle, class). */
export { Site, type SiteArgs } from "./site-resource";
export {
  type SiteConfigStoreConnection,
  type SiteDirectory,
  type SiteInputs,
  type SiteLogSettings,
  type SiteTimeouts,
} from "./site-inputs";
export { type SiteOutputs } from "./site-report";
export { siteProvider } from "./site";
export {
  SiteExport,
  type SiteExportArgs,
  type SiteExportInputs,
  type SiteExportOutputs,
  type SiteExportTimeouts,
  siteExportProvider,
} from "./site-export";
export {
  Collaboration,
  type CollaborationArgs,
  type CollaborationInputs,
  type CollaborationOutputs,
  collaborationProvider,
} from "./collaboration";
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
