/**
 * A local emulator of an ArcGIS mission server (administrative API) and a portal (sharing
 * API), to try and test ArcGIS administration code without a licensed server. Importable as
 * `pulumi-arcgis-admin/emulator`; the `arcgis-admin-emulator` CLI wraps the same function.
 * This file is the public face: re-exports only.
 */
import "./core/node-version";

export { startEmulator } from "./start";
export type { EmulatorEndpoints, RunningEmulator } from "./core/endpoints";
export type {
  EmulatorOptions,
  EmulatorSeed,
  EmulatorSeedInput,
  ServerTimeouts,
} from "./core/options";
export { DEFAULT_PORTAL_ADMIN, DEFAULT_SERVER_TIMEOUTS } from "./core/options";
export type { ExportUrlForm, ServerType } from "./core/products";
export { SERVER_TYPES } from "./core/products";
export type { EmulatorStats, RequestLogEntry } from "./core/runtime";
export { MAX_BODY_BYTES } from "./core/http";
export {
  DaemonError,
  findRunning,
  startDetached,
  stopDetached,
  type DetachedEmulator,
  type DetachOptions,
} from "./process/daemon";
