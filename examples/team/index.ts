/**
 * A site and its configuration backup as a team runs them: several pipelines deploy this stack
 * (and other stacks of it) from ephemeral runners, so nothing may live on a runner's disk.
 *
 * - The stack's state lives on a shared backend (Pulumi Cloud, or a DIY backend such as
 *   `s3://…`, `azblob://…`): a second `pulumi up` of the same stack while one runs is refused with
 *   "the stack is currently locked", so two pipelines never create the site twice.
 * - The backup goes to object storage (`uploadTo`), not to the runner's disk, which is gone when
 *   the job ends.
 *
 * The server's connection is the package's stack config (docs/connection.md):
 * `arcgis-admin:adminUrl`, `arcgis-admin:username`, `arcgis-admin:password` (secret) and
 * optionally `arcgis-admin:caCert`. This project's keys: `backupUrl` (`s3://bucket/prefix/`) and,
 * for an S3-compatible store other than AWS S3, `objectStoreEndpoint`. Object storage credentials
 * come from the runner's AWS environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, a role).
 */
import * as pulumi from "@pulumi/pulumi";
import { Site, SiteExport } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const endpoint = config.get("objectStoreEndpoint");

// adminUrl, username (the primary administrator to create), password and tls: arcgis-admin:*.
const site = new Site("site", {});

const backup = new SiteExport("site-backup", {
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  uploadTo: config.require("backupUrl"),
  ...(endpoint === undefined ? {} : { objectStore: { endpoint, forcePathStyle: true } }),
});

export const siteState = site.state;
export const backupObject = backup.objectUrl;
export const backupSha256 = backup.sha256;
