/**
 * The inputs of a resource that reads or writes an archive in S3-compatible object storage
 * (SiteExport's `uploadTo`, SiteImport's `archiveObject`): the `s3://` URL, how to reach the
 * store (`objectStore`) and its credentials (`objectStoreCredentials`, always a secret), and the
 * client settings they make.
 */
import { z } from "zod";
import { objectUrlProblem, type ObjectStoreSettings } from "../../../client";
import { named } from "./definition";
import { httpUrlSchema, nonEmpty } from "./schemas";

/** How to reach an S3-compatible store (the `objectStore` argument and output). */
export interface ObjectStoreOptions {
  /**
   * The store's URL, e.g. `http://127.0.0.1:8333` or `https://s3.eu-west-1.amazonaws.com`
   * (default: AWS S3 of the region).
   */
  endpoint?: string;
  /** The region (default: AWS_REGION, else AWS_DEFAULT_REGION, else `us-east-1`). */
  region?: string;
  /** Address buckets in the path (`endpoint/bucket/key`), as most S3-compatible stores need. */
  forcePathStyle?: boolean;
}

/** Static credentials of the store (the `objectStoreCredentials` argument; a secret). */
export interface ObjectStoreCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Input schema of an `s3://bucket/prefix` URL.
 *
 * @internal
 */
export function objectUrlSchema() {
  return nonEmpty().superRefine((value, ctx) => {
    const problem = objectUrlProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });
}

/**
 * Input schema of `objectStore`.
 *
 * @internal
 */
export function objectStoreSchema() {
  // The descriptions are ObjectStoreOptions', for the plugin schema.
  return named(
    z.strictObject({
      endpoint: httpUrlSchema()
        .optional()
        .describe(
          "The store's URL, e.g. `http://127.0.0.1:8333` or `https://s3.eu-west-1.amazonaws.com` " +
            "(default: AWS S3 of the region).",
        ),
      region: nonEmpty()
        .optional()
        .describe("The region (default: AWS_REGION, else AWS_DEFAULT_REGION, else `us-east-1`)."),
      forcePathStyle: z
        .boolean()
        .optional()
        .describe(
          "Address buckets in the path (`endpoint/bucket/key`), as most S3-compatible stores need.",
        ),
    }),
    { name: "ObjectStoreOptions", from: "../common/inputs/object-store" },
  ).optional();
}

/**
 * Input schema of `objectStoreCredentials`.
 *
 * @internal
 */
export function objectStoreCredentialsSchema() {
  return named(
    z.strictObject({
      accessKeyId: nonEmpty(),
      secretAccessKey: nonEmpty(),
      sessionToken: nonEmpty().optional(),
    }),
    { name: "ObjectStoreCredentials", from: "../common/inputs/object-store" },
  ).optional();
}

/**
 * The client's settings from the inputs: without `objectStoreCredentials`, the AWS SDK finds
 * credentials as the AWS CLI does (environment, config and credential files, SSO, instance role).
 *
 * @internal
 */
export function objectStoreSettings(inputs: {
  objectStore?: ObjectStoreOptions | undefined;
  objectStoreCredentials?: ObjectStoreCredentials | undefined;
}): ObjectStoreSettings {
  return {
    endpoint: inputs.objectStore?.endpoint,
    region: inputs.objectStore?.region,
    forcePathStyle: inputs.objectStore?.forcePathStyle,
    credentials: inputs.objectStoreCredentials,
  };
}
