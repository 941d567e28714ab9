/**
 * The parts of undici the client sends with, loaded from their own modules: undici's entry point
 * loads all of undici (fetch, WebSocket, EventSource, the cache and mock agents and their
 * modules), which a new provider process would load before its first request. The Agent and
 * `request` here are undici's own, the same objects as the entry point's (undici has no exports
 * map, so its files are the package's to require; tests/client/undici-parts.test.ts checks that
 * these paths still name the entry point's objects). What needs the entry point's set-up (a
 * proxy: ProxyAgent tunnels with the `connect` method the entry point gives every dispatcher)
 * loads the entry point, when first used.
 *
 * @internal
 */
/* eslint-disable @typescript-eslint/no-require-imports -- undici's files, required one by one */
import type * as Undici from "undici";

/** undici's Agent (`undici/lib/dispatcher/agent.js`). */
export const Agent = require("undici/lib/dispatcher/agent.js") as typeof Undici.Agent;

/** undici's entry point, loaded on first use: all of undici, with its dispatchers' methods. */
function wholeUndici(): typeof Undici {
  return require("undici") as typeof Undici;
}

/** undici's EnvHttpProxyAgent, from its entry point (see above). */
export function envHttpProxyAgent(): typeof Undici.EnvHttpProxyAgent {
  return wholeUndici().EnvHttpProxyAgent;
}

/** undici's `Dispatcher.request` method (`undici/lib/api/api-request.js`), called on a dispatcher. */
const dispatcherRequest = require("undici/lib/api/api-request.js") as (
  this: Undici.Dispatcher,
  options: Undici.Dispatcher.RequestOptions,
) => Promise<Undici.Dispatcher.ResponseData>;

/** What {@link request} takes: undici's request options with the dispatcher required. */
export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, "origin" | "path"> & {
  dispatcher: Undici.Dispatcher;
};

/**
 * undici's `request(url, options)` with an explicit dispatcher: the URL split into origin and
 * path (with its query) as undici's entry point splits it, then the dispatcher's `request`.
 *
 * @example `const res = await request("https://host/arcgis/admin/?f=json", { method: "GET", dispatcher })`
 */
export function request(
  url: string,
  options: RequestOptions,
): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = new URL(url);
  return dispatcherRequest.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: `${parsed.pathname}${parsed.search}`,
  });
}

/** A new undici FormData, from its entry point (an upload: loaded when first needed). */
export function newFormData(): Undici.FormData {
  return new (wholeUndici().FormData)();
}
