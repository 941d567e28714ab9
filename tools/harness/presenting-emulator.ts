/**
 * An emulator whose HTTPS listener presents a given certificate (the emulator's `--cert`/`--key`),
 * e.g. one that has expired or is not valid yet, issued by a test CA (pki.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { runTempDir } from "./temp";
import type { Issued } from "./pki";

/** Starts an emulator presenting `issued`; other options as {@link startTestEmulator}'s. */
export async function startEmulatorPresenting(
  issued: Issued,
  options: Parameters<typeof startTestEmulator>[0] = {},
): Promise<TestEmulator> {
  const dir = runTempDir("arcgis-presenting-");
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  fs.writeFileSync(certFile, issued.certPem);
  fs.writeFileSync(keyFile, issued.keyPem);
  return startTestEmulator({ ...options, tls: { certFile, keyFile } });
}
