/**
 * The emulated machines of this process: each listening emulator registers here, so that one
 * machine finds another by the URL a client gave it (joinSite's `adminURL`, the portal's federate
 * `adminUrl`), as real machines reach each other over the network (docs/emulator.md, "Several
 * machines").
 */
import type { Runtime } from "./runtime";

/** One emulated machine of this process: its runtime and where it listens. */
export interface Machine {
  readonly rt: Runtime;
  readonly port: number;
}

const machines = new Set<Machine>();

/** Makes a listening emulator known to the others of this process; returns its removal. */
export function registerMachine(rt: Runtime, port: number): () => void {
  const entry: Machine = { rt, port };
  machines.add(entry);
  return () => machines.delete(entry);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** The machine of this process that `adminUrl` names, if any. */
export function machineAt(adminUrl: string): Machine | null {
  let url: URL;
  try {
    url = new URL(adminUrl);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  for (const m of machines) {
    if (m.port !== port) continue;
    const names = [m.rt.options.host, m.rt.options.machineName].map((n) => n.toLowerCase());
    if (LOOPBACK.has(host) || names.includes(host)) return m;
  }
  return null;
}

/** Every registered machine. */
export function machinesOfProcess(): Machine[] {
  return [...machines];
}
