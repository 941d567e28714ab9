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
export { LEGACY_RESOURCE_TYPE, TYPE_MODULE, typeToken } from "./common";
