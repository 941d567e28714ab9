/**
 * Refuses an unsupported Node.js when the emulator is loaded as a library: before undici or the
 * server code is required. The emulator's own check (it imports nothing from `provider/`).
 */
import { unsupportedNodeMessage } from "./supported-node";

export { SUPPORTED_NODE } from "./supported-node";

const unsupported = unsupportedNodeMessage();
if (unsupported !== undefined) {
  throw Object.assign(new Error(unsupported), { code: "UNSUPPORTED_NODE" });
}
