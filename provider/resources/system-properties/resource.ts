/**
 * The `SystemProperties` resource as a Pulumi program declares it: its arguments and its class.
 * The lifecycle is in `lifecycle.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { lazyProvider } from "../common/pulumi/lazy-provider";
import { registration } from "../common/pulumi/registration";
import {
  SYSTEM_PROPERTIES_KEYS,
  type SystemPropertiesArgs,
  type SystemPropertiesInputs,
  type SystemPropertiesOutputProperties,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";

/**
 * The serialized provider of `SystemProperties`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/system-properties.js` when the engine calls it.
 */
export const systemPropertiesProvider = lazyProvider("system-properties");

/**
 * What a SystemProperties registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SYSTEM_PROPERTIES = serverResourceFrame(
  "SystemProperties",
  systemPropertiesProvider,
  SYSTEM_PROPERTIES_KEYS,
);

export type { SystemPropertiesArgs } from "./generated";

/**
 * Some of a server's system properties, kept as declared with
 * `POST {admin_root}/system/properties/update`. The server's update replaces the whole set, so
 * the resource reads it, changes only the declared properties and sends every other one back as
 * read. A change is an update in place.
 *
 * @example
 * ```ts
 * new SystemProperties("properties", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   properties: { WebContextURL: "https://gis.example.com/server" },
 *   restoreOnDestroy: true,
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class SystemProperties extends ServerResource<SystemPropertiesInputs["timeouts"]> {
  /**
   * @param name - the resource's name in the stack.
   * @param args - which server and which properties; see {@link SystemPropertiesArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SystemPropertiesArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("SystemProperties", name, args);
    // Replaced by deleting first: with restoreOnDestroy, the old resource's delete puts the
    // pre-stack values back, and a new resource created before it would see them undone.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(...registration(SYSTEM_PROPERTIES, name, args, connection, options));
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SystemProperties extends SystemPropertiesOutputProperties {}
