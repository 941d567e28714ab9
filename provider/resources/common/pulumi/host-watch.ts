/**
 * Ends Pulumi's dynamic-provider host when the engine that started it is gone. The engine (the
 * `pulumi` CLI) starts the host as a child and talks to it over gRPC; killed (SIGKILL, a CI
 * runner that disappears), it tells the host nothing, and the host, which never watches its
 * parent, stays behind idle for good, one per killed run (seen in tests/real-engine/cancel.test.ts
 * under load). Started once, by the first lifecycle step that runs in the host; in any other
 * process (tests, programs) it does nothing.
 */

/** How often the parent is looked at; the timer never keeps the process alive. */
const WATCH_INTERVAL_MS = 1_000;

let watching = false;

/** Whether this process is the dynamic-provider host that `pulumi` starts. */
export function inProviderHost(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(process.argv[1] ?? "");
}

/**
 * Once per process, in the host: exits when the parent changes (the engine ended and the host was
 * handed to another parent). An operation under way then has no one to report to: the engine that
 * would record its outcome is gone, and the next run resolves it as after any lost answer.
 */
export function watchHostParent(): void {
  if (watching || !inProviderHost()) return;
  watching = true;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, WATCH_INTERVAL_MS).unref();
}
