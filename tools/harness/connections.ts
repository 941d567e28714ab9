/**
 * Counts the connections undici opens while a function runs, by its `undici:client:connected`
 * diagnostics channel: every TCP (and TLS) connection the client layer makes, whatever the
 * dispatcher.
 */
import * as diagnostics from "node:diagnostics_channel";

/**
 * Runs `fn` and returns its result with the number of connections undici opened meanwhile.
 *
 * @example `const { result, connections } = await connectionsDuring(() => site.read(id, outs))`
 */
export async function connectionsDuring<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; connections: number }> {
  let connections = 0;
  const count = (): void => {
    connections++;
  };
  diagnostics.subscribe("undici:client:connected", count);
  try {
    const result = await fn();
    return { result, connections };
  } finally {
    diagnostics.unsubscribe("undici:client:connected", count);
  }
}
