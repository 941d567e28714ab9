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
import type * as Client from "./client";

// Resources: the classes a Pulumi program declares, their argument, input and output types and
// their dynamic providers, one resource after the other in the registry's order.
export {
  // resources: generated from provider/resources/registry.ts (npm run build)
  Site,
  type SiteArgs,
  type SiteInputs,
  type SiteOutputs,
  type SiteConfigStoreConnection,
  type SiteDirectory,
  type SiteLogSettings,
  type SiteTimeouts,
  type SiteReportedDirectory,
  type SiteReportedConfigStore,
  siteProvider,
  SiteExport,
  type SiteExportArgs,
  type SiteExportInputs,
  type SiteExportOutputs,
  type SiteExportTimeouts,
  siteExportProvider,
  SiteImport,
  type SiteImportArgs,
  type SiteImportInputs,
  type SiteImportOutputs,
  siteImportProvider,
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
  SystemProperties,
  type SystemPropertiesArgs,
  type SystemPropertiesInputs,
  type SystemPropertiesOutputs,
  type ManagedSystemProperties,
  type ReportedSystemProperties,
  systemPropertiesProvider,
  SiteUpgrade,
  type SiteUpgradeArgs,
  type SiteUpgradeInputs,
  type SiteUpgradeOutputs,
  type SiteUpgradeOutcome,
  siteUpgradeProvider,
  ServerCertificate,
  type ServerCertificateArgs,
  type ServerCertificateInputs,
  type ServerCertificateOutputs,
  type CaCertificate,
  serverCertificateProvider,
  SecuritySettings,
  type SecuritySettingsArgs,
  type SecuritySettingsInputs,
  type SecuritySettingsOutputs,
  type ReportedSecuritySettings,
  type TlsProtocol,
  securitySettingsProvider,
  PortalSite,
  type PortalSiteArgs,
  type PortalSiteInputs,
  type PortalSiteOutputs,
  type PortalContentStore,
  type PortalSiteTimeouts,
  portalSiteProvider,
  Collaboration,
  type CollaborationArgs,
  type CollaborationInputs,
  type CollaborationOutputs,
  collaborationProvider,
  Federation,
  type FederationArgs,
  type FederationInputs,
  type FederationOutputs,
  type FederationServerCertificate,
  type ServerRole,
  SERVER_ROLES,
  federationProvider,
  WebAdaptor,
  type WebAdaptorArgs,
  type WebAdaptorInputs,
  type WebAdaptorOutputs,
  type WebAdaptorMode,
  WEB_ADAPTOR_MODES,
  webAdaptorProvider,
  // /resources
  // Shared by the resources: their base class, TLS settings, type tokens, connection defaults.
  ServerResource,
  type ServerResourceArgs,
  PortalResource,
  type InputsOf,
  type TlsArgs,
  type TlsSettings,
  LEGACY_RESOURCE_TYPE,
  typeToken,
  CONFIG_NAMESPACE,
  CONNECTION_DEFAULTS,
  type PortalConnection,
  type PortalConnectionArgs,
  type ServerConnection,
  type ServerConnectionArgs,
} from "./resources";

// The client: its types are exported as they are; its values are declared here with the
// client's types and defined at the end of this file as getters that load the client the first
// time one of them is read. A program that imports the package for its resource classes then does
// not load the client, and with it undici and zod (some 270 modules), in its own process; the
// provider host loads it when the engine calls a resource's lifecycle.

// Client: sessions and their options.
export type {
  AdminSessionOptions,
  PortalSessionOptions,
  SessionCallOptions,
  TransportOptions,
  TlsOptions,
  RequestTimeouts,
  RetryPolicy,
  TokenCacheOptions,
  GenerateTokenOptions,
  TokenInfo,
  ServerType,
} from "./client";
export declare const ArcGISSession: typeof Client.ArcGISSession;
export type ArcGISSession = Client.ArcGISSession;
export declare const AdminSession: typeof Client.AdminSession;
export type AdminSession = Client.AdminSession;
export declare const PortalSession: typeof Client.PortalSession;
export type PortalSession = Client.PortalSession;
export declare const createAdminSession: typeof Client.createAdminSession;
export declare const createPortalSession: typeof Client.createPortalSession;
export declare const TokenCache: typeof Client.TokenCache;
export type TokenCache = Client.TokenCache;
export declare const generateToken: typeof Client.generateToken;
export declare const closeDispatchers: typeof Client.closeDispatchers;
export declare const SERVER_TYPES: typeof Client.SERVER_TYPES;

// Client: operations of the administrative API of a server machine or site.
export type {
  SiteStatus,
  ServerInfo,
  HealthCheckOptions,
  HealthCheckResult,
  CreateNewSiteParams,
  ConfigStoreConnection,
  DirectorySpec,
  DownloadDestination,
  DownloadResult,
  UploadedItemSummary,
  JoinSiteParams,
  JoinSiteAnswer,
  ReportedConfigStore,
  ReportedDirectory,
  WaitOptions,
  WaitStatus,
  WaitForSiteTarget,
  WaitForJoinTarget,
  SslCertificate,
  ImportRootOrIntermediateParams,
  ImportExistingServerCertificateParams,
  MachineInfo,
  MachineChanges,
  UpgradeState,
  UpgradeStatus,
  CompleteUpgradeParams,
  CompletedUpgrade,
  PresentedCertificateOptions,
  PresentedCertificate,
  PresentedCertificateTrust,
} from "./client";
export declare const siteStatus: typeof Client.siteStatus;
export declare const serverInfo: typeof Client.serverInfo;
export declare const healthCheck: typeof Client.healthCheck;
export declare const createNewSite: typeof Client.createNewSite;
export declare const deleteSite: typeof Client.deleteSite;
export declare const exportSite: typeof Client.exportSite;
export declare const downloadExport: typeof Client.downloadExport;
export declare const importSite: typeof Client.importSite;
export declare const uploadItem: typeof Client.uploadItem;
export declare const listUploadedItems: typeof Client.listUploadedItems;
export declare const joinSite: typeof Client.joinSite;
export declare const listMachines: typeof Client.listMachines;
export declare const unregisterMachine: typeof Client.unregisterMachine;
export declare const getLogSettings: typeof Client.getLogSettings;
export declare const editLogSettings: typeof Client.editLogSettings;
export declare const getConfigStore: typeof Client.getConfigStore;
export declare const listDirectories: typeof Client.listDirectories;
export declare const waitForServer: typeof Client.waitForServer;
export declare const waitForSite: typeof Client.waitForSite;
export declare const waitForImport: typeof Client.waitForImport;
export declare const waitForJoin: typeof Client.waitForJoin;
export declare const listSslCertificates: typeof Client.listSslCertificates;
export declare const getSslCertificate: typeof Client.getSslCertificate;
export declare const importRootOrIntermediate: typeof Client.importRootOrIntermediate;
export declare const importExistingServerCertificate: typeof Client.importExistingServerCertificate;
export declare const deleteSslCertificate: typeof Client.deleteSslCertificate;
export declare const getMachine: typeof Client.getMachine;
export declare const editMachine: typeof Client.editMachine;
export declare const getSystemProperties: typeof Client.getSystemProperties;
export declare const updateSystemProperties: typeof Client.updateSystemProperties;
export declare const getUpgradeStatus: typeof Client.getUpgradeStatus;
export declare const completeUpgrade: typeof Client.completeUpgrade;
export declare const waitForUpgrade: typeof Client.waitForUpgrade;
export declare const upgradeRunsAsync: typeof Client.upgradeRunsAsync;
export declare const presentedCertificate: typeof Client.presentedCertificate;
export declare const normalizeFingerprint: typeof Client.normalizeFingerprint;

// Client: operations of a portal's sharing API.
export type {
  PortalSelf,
  FederatedServer,
  PortalCertificate,
  FederateServerParams,
  CommunitySelf,
  CollaborationInfo,
} from "./client";
export declare const portalSelf: typeof Client.portalSelf;
export declare const federatedServers: typeof Client.federatedServers;
export declare const federateServer: typeof Client.federateServer;
export declare const updateFederatedServer: typeof Client.updateFederatedServer;
export declare const unfederateServer: typeof Client.unfederateServer;
export declare const portalCertificate: typeof Client.portalCertificate;
export declare const importRootCertificate: typeof Client.importRootCertificate;
export declare const communitySelf: typeof Client.communitySelf;
export declare const getCollaboration: typeof Client.getCollaboration;
export declare const deleteCollaboration: typeof Client.deleteCollaboration;

// Client: a Web Adaptor's configuration page, and a server's or portal's list of Web Adaptors.
export type {
  ConfigureWebAdaptorParams,
  RegisteredWebAdaptor,
  WebAdaptorRegistrar,
} from "./client";
export declare const configureWebAdaptor: typeof Client.configureWebAdaptor;
export declare const listWebAdaptors: typeof Client.listWebAdaptors;
export declare const unregisterWebAdaptor: typeof Client.unregisterWebAdaptor;
export declare const removeParticipation: typeof Client.removeParticipation;

// Client: the error family and its guards.
export type {
  ArcGISErrorCode,
  ArcGISRequestErrorInit,
  ErrorFormat,
  PermanentReason,
} from "./client";
export declare const ArcGISRequestError: typeof Client.ArcGISRequestError;
export type ArcGISRequestError = Client.ArcGISRequestError;
export declare const isArcGISRequestError: typeof Client.isArcGISRequestError;
export declare const isAuthError: typeof Client.isAuthError;
export declare const isTransientError: typeof Client.isTransientError;
export declare const isTlsError: typeof Client.isTlsError;
export declare const isNotFoundError: typeof Client.isNotFoundError;
export declare const isTokenRejectedError: typeof Client.isTokenRejectedError;
export declare const hasServerCode: typeof Client.hasServerCode;

/** The client's values that this entry exports, each read from the client on first use. */
const CLIENT_VALUES = [
  "ArcGISSession",
  "AdminSession",
  "PortalSession",
  "createAdminSession",
  "createPortalSession",
  "TokenCache",
  "generateToken",
  "closeDispatchers",
  "SERVER_TYPES",
  "siteStatus",
  "serverInfo",
  "healthCheck",
  "createNewSite",
  "deleteSite",
  "exportSite",
  "downloadExport",
  "importSite",
  "uploadItem",
  "listUploadedItems",
  "joinSite",
  "listMachines",
  "unregisterMachine",
  "getLogSettings",
  "editLogSettings",
  "getConfigStore",
  "listDirectories",
  "waitForServer",
  "waitForSite",
  "waitForImport",
  "waitForJoin",
  "listSslCertificates",
  "getSslCertificate",
  "importRootOrIntermediate",
  "importExistingServerCertificate",
  "deleteSslCertificate",
  "getMachine",
  "editMachine",
  "getSystemProperties",
  "updateSystemProperties",
  "getUpgradeStatus",
  "completeUpgrade",
  "waitForUpgrade",
  "upgradeRunsAsync",
  "presentedCertificate",
  "normalizeFingerprint",
  "portalSelf",
  "federatedServers",
  "federateServer",
  "updateFederatedServer",
  "unfederateServer",
  "configureWebAdaptor",
  "listWebAdaptors",
  "unregisterWebAdaptor",
  "portalCertificate",
  "importRootCertificate",
  "communitySelf",
  "getCollaboration",
  "deleteCollaboration",
  "removeParticipation",
  "ArcGISRequestError",
  "isArcGISRequestError",
  "isAuthError",
  "isTransientError",
  "isTlsError",
  "isNotFoundError",
  "isTokenRejectedError",
  "hasServerCode",
] as const satisfies readonly (keyof typeof Client)[];

let client: typeof Client | undefined;
for (const name of CLIENT_VALUES) {
  Object.defineProperty(exports, name, {
    enumerable: true,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
    get: () => (client ??= require("./client") as typeof Client)[name],
  });
}

// The same names for Node's ES module loader, which finds the exports of a CommonJS module by
// reading its text (cjs-module-lexer detects `exports.<name> =`): never evaluated.
/* eslint-disable no-constant-binary-expression, @typescript-eslint/no-unused-expressions, @typescript-eslint/no-unsafe-member-access -- read by the loader, not run */
0 &&
  (exports.ArcGISSession =
    exports.AdminSession =
    exports.PortalSession =
    exports.createAdminSession =
    exports.createPortalSession =
    exports.TokenCache =
    exports.generateToken =
    exports.closeDispatchers =
    exports.SERVER_TYPES =
    exports.siteStatus =
    exports.serverInfo =
    exports.healthCheck =
    exports.createNewSite =
    exports.deleteSite =
    exports.exportSite =
    exports.downloadExport =
    exports.importSite =
    exports.uploadItem =
    exports.listUploadedItems =
    exports.joinSite =
    exports.listMachines =
    exports.unregisterMachine =
    exports.getLogSettings =
    exports.editLogSettings =
    exports.getConfigStore =
    exports.listDirectories =
    exports.waitForServer =
    exports.waitForSite =
    exports.waitForImport =
    exports.waitForJoin =
    exports.listSslCertificates =
    exports.getSslCertificate =
    exports.importRootOrIntermediate =
    exports.importExistingServerCertificate =
    exports.deleteSslCertificate =
    exports.getMachine =
    exports.editMachine =
    exports.getSystemProperties =
    exports.updateSystemProperties =
    exports.getUpgradeStatus =
    exports.completeUpgrade =
    exports.waitForUpgrade =
    exports.upgradeRunsAsync =
    exports.presentedCertificate =
    exports.normalizeFingerprint =
    exports.portalSelf =
    exports.federatedServers =
    exports.federateServer =
    exports.updateFederatedServer =
    exports.unfederateServer =
    exports.configureWebAdaptor =
    exports.listWebAdaptors =
    exports.unregisterWebAdaptor =
    exports.portalCertificate =
    exports.importRootCertificate =
    exports.communitySelf =
    exports.getCollaboration =
    exports.deleteCollaboration =
    exports.removeParticipation =
    exports.ArcGISRequestError =
    exports.isArcGISRequestError =
    exports.isAuthError =
    exports.isTransientError =
    exports.isTlsError =
    exports.isNotFoundError =
    exports.isTokenRejectedError =
    exports.hasServerCode =
      undefined);
/* eslint-enable no-constant-binary-expression, @typescript-eslint/no-unused-expressions, @typescript-eslint/no-unsafe-member-access */
