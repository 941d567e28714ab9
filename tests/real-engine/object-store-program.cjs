"use strict";
/**
 * The Pulumi program of tests/real-engine/object-store.test.ts, copied over the consumer
 * project's program: a SiteExport streamed to an S3-compatible store, driven by stack config:
 * adminUrl, caCert, siteUsername, sitePassword (secret), uploadTo, s3Endpoint; s3AccessKeyId for
 * objectStoreCredentials, whose secret key is then the environment's TEST_S3_SECRET_ACCESS_KEY, a
 * plain value (no Pulumi secret: the resource must keep it secret itself), else the AWS
 * environment's credentials; and deleteBackupOnDestroy (boolean). With restoreAdminUrl (and
 * restoreCaCert), a SiteImport restores the uploaded object into that site.
 */
const pulumi = require("@pulumi/pulumi");
const { SiteExport, SiteImport } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const accessKeyId = config.get("s3AccessKeyId");
  const store = {
    objectStore: { endpoint: config.require("s3Endpoint"), forcePathStyle: true },
    ...(accessKeyId === undefined
      ? {}
      : {
          objectStoreCredentials: {
            accessKeyId,
            secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY,
          },
        }),
  };
  const backup = new SiteExport("backup", {
    adminUrl: config.require("adminUrl"),
    username: config.require("siteUsername"),
    password: config.requireSecret("sitePassword"),
    tls: { caCert: config.require("caCert") },
    uploadTo: config.require("uploadTo"),
    ...store,
    deleteBackupOnDestroy: config.getBoolean("deleteBackupOnDestroy") ?? false,
  });
  const restoreAdminUrl = config.get("restoreAdminUrl");
  const restore =
    restoreAdminUrl === undefined
      ? undefined
      : new SiteImport("restore", {
          adminUrl: restoreAdminUrl,
          username: config.require("siteUsername"),
          password: config.requireSecret("sitePassword"),
          tls: { caCert: config.require("restoreCaCert") },
          archiveObject: backup.objectUrl,
          archiveSha256: backup.sha256,
          ...store,
        });
  return {
    objectUrl: backup.objectUrl,
    sha256: backup.sha256,
    sizeBytes: backup.sizeBytes,
    ...(restore === undefined ? {} : { fingerprint: restore.fingerprint }),
  };
};
