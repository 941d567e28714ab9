/** Reads a zip archive completely (tests only). */
import yauzl from "yauzl";

/** One entry of an archive. */
export interface ZipEntry {
  name: string;
  data: Buffer;
  /** 0 = stored, 8 = deflated. */
  compressionMethod: number;
  uncompressedSize: number;
}

/** Opens `file` and reads every entry; rejects for anything that is not a valid zip. */
export function readZip(file: string): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (openError, zip) => {
      if (openError) {
        reject(openError);
        return;
      }
      const entries: ZipEntry[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) {
            reject(streamError);
            return;
          }
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.push({
              name: entry.fileName,
              data: Buffer.concat(chunks),
              compressionMethod: entry.compressionMethod,
              uncompressedSize: entry.uncompressedSize,
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
