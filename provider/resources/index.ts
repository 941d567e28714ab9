/** The Pulumi resources: one file each (schema, implementation, provider, Resource class). */
export { Site, type SiteArgs, type SiteInputs, type SiteOutputs, siteProvider } from "./site";
export {
  SiteExport,
  type SiteExportArgs,
  type SiteExportInputs,
  type SiteExportOutputs,
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
