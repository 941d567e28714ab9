/**
 * Small helpers of the fault suites: timing an outcome, free ports, and building inputs for a Site
 * behind the fault proxy.
 */
import * as net from "node:net";
import type { TestEmulator } from "../../tools/harness/emulator";
import type { FaultProxy } from "../helpers/fault-proxy";

/** What an awaited operation ended with, and how long it took. */
export type Outcome<T> =
  { ok: true; value: T; ms: number } | { ok: false; error: Error; ms: number };

/** Awaits `promise` and measures it; never rejects. */
export async function measure<T>(promise: Promise<T> | (() => Promise<T>)): Promise<Outcome<T>> {
  const started = Date.now();
  try {
    const value = await (typeof promise === "function" ? promise() : promise);
    return { ok: true, value, ms: Date.now() - started };
  } catch (error) {
    return {
      ok: false,
      error: error instanceof Error ? error : new Error(String(error)),
      ms: Date.now() - started,
    };
  }
}

/** The value of a successful outcome; fails the test with the error otherwise. */
export function valueOf<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error.message}`);
  return outcome.value;
}

/** The error of a failed outcome; fails the test otherwise. */
export function errorOf(outcome: Outcome<unknown>): Error {
  if (outcome.ok) throw new Error("expected a failure, but the operation succeeded");
  return outcome.error;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (nothing listens on it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The admin URL of the emulator as reached through the proxy. */
export function proxiedAdminUrl(proxy: FaultProxy, emu: TestEmulator): string {
  return proxy.url + new URL(emu.adminUrl).pathname;
}

/** The sharing URL of the emulator as reached through the proxy. */
export function proxiedSharingUrl(proxy: FaultProxy, emu: TestEmulator): string {
  return proxy.url + new URL(emu.sharingUrl).pathname;
}

/** How many requests the proxy answered with a fault (anything but forwarding). */
export function faultsSeen(proxy: FaultProxy): number {
  return proxy.seen.filter((s) => s.fault !== "forward").length;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
