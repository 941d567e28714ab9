/**
 * The request lines a running emulator keeps in memory for `requestLog()` and
 * `/__emulator/requests`. Bounded by entries and by bytes, with long URLs truncated, so that a
 * long CI run or a client sending huge URLs cannot make the emulator grow without end;
 * `requests.log` on disk and the log lines on stderr cut long URLs the same way.
 */

/** One received request line (never a body). */
export interface RequestLogEntry {
  readonly method: string;
  /**
   * Path and query as received; one longer than {@link MAX_LOGGED_URL_CHARS} is cut there and
   * ends with {@link TRUNCATION_MARK} and its full length.
   */
  readonly url: string;
  /** ISO 8601 time of arrival. */
  readonly at: string;
}

/**
 * Request lines kept in memory; older ones are dropped. Far more than a test or a benchmark run
 * looks back over; with ordinary URLs this bound is reached before the byte bound.
 */
export const MAX_REQUEST_LOG_ENTRIES = 20_000;

/** What the kept lines may cost at most (estimated, see {@link entryBytes}); older ones are dropped. */
export const MAX_REQUEST_LOG_BYTES = 4 * 1024 * 1024;

/**
 * Characters of a URL kept in memory. Every URL a test or an Esri tool filters on (a path and a
 * few parameters) fits; a URL near Node's 16 KiB header limit does not need to.
 */
export const MAX_LOGGED_URL_CHARS = 1024;

/**
 * What follows a truncated URL, before its full length in characters. ASCII, so that the cut URL
 * of a one-byte URL stays a one-byte string: one character outside Latin-1 would make V8 store
 * the whole line two bytes a character.
 */
export const TRUNCATION_MARK = "...[truncated; length ";

/** Characters V8 stores in two bytes; Node's HTTP parser hands over URLs without any. */
const WIDE = /[\u0100-\uffff]/;

/**
 * The memory an entry costs, estimated: a byte a character (two for a string V8 must store
 * wide) plus the objects around the strings.
 */
export function entryBytes(entry: RequestLogEntry): number {
  const chars = entry.method.length + entry.url.length + entry.at.length;
  return (WIDE.test(entry.url) ? 2 : 1) * chars + 96;
}

/**
 * A URL as kept in memory. The cut is copied through a Buffer: V8 makes a substring a slice of
 * its parent, which would keep the whole long URL alive behind the short one.
 */
export function loggedUrl(url: string): string {
  if (url.length <= MAX_LOGGED_URL_CHARS) return url;
  const cut = url.slice(0, MAX_LOGGED_URL_CHARS);
  const encoding = WIDE.test(cut) ? "utf8" : "latin1";
  const head = Buffer.from(cut, encoding).toString(encoding);
  return `${head}${TRUNCATION_MARK}${url.length}]`;
}

/** The in-memory request log, oldest first. */
export class RequestLog {
  /** Dropped entries are cleared at once, so their strings are freed before the next compaction. */
  private entries: Array<RequestLogEntry | undefined> = [];
  /** Index of the oldest kept entry: dropping moves it instead of shifting the array each time. */
  private head = 0;
  private bytes = 0;

  /** Records a request line (its URL truncated), dropping the oldest beyond either bound. */
  push(method: string, url: string, at: string): RequestLogEntry {
    const entry: RequestLogEntry = { method, url: loggedUrl(url), at };
    this.entries.push(entry);
    this.bytes += entryBytes(entry);
    while (
      this.entries.length - this.head > MAX_REQUEST_LOG_ENTRIES ||
      this.bytes > MAX_REQUEST_LOG_BYTES
    ) {
      this.bytes -= entryBytes(this.entries[this.head]!);
      this.entries[this.head] = undefined;
      this.head++;
    }
    // Compacted once the dropped part is the larger half, so each entry is moved O(1) times.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** The kept entries, oldest first (a copy). */
  list(): RequestLogEntry[] {
    return this.entries.slice(this.head) as RequestLogEntry[];
  }

  /** How many entries are kept. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** The estimated memory the kept entries cost ({@link entryBytes}). */
  get byteSize(): number {
    return this.bytes;
  }
}
