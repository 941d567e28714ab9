/**
 * The worker thread of off-thread.ts: runs one export transfer and posts its result or error.
 */
import { parentPort, workerData } from "node:worker_threads";
import { transferExport, type ExportTransfer } from "./export-transfer";
import { toWire, type TransferAnswer } from "./off-thread";

const port = parentPort;
if (port !== null) {
  const controller = new AbortController();
  port.on("message", (message: { abort?: boolean }) => {
    if (message.abort === true) controller.abort(new Error("The transfer was aborted."));
  });
  const transfer = workerData as ExportTransfer;
  void transferExport({
    ...transfer,
    transport: { ...transfer.transport, signal: controller.signal },
  })
    .then(
      (result): TransferAnswer => ({ ok: true, result }),
      (error: unknown): TransferAnswer => ({ ok: false, error: toWire(error) }),
    )
    .then((answer) => {
      port.postMessage(answer);
      port.close();
    });
}
