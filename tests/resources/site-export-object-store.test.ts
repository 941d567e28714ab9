/**
 * SiteExport with uploadTo: the archive streamed from the emulator to a real S3-compatible store
 * (SeaweedFS, tools/harness/object-store.ts), its SHA-256 as an output and as the object's
 * metadata, refresh noticing a deleted object, and destroy keeping the object unless opted in.
 */
import { createHash } from "node:crypto";
import * as net from "node:net";
import { Readable } from "node:stream";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { uploadArchive } from "../../provider/client";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import type { SiteExportOutputs } from "../../provider/resources/site-export/generated";
import { SITE_EXPORT } from "../../provider/resources/site-export/definition";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startTestObjectStore, type TestObjectStore } from "../../tools/harness/object-store";
import { startS3Proxy } from "../../tools/harness/s3-proxy";

const BUCKET = "backups";
let store: TestObjectStore;
let emu: TestEmulator;

beforeAll(async () => {
  // A first run builds weed (minutes); `npm test` builds it before Jest starts.
  store = await startTestObjectStore([BUCKET]);
  emu = await startTestEmulator({ exportDelayMs: 0 });
  await site.create((await site.check({}, siteInputs(emu))).inputs);
}, 900_000);
afterAll(async () => {
  await emu?.close();
  await store?.stop();
});

function exportInputs(extra: Record<string, unknown> = {}) {
  return {
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: "site-Password-1",
    tls: { caCert: emu.caCert },
    ...store.inputs(),
    ...extra,
  };
}

async function exportTo(prefix: string, extra: Record<string, unknown> = {}) {
  const checked = await siteExport.check(
    {},
    exportInputs({ uploadTo: `s3://${BUCKET}/${prefix}`, ...extra }),
  );
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await siteExport.create(checked.inputs);
  return { id, outs: outs as SiteExportOutputs };
}

function keyOf(outs: SiteExportOutputs): string {
  return outs.objectUrl!.slice(`s3://${BUCKET}/`.length);
}

describe("SiteExport check() of uploadTo", () => {
  it.each([
    ["https://backups.example.com/x", /uploadTo.*must start with s3:\/\//],
    ["s3://Bad_Bucket/x", /uploadTo.*not an S3 bucket name/],
    ["s3://backups/x?endpoint=127.0.0.1:9000", /uploadTo.*must not have a query/],
    ["s3://key:secret@backups/x", /uploadTo.*must not hold credentials/],
  ])("refuses %s, naming uploadTo", async (uploadTo, message) => {
    const result = await siteExport.check({}, exportInputs({ uploadTo }));
    const failures = (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
    expect(failures).toEqual([expect.stringMatching(message)]);
    // A credential in the URL is not repeated in the message.
    expect(failures.join("\n")).not.toContain("secret@");
  });

  it("refuses uploadTo with downloadTo or location, and store settings without uploadTo", async () => {
    const both = await siteExport.check(
      {},
      exportInputs({ uploadTo: "s3://backups/a", downloadTo: "./b", location: "/srv" }),
    );
    expect((both.failures ?? []).map((f) => f.property).sort()).toEqual(
      ["downloadTo", "uploadTo", "uploadTo"].sort(),
    );
    const alone = await siteExport.check({}, exportInputs({ deleteBackupOnDestroy: true }));
    expect((alone.failures ?? []).map((f) => f.property).sort()).toEqual(
      ["deleteBackupOnDestroy", "objectStore", "objectStoreCredentials"].sort(),
    );
  });

  it("keeps the store's credentials secret in state", () => {
    expect(SITE_EXPORT.secretOutputs).toEqual(
      expect.arrayContaining(["password", "objectStoreCredentials"]),
    );
  });
});

describe("SiteExport to object storage", () => {
  it("streams the archive to <prefix><fileName> with its SHA-256 as output and metadata, leaving nothing else", async () => {
    const { outs } = await exportTo("site-a/");
    expect(outs.objectUrl).toBe(`s3://${BUCKET}/site-a/${outs.fileName}`);
    expect(outs.fileName).toMatch(/\.agssite$/);
    const object = await store.digest(BUCKET, keyOf(outs));
    expect(object.sha256).toBe(outs.sha256);
    expect(object.metadata.sha256).toBe(outs.sha256);
    expect(object.sizeBytes).toBe(outs.sizeBytes);
    expect(object.sizeBytes).toBeGreaterThan(0);
    // The temporary object of the upload is gone.
    expect(await store.keys(BUCKET, "site-a/")).toEqual([keyOf(outs)]);
    // Nothing written to disk stands in for it.
    expect(outs.localPath).toBeUndefined();
  });

  it("never replaces an archive already under the same key (a name taken gets -1, -2, ...)", async () => {
    const put = (text: string) =>
      uploadArchive(
        storeClientConfig(),
        `s3://${BUCKET}/same`,
        "x.agssite",
        Readable.from([text]),
        () => Promise.resolve(sha(text)),
      );
    const first = await put("first");
    const second = await put("second");
    expect([first.key, second.key]).toEqual(["same/x.agssite", "same/x-1.agssite"]);
    expect((await store.digest(BUCKET, first.key)).sha256).toBe(first.sha256);
    expect(await store.keys(BUCKET, "same/")).toEqual(["same/x-1.agssite", "same/x.agssite"]);
  });

  // Two exports of two sites in one stack end in the same second and upload one file name to
  // one prefix at once; the proxy holds each final write back so that both are in flight.
  describe.each([
    ["a store that honours If-None-Match", false],
    ["a store that ignores If-None-Match", true],
  ])("two uploads of one name at once, to %s", (_label, dropIfNoneMatch) => {
    it("keeps both: two objects, each holding what its upload recorded", async () => {
      const proxy = await startS3Proxy({
        target: store.endpoint,
        credentials: { ...storeClientConfig().credentials, region: store.region },
        writeDelayMs: 300,
        dropIfNoneMatch,
      });
      try {
        const settings = { ...storeClientConfig(), endpoint: proxy.url };
        for (let round = 0; round < 8; round++) {
          const prefix = `race-${String(dropIfNoneMatch)}-${round}/`;
          const texts = [`archive A ${round}`, `archive B ${round}`];
          const done = await Promise.all(
            texts.map((text) =>
              uploadArchive(
                settings,
                `s3://${BUCKET}/${prefix}`,
                "20260101-120000-UTC.agssite",
                Readable.from([text]),
                () => Promise.resolve(sha(text)),
              ),
            ),
          );
          expect(new Set(done.map((d) => d.key)).size).toBe(2);
          for (const [i, d] of done.entries()) {
            expect(d.sha256).toBe(sha(texts[i]!));
            expect((await store.digest(BUCKET, d.key)).sha256).toBe(d.sha256);
          }
          // Only the two archives are left: no temporary object.
          expect((await store.keys(BUCKET, prefix)).sort()).toEqual(done.map((d) => d.key).sort());
          if (!dropIfNoneMatch) {
            expect(done.map((d) => d.key).sort()).toEqual([
              `${prefix}20260101-120000-UTC-1.agssite`,
              `${prefix}20260101-120000-UTC.agssite`,
            ]);
          }
        }
        expect(proxy.conditionals()).toBeGreaterThan(0);
      } finally {
        await proxy.close();
      }
    });
  });

  it("refresh keeps an export whose object is there, and reports it gone once deleted", async () => {
    const { id, outs } = await exportTo("refresh/");
    expect(await siteExport.read(id, outs)).toEqual({ id, props: outs });
    await store.deleteObject(BUCKET, keyOf(outs));
    expect(await siteExport.read(id, outs)).toEqual({});
  });

  it("refresh reports an object replaced by other content as gone", async () => {
    const { id, outs } = await exportTo("replaced/");
    await putObject(keyOf(outs), "not the archive", { sha256: "0".repeat(64) });
    expect(await siteExport.read(id, outs)).toEqual({});
  });

  it("destroy keeps the object unless deleteBackupOnDestroy opted in", async () => {
    const kept = await exportTo("kept/");
    await siteExport.delete(kept.id, kept.outs);
    expect(await store.exists(BUCKET, keyOf(kept.outs))).toBe(true);

    const optedIn = await exportTo("opted-in/", { deleteBackupOnDestroy: true });
    await siteExport.delete(optedIn.id, optedIn.outs);
    expect(await store.exists(BUCKET, keyOf(optedIn.outs))).toBe(false);
  });

  it("destroy with deleteBackupOnDestroy leaves alone another object that took the key", async () => {
    const { id, outs } = await exportTo("taken/", { deleteBackupOnDestroy: true });
    const other = "someone else's backup";
    const otherSha = createHash("sha256").update(other).digest("hex");
    await putObject(keyOf(outs), other, { sha256: otherSha });
    await siteExport.delete(id, outs);
    expect(await store.digest(BUCKET, keyOf(outs))).toMatchObject({ sha256: otherSha });
  });

  it("reports wrong credentials clearly, without the secret, and leaves no object", async () => {
    const secret = "wrong-Secret-Key-123";
    const inputs = (
      await siteExport.check(
        {},
        exportInputs({
          uploadTo: `s3://${BUCKET}/denied/`,
          objectStoreCredentials: { accessKeyId: "nobody", secretAccessKey: secret },
        }),
      )
    ).inputs;
    const failure = siteExport.create(inputs);
    await expect(failure).rejects.toThrow(
      /to uploadTo \(s3:\/\/backups\/denied\/\) failed: .*access denied \((InvalidAccessKeyId|AccessDenied|SignatureDoesNotMatch)\): check objectStoreCredentials \(and the bucket's policy\)/s,
    );
    await failure.catch((e: Error) => expect(e.message).not.toContain(secret));
    expect(await store.keys(BUCKET, "denied/")).toEqual([]);
  });

  describe("store errors that say what to do", () => {
    const secret = "wrong-Secret-Key-456";
    let exported: { id: string; outs: SiteExportOutputs };
    beforeAll(async () => {
      exported = await exportTo("errors/", { deleteBackupOnDestroy: true });
    });
    /** What refresh and destroy fail with for these state changes (never a pass). */
    async function failures(change: Partial<SiteExportOutputs>): Promise<string[]> {
      const props = { ...exported.outs, ...change };
      const messages: string[] = [];
      for (const step of [
        () => siteExport.read(exported.id, props),
        () => siteExport.delete(exported.id, props),
      ]) {
        messages.push(
          await step().then(
            () => "passed",
            (e: Error) => e.message,
          ),
        );
      }
      return messages;
    }

    // A HEAD answered 403 has no body, so the SDK names no error: the status says it.
    it("a wrong secret key: access denied, check objectStoreCredentials, naming the object", async () => {
      const url = exported.outs.objectUrl!;
      for (const message of await failures({
        objectStoreCredentials: { accessKeyId: store.accessKeyId, secretAccessKey: secret },
      })) {
        expect(message).toBe(
          `Reading ${url} failed: access denied (HTTP 403): check objectStoreCredentials (and the bucket's policy).`,
        );
      }
      expect(await store.exists(BUCKET, keyOf(exported.outs))).toBe(true);
    });

    it("a missing bucket, a wrong endpoint and a TLS failure: each its own line", async () => {
      const missing = await failures({ objectUrl: "s3://no-such-bucket-38/errors/x.agssite" });
      for (const message of missing) {
        expect(message).toBe(
          `Reading s3://no-such-bucket-38/errors/x.agssite failed: the bucket does not exist at ${store.endpoint}: create it, or check objectStore.endpoint and the bucket's name.`,
        );
      }
      const closed = await closedPort();
      const refused = await failures({
        objectStore: { ...store.inputs().objectStore, endpoint: `http://127.0.0.1:${closed}` },
      });
      for (const message of refused) {
        expect(message).toMatch(
          /failed: the store at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\): check objectStore\.endpoint and that the store is running\.$/,
        );
      }
      // https to a store that serves http: the TLS handshake fails.
      const tls = `https://${new URL(store.endpoint).host}`;
      for (const message of await failures({
        objectStore: { ...store.inputs().objectStore, endpoint: tls },
      })) {
        expect(message).toContain(`failed: the TLS connection to ${tls} failed (`);
        expect(message).toContain(
          "check objectStore.endpoint (http or https, as the store serves)",
        );
      }
      for (const message of [...missing, ...refused]) {
        expect(message).not.toContain(store.secretAccessKey);
      }
    });
  });

  it("exports again when uploadTo or the store changes, and only updates state for deleteBackupOnDestroy and credentials", async () => {
    const { id, outs } = await exportTo("diff/");
    // As the engine does: diff gets the inputs check() returned.
    const news = (await siteExport.check({}, exportInputs({ uploadTo: `s3://${BUCKET}/diff/` })))
      .inputs;
    expect(await siteExport.diff(id, outs, news)).toEqual({ changes: false });
    expect(await siteExport.diff(id, outs, { ...news, uploadTo: "s3://backups/other/" })).toEqual({
      changes: true,
      replaces: ["uploadTo"],
    });
    const optIn = { ...news, deleteBackupOnDestroy: true };
    expect(await siteExport.diff(id, outs, optIn)).toEqual({ changes: true });
    const updated = await siteExport.update(id, outs, optIn);
    expect(updated.outs).toMatchObject({ deleteBackupOnDestroy: true, sha256: outs.sha256 });
  });
});

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function storeClientConfig() {
  return {
    endpoint: store.endpoint,
    region: store.region,
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
  };
}

async function putObject(key: string, body: string, metadata: Record<string, string>) {
  const client = new S3Client(storeClientConfig());
  try {
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, Metadata: metadata }),
    );
  } finally {
    client.destroy();
  }
}
