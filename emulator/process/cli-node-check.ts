/**
 * The CLI's refusal of an unsupported Node.js: one sentence saying what to install and exit code
 * 1, not the stack trace of an error thrown while modules load (a user can fix this themselves).
 */
import { unsupportedNodeMessage } from "../core/supported-node";

const unsupported = unsupportedNodeMessage();
if (unsupported !== undefined) {
  process.stderr.write(`arcgis-admin-emulator: ${unsupported}\n`);
  process.exit(1);
}
