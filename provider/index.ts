/**
 * pulumi-arcgis-admin: Pulumi dynamic resources that administer ArcGIS Enterprise, and the REST
 * client they are built on.
 *
 * Every export is listed here by name, and docs/api.md lists the same names (checked
 * by tests/package/api-surface.test.ts). Helpers of the client and of the resources are not part
 * of this entry; the repository's own tests and tools import them from their modules.
 *
 * @packageDocumentation
 */
import "./node-version";

// Resources: the classes a Pulumi program declares, their argument and output types.
export {
  Site,
  type SiteArgs,
  type SiteConfigStoreConnection,
  type SiteDirectory,
  type SiteInputs,
  type SiteLogSettings,
  type SiteOutputs,
  type SiteReportedConfigStore,
  type SiteReportedDirectory,
  type SiteTimeouts,
  siteProvider,
  SiteExport,
  type SiteExportArgs,
  type SiteExportInputs,
  type SiteExportOutputs,
  type SiteExportTimeouts,
  siteExportProvider,
  SiteMachine,
  type SiteMachineArgs,
  type SiteMachineInputs,
  type SiteMachineOutputs,
  siteMachineProvider,
  LogSettings,
  type LogSettingsArgs,
  type LogSettingsInputs,
  type LogSettingsOutputs,
  logSettingsProvider,
  SiteImport,
  type SiteImportArgs,
  type SiteImportInputs,
  type SiteImportOutputs,
  siteImportProvider,
  Collaboration,
  type CollaborationArgs,
  type CollaborationInputs,
  type CollaborationOutputs,
  collaborationProvider,
  // Shared by the resources: their base class, TLS settings, type tokens, connection defaults.
  ServerResource,
  type InputsOf,
  type TlsArgs,
  type TlsSettings,
  LEGACY_RESOURCE_TYPE,
  typeToken,
  CONFIG_NAMESPACE,
  CONNECTION_DEFAULTS,
  type PortalConnection,
  type ServerConnection,
  type ServerConnectionArgs,
} from "./resources";

// Client: sessions and their options.
export {
  ArcGISSession,
  AdminSession,
  PortalSession,
  createAdminSession,
  createPortalSession,
  type AdminSessionOptions,
  type PortalSessionOptions,
  type SessionCallOptions,
  type TransportOptions,
  type TlsOptions,
  type RequestTimeouts,
  type RetryPolicy,
  TokenCache,
  type TokenCacheOptions,
  generateToken,
  type GenerateTokenOptions,
  type TokenInfo,
  closeDispatchers,
  SERVER_TYPES,
  type ServerType,
} from "./client";

// Client: operations of the administrative API of a server machine or site.
export {
  siteStatus,
  type SiteStatus,
  serverInfo,
  type ServerInfo,
  healthCheck,
  type HealthCheckOptions,
  type HealthCheckResult,
  createNewSite,
  type CreateNewSiteParams,
  type ConfigStoreConnection,
  type DirectorySpec,
  deleteSite,
  exportSite,
  downloadExport,
  type DownloadDestination,
  type DownloadResult,
  importSite,
  uploadItem,
  listUploadedItems,
  type UploadedItemSummary,
  joinSite,
  type JoinSiteParams,
  type JoinSiteAnswer,
  listMachines,
  unregisterMachine,
  getLogSettings,
  editLogSettings,
  getConfigStore,
  type ReportedConfigStore,
  listDirectories,
  type ReportedDirectory,
  waitForServer,
  waitForSite,
  waitForImport,
  waitForJoin,
  type WaitOptions,
  type WaitStatus,
  type WaitForSiteTarget,
  type WaitForJoinTarget,
} from "./client";

// Client: operations of a portal's sharing API.
export {
  portalSelf,
  type PortalSelf,
  communitySelf,
  type CommunitySelf,
  getCollaboration,
  type CollaborationInfo,
  deleteCollaboration,
  removeParticipation,
} from "./client";

// Client: the error family and its guards.
export {
  ArcGISRequestError,
  type ArcGISErrorCode,
  type ArcGISRequestErrorInit,
  type ErrorFormat,
  isArcGISRequestError,
  isAuthError,
  isTransientError,
  isTlsError,
  isNotFoundError,
  isTokenRejectedError,
  hasServerCode,
} from "./client";
