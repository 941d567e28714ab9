/**
 * The `Federation` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `lifecycle.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../common/pulumi/lazy-provider";
import { registration } from "../common/pulumi/registration";
import { PortalResource, portalResourceFrame } from "../common/base/portal-resource";
import { FEDERATION_KEYS, type FederationArgs, type FederationOutputProperties } from "./generated";
import { resolvePortalConnection } from "../common/connection/resolve";

export { SERVER_ROLES, type ServerRole } from "./values";

/**
 * The serialized provider of `Federation`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/federation.js` when the engine calls it.
 */
export const federationProvider = lazyProvider("federation");

/**
 * What a Federation registers with beyond what every portal resource does: its own outputs and
 * secrets (its input rules read them too).
 *
 * @internal
 */
export const FEDERATION = portalResourceFrame("Federation", federationProvider, FEDERATION_KEYS);

export type { FederationArgs } from "./generated";

/**
 * An ArcGIS server federated with a portal: created with
 * `POST {portal}/portaladmin/federation/servers/federate`, then its role and function set with
 * `…/servers/<id>/update`; destroyed with `…/servers/<id>/unfederate`.
 *
 * @example
 * ```ts
 * new Federation("mission", {
 *   sharingUrl: "https://portal.example.com/portal/sharing/rest",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 *   serverType: site.serverType,
 *   adminUrl: site.adminUrl,
 *   serverUsername: site.username,
 *   serverPassword: site.password,
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class Federation extends PortalResource {
  /**
   * @param name - the resource's name in the stack.
   * @param args - the portal, the server and its role; see {@link FederationArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: FederationArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolvePortalConnection("Federation", name, args);
    // A server is federated with a portal once: a replacement unfederates it first.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(
      ...registration(
        FEDERATION,
        name,
        args,
        { ...connection, serverPassword: pulumi.secret(args.serverPassword) },
        options,
      ),
    );
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Federation extends FederationOutputProperties {}
