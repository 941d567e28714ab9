/** Every case of the conformance corpus (one file per case, named after it). */
import type { ConformanceCase } from "./corpus";
import { chefArcgisServerDeleteService } from "./cases/chef-arcgis-server-delete-service";
import { chefArcgisServerUpdateIdentityStore } from "./cases/chef-arcgis-server-update-identity-store";
import { chefArcgisServerAssignPrivilege } from "./cases/chef-arcgis-server-assign-privilege";
import { chefArcgisServerExtractItemFile } from "./cases/chef-arcgis-server-extract-item-file";
import { docsArcgisServerDeleteUpload } from "./cases/docs-arcgis-server-delete-upload";
import { dscPortalOauthApp } from "./cases/dsc-portal-oauth-app";
import { dscPortalOauthAppUpdate } from "./cases/dsc-portal-oauth-app-update";
import { chefPortalImportRootCertificate } from "./cases/chef-portal-import-root-certificate";
import { chefPortalMachineCertificates } from "./cases/chef-portal-machine-certificates";
import { dscArcgisServerTokenSettings } from "./cases/dsc-arcgis-server-token-settings";
import { dscArcgisServerTokenSettingsUpdate } from "./cases/dsc-arcgis-server-token-settings-update";
import { dscArcgisServerRegisterDirectory } from "./cases/dsc-arcgis-server-register-directory";
import { chefPortalCertificateAbsent } from "./cases/chef-portal-certificate-absent";
import { chefMissionSystemProperties } from "./cases/chef-mission-system-properties";
import { chefMissionUpdateSystemProperties } from "./cases/chef-mission-update-system-properties";
import { chefNotebookUpdateSystemProperties } from "./cases/chef-notebook-update-system-properties";
import { chefVideoUpdateSystemProperties } from "./cases/chef-video-update-system-properties";
import { chefArcgisServerUpdateSystemProperties } from "./cases/chef-arcgis-server-update-system-properties";
import { pythonMissionSystemProperties } from "./cases/python-mission-system-properties";
import { pythonMissionConfigStore } from "./cases/python-mission-config-store";
import { docsMissionLicenses } from "./cases/docs-mission-licenses";
import { pythonMissionRegisterWebAdaptor } from "./cases/python-mission-register-web-adaptor";
import { chefArcgisServerWebAdaptors } from "./cases/chef-arcgis-server-web-adaptors";
import { chefPortalWebAdaptors } from "./cases/chef-portal-web-adaptors";
import { dscPortalWebAdaptors } from "./cases/dsc-portal-web-adaptors";
import { chefPortalUnregisterWebAdaptor } from "./cases/chef-portal-unregister-web-adaptor";
import { chefPortalHealthCheck } from "./cases/chef-portal-health-check";
import { chefArcgisServerServicesDirectory } from "./cases/chef-arcgis-server-services-directory";
import { chefArcgisServerServicesDirectoryEdit } from "./cases/chef-arcgis-server-services-directory-edit";
import { chefArcgisServerLocal } from "./cases/chef-arcgis-server-local";
import { chefArcgisServerSecurityConfig } from "./cases/chef-arcgis-server-security-config";
import { chefArcgisServerSecurityUpdate } from "./cases/chef-arcgis-server-security-update";
import { chefArcgisServerSecurityJson } from "./cases/chef-arcgis-server-security-json";
import { dscArcgisServerTlsSecurity } from "./cases/dsc-arcgis-server-tls-security";
import { dscArcgisServerResetTier } from "./cases/dsc-arcgis-server-reset-tier";
import { pythonMissionSecurityConfig } from "./cases/python-mission-security-config";
import { pythonMissionSecurityUpdate } from "./cases/python-mission-security-update";
import { chefArcgisServerServiceExists } from "./cases/chef-arcgis-server-service-exists";
import { chefArcgisServerServiceStatus } from "./cases/chef-arcgis-server-service-status";
import { chefArcgisServerStopService } from "./cases/chef-arcgis-server-stop-service";
import { chefArcgisServerStartService } from "./cases/chef-arcgis-server-start-service";
import { chefPortalGenerateTokenWithoutRest } from "./cases/chef-portal-generate-token-without-rest";
import { ansibleArcgisServerCreateSite } from "./cases/ansible-arcgis-server-create-site";
import { ansibleArcgisServerSiteExists } from "./cases/ansible-arcgis-server-site-exists";
import { chefMissionCreateSite } from "./cases/chef-mission-create-site";
import { chefMissionNoSite } from "./cases/chef-mission-no-site";
import { chefMissionRestInfo } from "./cases/chef-mission-rest-info";
import { chefMissionSiteExists } from "./cases/chef-mission-site-exists";
import { chefNotebookCreateSite } from "./cases/chef-notebook-create-site";
import { chefVideoCreateSite } from "./cases/chef-video-create-site";
import { docsArcgisServerHealthcheckHealthy } from "./cases/docs-arcgis-server-healthcheck-healthy";
import { docsArcgisServerHealthcheckUnhealthy } from "./cases/docs-arcgis-server-healthcheck-unhealthy";
import { docsExportSiteLocation } from "./cases/docs-export-site-location";
import { docsMissionHealthcheckHealthy } from "./cases/docs-mission-healthcheck-healthy";
import { docsMissionHealthcheckNoSite } from "./cases/docs-mission-healthcheck-no-site";
import { docsNotebookHealthcheckHealthy } from "./cases/docs-notebook-healthcheck-healthy";
import { docsVideoHealthcheckHealthy } from "./cases/docs-video-healthcheck-healthy";
import { dscArcgisServerLogSettings } from "./cases/dsc-arcgis-server-log-settings";
import { dscMissionCreate108 } from "./cases/dsc-mission-create-10-8";
import { dscMissionCreateAzure } from "./cases/dsc-mission-create-azure";
import { dscMissionCreateFilesystem } from "./cases/dsc-mission-create-filesystem";
import { dscMissionLogSettingsEdit } from "./cases/dsc-mission-log-settings-edit";
import { dscMissionLogSettings } from "./cases/dsc-mission-log-settings";
import { dscMissionSiteExistsByToken } from "./cases/dsc-mission-site-exists-by-token";
import { dscArcgisServerLogSettingsEdit } from "./cases/dsc-arcgis-server-log-settings-edit";
import { dscNotebookLogSettingsEdit } from "./cases/dsc-notebook-log-settings-edit";
import { dscVideoLogSettingsEdit } from "./cases/dsc-video-log-settings-edit";
import { gitopsNotebookImportSite } from "./cases/gitops-notebook-import-site";
import { docsArcgisServerImportSite } from "./cases/docs-arcgis-server-import-site";
import { docsMissionImportSite } from "./cases/docs-mission-import-site";
import { docsVideoImportSite } from "./cases/docs-video-import-site";
import { chefArcgisServerUploadItem } from "./cases/chef-arcgis-server-upload-item";
import { docsArcgisServerUploads } from "./cases/docs-arcgis-server-uploads";
import { ansibleArcgisServerJoinSite } from "./cases/ansible-arcgis-server-join-site";
import { chefMissionJoinSite } from "./cases/chef-mission-join-site";
import { chefNotebookJoinSite } from "./cases/chef-notebook-join-site";
import { chefVideoJoinSite } from "./cases/chef-video-join-site";
import { docsMissionMachines } from "./cases/docs-mission-machines";
import { chefMissionUnregisterMachine } from "./cases/chef-mission-unregister-machine";
import { chefNotebookUnregisterMachine } from "./cases/chef-notebook-unregister-machine";
import { chefVideoUnregisterMachine } from "./cases/chef-video-unregister-machine";
import { chefArcgisServerUnregisterMachine } from "./cases/chef-arcgis-server-unregister-machine";
import { chefArcgisServerUpgradeRequired } from "./cases/chef-arcgis-server-upgrade-required";
import { docsArcgisServerUpgradeRoot } from "./cases/docs-arcgis-server-upgrade-root";
import { chefArcgisServerCompleteUpgrade } from "./cases/chef-arcgis-server-complete-upgrade";
import { chefArcgisServerCompleteUpgradeAsync } from "./cases/chef-arcgis-server-complete-upgrade-async";
import { chefMissionUpgradeRequired } from "./cases/chef-mission-upgrade-required";
import { chefMissionCompleteUpgrade } from "./cases/chef-mission-complete-upgrade";
import { chefArcgisServerAddMachineToCluster } from "./cases/chef-arcgis-server-add-machine-to-cluster";
import { chefArcgisServerMachineInfo } from "./cases/chef-arcgis-server-machine-info";
import { chefArcgisServerEditMachine } from "./cases/chef-arcgis-server-edit-machine";
import { chefArcgisServerFederateServices } from "./cases/chef-arcgis-server-federate-services";
import { chefArcgisServerUnregisterWebAdaptor } from "./cases/chef-arcgis-server-unregister-web-adaptor";
import { chefMissionUnregisterWebAdaptor } from "./cases/chef-mission-unregister-web-adaptor";
import { chefArcgisServerImportRootCertificate } from "./cases/chef-arcgis-server-import-root-certificate";
import { chefArcgisServerImportServerCertificate } from "./cases/chef-arcgis-server-import-server-certificate";
import { ansibleArcgisServerCertificateAbsent } from "./cases/ansible-arcgis-server-certificate-absent";
import { dscMissionImportServerCertificate } from "./cases/dsc-mission-import-server-certificate";
import { dscNotebookImportRootCertificate } from "./cases/dsc-notebook-import-root-certificate";
import { docsArcgisServerListCertificates } from "./cases/docs-arcgis-server-list-certificates";
import { dscVideoListCertificates } from "./cases/dsc-video-list-certificates";
import { dscArcgisServerDeleteCertificate } from "./cases/dsc-arcgis-server-delete-certificate";
import { dscMissionEditMachineCertificate } from "./cases/dsc-mission-edit-machine-certificate";
import { chefArcgisServerStopMachine } from "./cases/chef-arcgis-server-stop-machine";
import { chefArcgisServerMachineStatus } from "./cases/chef-arcgis-server-machine-status";
import { pythonArcgisServerStartMachine } from "./cases/python-arcgis-server-start-machine";
import { chefArcgisServerRemoveMachineFromCluster } from "./cases/chef-arcgis-server-remove-machine-from-cluster";
import { dscMissionDeleteSite } from "./cases/dsc-mission-delete-site";
import { chefArcgisServerHealthcheckLowercase } from "./cases/chef-arcgis-server-healthcheck-lowercase";
import { chefPortalGenerateToken } from "./cases/chef-portal-generate-token";
import { chefPortalSiteExists } from "./cases/chef-portal-site-exists";
import { dscPortalNoSite } from "./cases/dsc-portal-no-site";
import { dscPortalCreateSite } from "./cases/dsc-portal-create-site";
import { chefPortalCreateSite } from "./cases/chef-portal-create-site";
import { pythonPortalCreateSite } from "./cases/python-portal-create-site";
import { chefPortalCreateSiteExists } from "./cases/chef-portal-create-site-exists";
import { dscPortalCreateSiteMissingEmail } from "./cases/dsc-portal-create-site-missing-email";
import { chefPortalFederateServer } from "./cases/chef-portal-federate-server";
import { chefPortalFederateServerFederatedElsewhere } from "./cases/chef-portal-federate-server-federated-elsewhere";
import { chefPortalServers } from "./cases/chef-portal-servers";
import { dscPortalFederationServers } from "./cases/dsc-portal-federation-servers";
import { chefPortalUpdateServer } from "./cases/chef-portal-update-server";
import { chefPortalUnfederateServer } from "./cases/chef-portal-unfederate-server";

export const CASES: readonly ConformanceCase[] = [
  chefArcgisServerImportRootCertificate,
  chefArcgisServerImportServerCertificate,
  ansibleArcgisServerCertificateAbsent,
  dscMissionImportServerCertificate,
  dscNotebookImportRootCertificate,
  docsArcgisServerListCertificates,
  dscVideoListCertificates,
  dscArcgisServerDeleteCertificate,
  dscMissionEditMachineCertificate,
  ansibleArcgisServerCreateSite,
  ansibleArcgisServerSiteExists,
  chefMissionCreateSite,
  chefMissionNoSite,
  chefMissionRestInfo,
  chefMissionSiteExists,
  chefNotebookCreateSite,
  chefVideoCreateSite,
  docsArcgisServerHealthcheckHealthy,
  docsArcgisServerHealthcheckUnhealthy,
  docsExportSiteLocation,
  docsMissionHealthcheckHealthy,
  docsMissionHealthcheckNoSite,
  docsNotebookHealthcheckHealthy,
  docsVideoHealthcheckHealthy,
  dscArcgisServerLogSettings,
  dscMissionCreate108,
  dscMissionCreateAzure,
  dscMissionCreateFilesystem,
  dscMissionLogSettingsEdit,
  dscMissionLogSettings,
  dscMissionSiteExistsByToken,
  dscArcgisServerLogSettingsEdit,
  dscNotebookLogSettingsEdit,
  dscVideoLogSettingsEdit,
  gitopsNotebookImportSite,
  docsArcgisServerImportSite,
  docsMissionImportSite,
  docsVideoImportSite,
  chefArcgisServerUploadItem,
  docsArcgisServerUploads,
  ansibleArcgisServerJoinSite,
  chefMissionJoinSite,
  chefNotebookJoinSite,
  chefVideoJoinSite,
  docsMissionMachines,
  chefMissionUnregisterMachine,
  chefNotebookUnregisterMachine,
  chefVideoUnregisterMachine,
  chefArcgisServerUnregisterMachine,
  chefMissionSystemProperties,
  chefMissionUpdateSystemProperties,
  chefNotebookUpdateSystemProperties,
  chefVideoUpdateSystemProperties,
  chefArcgisServerUpdateSystemProperties,
  pythonMissionSystemProperties,
  pythonMissionConfigStore,
  docsMissionLicenses,
  pythonMissionRegisterWebAdaptor,
  chefArcgisServerWebAdaptors,
  chefPortalWebAdaptors,
  dscPortalWebAdaptors,
  chefPortalUnregisterWebAdaptor,
  chefPortalHealthCheck,
  chefArcgisServerServicesDirectory,
  chefArcgisServerServicesDirectoryEdit,
  chefArcgisServerLocal,
  chefArcgisServerSecurityConfig,
  chefArcgisServerSecurityUpdate,
  chefArcgisServerSecurityJson,
  dscArcgisServerTlsSecurity,
  dscArcgisServerResetTier,
  pythonMissionSecurityConfig,
  pythonMissionSecurityUpdate,
  chefArcgisServerServiceExists,
  chefArcgisServerServiceStatus,
  chefArcgisServerStopService,
  chefArcgisServerStartService,
  chefPortalGenerateTokenWithoutRest,
  chefArcgisServerUpgradeRequired,
  docsArcgisServerUpgradeRoot,
  chefArcgisServerCompleteUpgrade,
  chefArcgisServerCompleteUpgradeAsync,
  chefMissionUpgradeRequired,
  chefMissionCompleteUpgrade,
  chefArcgisServerAddMachineToCluster,
  chefArcgisServerMachineInfo,
  chefArcgisServerEditMachine,
  chefArcgisServerFederateServices,
  chefArcgisServerUnregisterWebAdaptor,
  chefMissionUnregisterWebAdaptor,
  chefArcgisServerStopMachine,
  chefArcgisServerMachineStatus,
  pythonArcgisServerStartMachine,
  chefArcgisServerRemoveMachineFromCluster,
  dscMissionDeleteSite,
  chefArcgisServerHealthcheckLowercase,
  chefPortalGenerateToken,
  chefPortalSiteExists,
  chefPortalFederateServer,
  chefPortalFederateServerFederatedElsewhere,
  chefPortalServers,
  dscPortalFederationServers,
  chefPortalUpdateServer,
  chefPortalUnfederateServer,
  chefArcgisServerDeleteService,
  chefArcgisServerUpdateIdentityStore,
  chefArcgisServerAssignPrivilege,
  chefArcgisServerExtractItemFile,
  docsArcgisServerDeleteUpload,
  dscPortalOauthApp,
  dscPortalOauthAppUpdate,
  chefPortalImportRootCertificate,
  chefPortalMachineCertificates,
  dscArcgisServerTokenSettings,
  dscArcgisServerTokenSettingsUpdate,
  dscArcgisServerRegisterDirectory,
  chefPortalCertificateAbsent,
  dscPortalNoSite,
  dscPortalCreateSite,
  chefPortalCreateSite,
  pythonPortalCreateSite,
  chefPortalCreateSiteExists,
  dscPortalCreateSiteMissingEmail,
];
