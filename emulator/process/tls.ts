/**
 * The emulator's TLS material: a certificate brought by the user, or a self-signed one
 * generated into the data dir on first start and reused afterwards.
 */
import { promises as fs } from "node:fs";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { generate } from "selfsigned";
import writeFileAtomic from "write-file-atomic";

/** Certificate and key in PEM, and the file a client should trust. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  /** PEM file to pass as `ca`: the generated certificate, or the user's certificate file. */
  readonly caCertFile: string;
}

/** Folder of the generated certificate inside the data dir. */
export const TLS_DIR = "tls";

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Reads a user's certificate and key. */
export async function loadTls(certFile: string, keyFile: string): Promise<TlsMaterial> {
  const [cert, key] = await Promise.all([
    fs.readFile(certFile, "utf8"),
    fs.readFile(keyFile, "utf8"),
  ]);
  return { cert, key, caCertFile: certFile };
}

/**
 * Returns the data dir's self-signed certificate, generating it on first use. It names
 * 127.0.0.1, ::1, localhost, the machine name and the listen host, and is marked as a CA
 * so that Node's TLS accepts it as its own trust anchor when passed as `ca`.
 */
export async function selfSignedTls(
  dataDir: string,
  names: readonly string[],
): Promise<TlsMaterial> {
  const dir = path.join(dataDir, TLS_DIR);
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  const [cert, key] = await Promise.all([readIfPresent(certFile), readIfPresent(keyFile)]);
  if (cert !== null && key !== null) return { cert, key, caCertFile: certFile };

  await fs.mkdir(dir, { recursive: true });
  const dns = new Set(["localhost"]);
  const ips = new Set(["127.0.0.1", "::1"]);
  for (const name of [...names, os.hostname()]) {
    if (name === "0.0.0.0" || name === "::") continue;
    if (isIP(name) !== 0) ips.add(name);
    // Only what a DNS name may be: a free-form machine name must not break generation.
    else if (/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(name)) dns.add(name);
  }
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 3 * 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: "commonName", value: "arcgis-admin-emulator" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          ...[...dns].map((value) => ({ type: 2 as const, value })),
          ...[...ips].map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  // Key first: a crash between the two writes leaves no certificate, so the pair is
  // generated again rather than a certificate without its key being reused.
  await writeFileAtomic(keyFile, pems.private, { mode: 0o600 });
  await writeFileAtomic(certFile, pems.cert, { mode: 0o644 });
  return { cert: pems.cert, key: pems.private, caCertFile: certFile };
}
