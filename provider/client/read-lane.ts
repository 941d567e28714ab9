/**
 * One read at a time per server. Reads (GETs and token requests) of one origin wait for the read
 * before them to end, so that they travel one after the other on one kept-alive connection
 * instead of opening one each: a TLS handshake on both sides saved per read that would have run
 * beside another (a refresh reads a Site and its LogSettings at once). Other requests
 * (createNewSite, exportSite, a download) never wait here and never hold a read back, so a long
 * operation does not stall the reads of its server. A read waits at most
 * {@link READ_LANE_WAIT_MS} for the one before: a server that holds an answer (a site being
 * upgraded answers only its upgrade resource; a slow network) then costs the reads after it a
 * connection of their own, never a deadlock (a read held until another resource acts, whose own
 * read would wait behind it).
 *
 * @internal
 */
import { pause } from "./retry";

/** How long a read waits for the read of the same server before it: longer, it goes its own way. */
export const READ_LANE_WAIT_MS = 250;

/** Per origin, the end of the last read that waits or runs; gone when none does. */
const lanes = new Map<string, Promise<void>>();

/**
 * Runs `read` once the reads of the same origin before it have ended, or after
 * {@link READ_LANE_WAIT_MS}; a read whose signal fires while it waits stops waiting and runs at
 * once (and fails as aborted).
 *
 * @param url - the URL read (its origin is the lane).
 * @param signal - cancels the wait with the read.
 * @param read - sends the read and consumes its answer.
 * @returns what `read` returns.
 * @example
 * ```ts
 * await inReadLane(url, transport.signal, () => sendForAnswer(req, transport, ctx));
 * ```
 * Sends no request itself: it decides when `read` sends one.
 */
export async function inReadLane<T>(
  url: string,
  signal: AbortSignal | undefined,
  read: () => Promise<T>,
): Promise<T> {
  const origin = originOf(url);
  const before = lanes.get(origin);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const end = before === undefined ? mine : before.then(() => mine);
  lanes.set(origin, end);
  try {
    // At most READ_LANE_WAIT_MS, and not at all once the signal has fired.
    if (before !== undefined && signal?.aborted !== true) {
      await pause(READ_LANE_WAIT_MS, signal, before);
    }
    return await read();
  } finally {
    release();
    if (lanes.get(origin) === end) lanes.delete(origin);
  }
}

/** The URL's origin; a URL that does not parse is a lane of its own text (the read then fails). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
