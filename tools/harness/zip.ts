/** Zip archives of the tests: read one completely, build a small one in memory. */
import yauzl from "yauzl";
import * as yazl from "yazl";

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

/** Builds a small zip archive in memory (a stand-in for an .agssite file). */
export function makeZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}
