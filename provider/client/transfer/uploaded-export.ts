/**
 * What an export's transfer to an object store answers. A leaf module: the operation, the
 * transfer and its worker thread all name this type, and none of them imports another for it.
 */

/** Where {@link uploadExport} put an archive. */
export interface UploadedExport {
  /** `s3://bucket/key`. */
  url: string;
  bucket: string;
  key: string;
  fileName: string;
  sizeBytes: number;
  /** Hex SHA-256 of the content, also the object's `sha256` metadata. */
  sha256: string;
}
