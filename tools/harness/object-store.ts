/**
 * The S3-compatible object store of the tests: SeaweedFS's `weed server -s3`, built once into a
 * cache by toolchain/object-store.cjs (`npm test` builds it before Jest starts) and started per
 * suite on free 127.0.0.1 ports with a temporary data folder, then stopped. No mock of S3: what
 * a suite claims about object storage, it claims of a real store.
 */
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import * as script from "../../toolchain/object-store/start.cjs";

/** A running store, with a client for the tests' own checks. */
export interface TestObjectStore {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** weed's process id. */
  pid: number;
  /** What weed printed. */
  output(): string;
  /** The SiteExport/SiteImport inputs that reach this store. */
  inputs(): {
    objectStore: { endpoint: string; region: string; forcePathStyle: boolean };
    objectStoreCredentials: { accessKeyId: string; secretAccessKey: string };
  };
  /** The keys under a prefix of a bucket. */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  /** An object's SHA-256 (hex), size and metadata, read back in full from the store. */
  digest(
    bucket: string,
    key: string,
  ): Promise<{ sha256: string; sizeBytes: number; metadata: Record<string, string> }>;
  /** An object's content, read back whole (small objects only). */
  read(bucket: string, key: string): Promise<Buffer>;
  /** Whether an object is there. */
  exists(bucket: string, key: string): Promise<boolean>;
  deleteObject(bucket: string, key: string): Promise<void>;
  /** Writes an object (with metadata, e.g. a `sha256` that is not its content's). */
  putObject(
    bucket: string,
    key: string,
    body: Buffer,
    metadata?: Record<string, string>,
  ): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a store with these buckets (building weed first if the cache has none).
 *
 * @example
 * ```ts
 * let store: TestObjectStore;
 * beforeAll(async () => (store = await startTestObjectStore(["backups"])), 600_000);
 * afterAll(() => store?.stop());
 * ```
 */
export async function startTestObjectStore(buckets: string[] = []): Promise<TestObjectStore> {
  const running = await script.startObjectStore({ buckets });
  const client = new S3Client({
    endpoint: running.endpoint,
    region: running.region,
    forcePathStyle: true,
    credentials: { accessKeyId: running.accessKeyId, secretAccessKey: running.secretAccessKey },
  });
  const isMissing = (e: unknown) =>
    (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
  return {
    ...running,
    inputs: () => ({
      objectStore: { endpoint: running.endpoint, region: running.region, forcePathStyle: true },
      objectStoreCredentials: {
        accessKeyId: running.accessKeyId,
        secretAccessKey: running.secretAccessKey,
      },
    }),
    keys: async (bucket, prefix = "") => {
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }),
      );
      return (listed.Contents ?? []).map((o) => o.Key ?? "").sort();
    },
    digest: async (bucket, key) => {
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const hash = createHash("sha256");
      let sizeBytes = 0;
      for await (const chunk of got.Body as Readable) {
        hash.update(chunk as Buffer);
        sizeBytes += (chunk as Buffer).length;
      }
      return { sha256: hash.digest("hex"), sizeBytes, metadata: got.Metadata ?? {} };
    },
    read: async (bucket, key) => {
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await got.Body!.transformToByteArray());
    },
    exists: async (bucket, key) => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (e) {
        if (isMissing(e)) return false;
        throw e;
      }
    },
    deleteObject: async (bucket, key) => {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    putObject: async (bucket, key, body, metadata = {}) => {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, Metadata: metadata }),
      );
    },
    stop: async () => {
      client.destroy();
      await running.stop();
    },
  };
}
