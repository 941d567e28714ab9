/**
 * Starts the project's emulator for a test: a fresh data directory, port 0 on 127.0.0.1, and the
 * CA certificate read back so that clients can trust it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/** A running emulator plus what tests need around it. */
export interface TestEmulator extends RunningEmulator {
  /** The CA certificate (PEM) to trust, or undefined without TLS. */
  caCert: string | undefined;
  dataDir: string;
}

/**
 * Starts an emulator with its own temporary data directory.
 *
 * @example
 * ```ts
 * const emu = await startTestEmulator({ createDelayMs: 300 });
 * afterAll(() => emu.close());
 * ```
 */
export async function startTestEmulator(
  options: Partial<EmulatorOptions> = {},
): Promise<TestEmulator> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "arcgis-emu-"));
  const emulator = await startEmulator({ quiet: true, ...options, dataDir });
  const caCert =
    emulator.caCertFile === null ? undefined : fs.readFileSync(emulator.caCertFile, "utf8");
  return Object.assign(emulator, { caCert, dataDir });
}

/** Site inputs that create a site on the given emulator (defaults filled in by check()). */
export function siteInputs(emu: TestEmulator, extra: Record<string, unknown> = {}) {
  return {
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: "site-Password-1",
    tls: emu.caCert === undefined ? {} : { caCert: emu.caCert },
    ...extra,
  };
}
