/**
 * Runs an export's transfer (export-transfer.ts) in a worker thread with a small heap, and
 * carries its errors back as the classes the callers match on.
 *
 * Why a thread: the server's answer arrives as one new buffer per TLS record, garbage once
 * copied on, and V8 lets such garbage pile up in proportion to the heap of the thread that reads
 * it. The provider host's heap is large (mostly `@pulumi/pulumi`), so a large archive streamed
 * through it left much garbage behind; a worker whose heap holds only the client keeps the host's
 * memory growth small (bench figure 9). The thread is started for one transfer and ends with it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { TransportOptions } from "../dispatcher";
import { ArcGISRequestError, isArcGISRequestError } from "../errors";
import { ObjectStoreError } from "./object-store";
import type { ExportTransfer } from "./export-transfer";
import type { UploadedExport } from "./uploaded-export";
import { endSentence } from "../../sentence";

/** The compiled worker beside this module (absent when the sources run through a TS loader). */
const WORKER_FILE = join(__dirname, "export-worker.js");

/**
 * The worker's old-generation limit, MiB: about twice what the client, undici and the AWS SDK
 * hold, so that V8 collects the transfer's garbage early. Buffers are outside this limit.
 */
export const TRANSFER_HEAP_MB = 64;

/** An error as it crosses from the worker: what the callers read of it. */
export interface WireError {
  kind: "arcgis" | "store" | "other";
  name: string;
  message: string;
  stack?: string | undefined;
  code?: string | undefined;
  fields?: Record<string, unknown> | undefined;
  cause?: WireError | undefined;
}

/** The worker's one message. */
export type TransferAnswer = { ok: true; result: UploadedExport } | { ok: false; error: WireError };

/**
 * Whether a transfer with this transport can run in the worker: the compiled worker exists and
 * the caller brought no dispatcher of its own (which cannot cross threads).
 *
 * @param transport - the transfer's transport.
 * @returns true to run it off-thread.
 * @example `canTransferOffThread({ tls: {} })`
 * @internal
 */
export function canTransferOffThread(transport: TransportOptions): boolean {
  return transport.dispatcher === undefined && existsSync(WORKER_FILE);
}

/**
 * Runs {@link ExportTransfer} in a new worker thread; an abort of `transfer.transport.signal`
 * aborts it there (its multipart upload is aborted as in the calling thread).
 *
 * @param transfer - the transfer, as for transferExport.
 * @returns the same result, or rejects with the same error classes.
 * @example `await transferExportOffThread(transfer)`
 * @internal
 */
export function transferExportOffThread(transfer: ExportTransfer): Promise<UploadedExport> {
  const { signal, dispatcher: _dispatcher, ...transport } = transfer.transport;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, {
      workerData: { ...transfer, transport },
      resourceLimits: { maxOldGenerationSizeMb: TRANSFER_HEAP_MB },
    });
    let settled = false;
    const abort = (): void => worker.postMessage({ abort: true });
    const settle = (): void => {
      settled = true;
      signal?.removeEventListener("abort", abort);
      void worker.terminate();
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
    worker.once("message", (answer: TransferAnswer) => {
      settle();
      if (answer.ok) resolve(answer.result);
      else reject(fromWire(answer.error));
    });
    worker.once("error", (error: Error) => {
      if (settled) return;
      settle();
      reject(
        new Error(
          `The thread streaming the export to the store failed: ${endSentence(error.message)} An unfinished ` +
            "multipart upload may be left in the bucket (S3 lifecycle rules remove those).",
          { cause: error },
        ),
      );
    });
    worker.once("exit", (code) => {
      if (settled) return;
      settle();
      reject(new Error(`The thread streaming the export to the store ended (exit ${code}).`));
    });
  });
}

/**
 * An error as it can be posted from the worker.
 *
 * @param e - what the transfer threw.
 * @returns its wire form.
 * @example `parentPort.postMessage({ ok: false, error: toWire(e) })`
 * @internal
 */
export function toWire(e: unknown, depth = 0): WireError {
  const cause = (c: unknown): WireError | undefined =>
    c === undefined || depth >= 3 ? undefined : toWire(c, depth + 1);
  if (isArcGISRequestError(e)) {
    const { code, operation, url, serverCode, messages, httpStatus, errorFormat } = e;
    return {
      kind: "arcgis",
      name: e.name,
      message: e.message,
      stack: e.stack,
      fields: { code, operation, url, serverCode, messages, httpStatus, errorFormat },
      cause: cause(e.cause),
    };
  }
  if (e instanceof ObjectStoreError) {
    return {
      kind: "store",
      name: e.name,
      message: e.message,
      stack: e.stack,
      code: e.code,
      cause: cause(e.cause),
    };
  }
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return {
      kind: "other",
      name: e.name,
      message: e.message,
      stack: e.stack,
      code: typeof code === "string" ? code : undefined,
      cause: cause(e.cause),
    };
  }
  return { kind: "other", name: "Error", message: String(e) };
}

/** The error a wire form stands for, of the class it was thrown as. */
function fromWire(w: WireError): Error {
  const cause = w.cause === undefined ? undefined : fromWire(w.cause);
  let error: Error;
  if (w.kind === "arcgis") {
    error = Object.create(ArcGISRequestError.prototype) as Error;
    for (const [key, value] of Object.entries(w.fields ?? {})) {
      if (value !== undefined) Object.defineProperty(error, key, { value, enumerable: true });
    }
    Object.defineProperty(error, "name", { value: w.name, enumerable: true });
    Object.defineProperty(error, "message", { value: w.message, writable: true });
    if (cause !== undefined) Object.defineProperty(error, "cause", { value: cause });
  } else if (w.kind === "store") {
    error = new ObjectStoreError(w.message, w.code, cause === undefined ? undefined : { cause });
  } else {
    error = new Error(w.message, cause === undefined ? undefined : { cause });
    error.name = w.name;
    if (w.code !== undefined) Object.assign(error, { code: w.code });
  }
  if (w.stack !== undefined) {
    Object.defineProperty(error, "stack", { value: w.stack, writable: true, configurable: true });
  }
  return error;
}
