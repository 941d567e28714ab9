/**
 * The emulator listens on 127.0.0.1 unless told otherwise: the address it bound is read from the
 * kernel's socket table (Linux /proc/net/tcp*), and a connection to one of this machine's other
 * addresses is refused. Checked for startEmulator and for the CLI as a child process, and the
 * other way round for `host: "0.0.0.0"` (told otherwise).
 */
import { promises as fs, existsSync } from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import { startTestEmulator } from "../../tools/harness/emulator";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { buildEmulatorCli, SpawnedEmulator } from "../../tools/harness/spawn-emulator";
import { runTempDir } from "../../tools/harness/temp";

const figures = new SuiteFigures("security-listen");
afterAll(() => figures.write());

const HAS_PROC = existsSync("/proc/net/tcp");

/** Decodes a /proc/net/tcp address (`0100007F:1F90`) to `127.0.0.1`, or an IPv6 one. */
function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(".");
  }
  // IPv6: four little-endian 32-bit words.
  const words = [0, 8, 16, 24].map((i) =>
    hex
      .slice(i, i + 8)
      .match(/../g)!
      .reverse()
      .join(""),
  );
  const groups = words
    .join("")
    .match(/..../g)!
    .map((g) => parseInt(g, 16).toString(16));
  return groups.join(":").replace(/(^|:)0(:0)+(:|$)/, "::");
}

/** Local addresses of the sockets LISTENing on `port`, from the kernel's tables. */
async function listeningAddresses(port: number): Promise<string[]> {
  const out: string[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = await fs.readFile(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hexAddress, hexPort] = local!.split(":");
      if (state === "0A" && parseInt(hexPort!, 16) === port) out.push(decodeAddress(hexAddress!));
    }
  }
  return out.sort();
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function otherAddress(): string | undefined {
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === "IPv4" && !entry.internal) return entry.address;
    }
  }
  return undefined;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe("the address the emulator binds", () => {
  const other = otherAddress();

  it("is 127.0.0.1 by default (startEmulator)", async () => {
    const emu = await startTestEmulator({ tls: false });
    try {
      const port = Number(new URL(emu.adminUrl).port);
      expect(new URL(emu.adminUrl).hostname).toBe("127.0.0.1");
      if (HAS_PROC) expect(await listeningAddresses(port)).toEqual(["127.0.0.1"]);
      expect(await accepts("127.0.0.1", port)).toBe(true);
      if (other !== undefined) expect(await accepts(other, port)).toBe(false);
      figures.record(
        "startEmulator default bind",
        { refusalsVerified: other === undefined ? 0 : 1 },
        {
          kernelTableChecked: HAS_PROC,
          otherAddressChecked: other !== undefined,
        },
      );
    } finally {
      await emu.close();
    }
  });

  it("is 127.0.0.1 by default (the CLI as a child process)", async () => {
    const data = runTempDir("listen-data-");
    const child = await SpawnedEmulator.start(await buildEmulatorCli(), [
      "--data-dir",
      data,
      "--no-tls",
      "--quiet",
    ]);
    try {
      const port = Number(new URL(child.ready.adminUrl).port);
      if (HAS_PROC) expect(await listeningAddresses(port)).toEqual(["127.0.0.1"]);
      expect(await accepts("127.0.0.1", port)).toBe(true);
      if (other !== undefined) expect(await accepts(other, port)).toBe(false);
      figures.record(
        "CLI default bind",
        { refusalsVerified: other === undefined ? 0 : 1 },
        {
          kernelTableChecked: HAS_PROC,
        },
      );
    } finally {
      await child.stop();
      await fs.rm(data, { recursive: true, force: true });
    }
  });

  it("is every interface only when told so (host 0.0.0.0)", async () => {
    const emu = await startTestEmulator({ tls: false, host: "0.0.0.0" });
    try {
      const port = Number(new URL(emu.adminUrl).port);
      if (HAS_PROC) expect(await listeningAddresses(port)).toEqual(["0.0.0.0"]);
      if (other !== undefined) expect(await accepts(other, port)).toBe(true);
      figures.record("host 0.0.0.0 when asked", {}, { kernelTableChecked: HAS_PROC });
    } finally {
      await emu.close();
    }
  });
});
