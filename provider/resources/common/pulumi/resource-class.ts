/**
 * The class of every resource, made from the keys its frame derives from its definition (which
 * generated.ts holds as data: the class loads neither the definition nor zod): its constructor
 * resolves the connection the definition names, stores every secret input as a secret, applies
 * the definition's `deleteBeforeReplace` default and registers. Each resource's generated.ts
 * declares `class <Type> extends resourceClass(<KEYS>, <provider>) {}`; nothing here is written
 * per resource.
 *
 * @internal
 */
import * as pulumi from "@pulumi/pulumi";
import { PortalResource } from "../base/portal-resource";
import { ServerResource } from "../base/server-resource";
import { resolvePortalConnection, resolveServerConnection } from "../connection/resolve";
import type { ConnectionKind } from "../inputs/definition";
import { knowResource } from "../inputs/sources";
import { quietPromiseTraces, restorePromiseTraces } from "./promise-traces";
import { type ClassKeys, type DynamicResourceParameters, registration } from "./registration";

type Args = Record<string, never>;

/** How each connection kind is resolved from the arguments (and config, and the environment). */
const RESOLVERS: Record<ConnectionKind, (type: string, name: string, args: Args) => object> = {
  server: (type, name, args) => resolveServerConnection(type, name, args),
  // A SiteMachine's adminUrl is the joining machine's own: the site's is siteAdminUrl.
  machine: (type, name, args) => {
    const { siteAdminUrl, username, password, tls, connection } = args;
    const site = { adminUrl: siteAdminUrl, username, password, tls, connection };
    const { adminUrl, ...rest } = resolveServerConnection(type, name, site, "siteAdminUrl");
    return { siteAdminUrl: adminUrl, ...rest };
  },
  portal: (type, name, args) => resolvePortalConnection(type, name, args),
};

/** The secret inputs given, each stored as a secret; one with `secretWith` when it holds that field. */
function secretInputs(keys: ClassKeys, args: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys.secretArguments) {
    if (args[key] !== undefined) out[key] = pulumi.secret(args[key]);
  }
  for (const [key, field] of Object.entries(keys.secretWith)) {
    if (args[key] === undefined) continue;
    out[key] = pulumi
      .output(args[key] as pulumi.Input<Record<string, unknown>>)
      .apply((v) => (v[field] === undefined ? v : pulumi.secret(v)));
  }
  return out;
}

/**
 * The class of a resource: `new (name, args, opts)` registering it as its keys say.
 *
 * @typeParam A - its Args.
 * @typeParam R - the instance: its base class with its outputs.
 * @param keys - what its frame derives from its definition (written into generated.ts).
 * @param provider - its provider: the exports of its module `<folder>/provider.ts`, so that the
 *   state records a `require` of that module (common/pulumi/lazy-provider.ts).
 *
 * @internal
 */
export function resourceClass<A extends object, R extends pulumi.dynamic.Resource>(
  keys: ClassKeys,
  provider: pulumi.dynamic.ResourceProvider,
): new (name: string, args: A, opts?: pulumi.CustomResourceOptions) => R {
  knowResource(keys);
  // The exported `<type>Provider` itself: a module's exports, which state records by its path.
  const frame = { ...keys, provider };
  const resolve = RESOLVERS[keys.connection];
  const Base: abstract new (...params: DynamicResourceParameters) => pulumi.dynamic.Resource =
    keys.connection === "portal" ? PortalResource : ServerResource;
  class FramedResource extends Base {
    constructor(name: string, args: A, opts?: pulumi.CustomResourceOptions) {
      const given = args as Args;
      const resolved = { ...resolve(keys.type, name, given), ...secretInputs(keys, given) };
      const first = keys.deleteBeforeReplace === true && opts?.deleteBeforeReplace !== false;
      const options = first ? { ...opts, deleteBeforeReplace: true } : opts;
      const parameters = registration(frame, name, args, resolved, options);
      const limit = quietPromiseTraces();
      try {
        super(...parameters);
      } finally {
        restorePromiseTraces(limit);
      }
    }
  }
  return FramedResource as unknown as new (
    name: string,
    args: A,
    opts?: pulumi.CustomResourceOptions,
  ) => R;
}
