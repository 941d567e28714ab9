/**
 * The `Collaboration` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `collaboration.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../common/lazy-provider";
import { registration } from "../common/registration";
import { PortalResource, portalResourceFrame } from "../common/portal-resource";
import type { PortalConnectionArgs } from "../common/portal-resource";
import { resolvePortalConnection } from "../common/connection";

/**
 * The serialized provider of `Collaboration`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/collaboration.js` when the engine calls it.
 */
export const collaborationProvider = lazyProvider("collaboration");

/**
 * What a Collaboration registers with beyond what every portal resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const COLLABORATION = portalResourceFrame("Collaboration", collaborationProvider, {
  fromArguments: ["leaveAsGuest", "deleteAdoptedOnDestroy", "portalId"],
  outputOnly: ["portalIdGiven", "name", "description", "hostPortalId", "role", "state"],
});

/**
 * Arguments of a {@link Collaboration}: the portal's connection ({@link PortalConnectionArgs})
 * and the collaboration. Every field accepts a `pulumi.Input`.
 */
export interface CollaborationArgs extends PortalConnectionArgs {
  /** The collaboration's id. */
  collaborationId: pulumi.Input<string>;
  /** This portal's id; omitted, it is read from portals/self. */
  portalId?: pulumi.Input<string>;
  /** On a guest portal: make destroy remove this portal's participation (default false). */
  leaveAsGuest?: pulumi.Input<boolean>;
  /**
   * For a collaboration imported with `pulumi import` (through the provider plugin): make destroy
   * delete it (host) or leave it (guest, with leaveAsGuest). Default false: an imported one is
   * left as it is.
   */
  deleteAdoptedOnDestroy?: pulumi.Input<boolean>;
}

/**
 * A distributed collaboration whose deletion this stack owns: `pulumi destroy` calls
 * `POST {base_url}/portals/<portal_id>/collaborations/<id>/delete` (host) or
 * `.../removeParticipation` (guest, with leaveAsGuest).
 *
 * @example
 * ```ts
 * new Collaboration("partners", {
 *   sharingUrl: "https://portal.example.com/portal/sharing/rest",
 *   collaborationId: "8ba8a0b9c5d94c35b2c8f3a1e4d2c7b6",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 * });
 * ```
 */
export class Collaboration extends PortalResource {
  /** The collaboration's id. */
  declare public readonly collaborationId: pulumi.Output<string>;
  /** Whether portalId was given (false: it was read from portals/self). */
  declare public readonly portalIdGiven: pulumi.Output<boolean>;
  /** Whether destroy on a guest portal removes this portal's participation. */
  declare public readonly leaveAsGuest: pulumi.Output<boolean>;
  /** The portal id used. */
  declare public readonly portalId: pulumi.Output<string>;
  /** Whether destroy deletes or leaves a collaboration this stack imported. */
  declare public readonly deleteAdoptedOnDestroy: pulumi.Output<boolean>;
  /** `confirmed` (declared in the program) or `adopted` (brought in by `pulumi import`). */
  declare public readonly state: pulumi.Output<"confirmed" | "adopted" | undefined>;
  /** The collaboration's name. */
  declare public readonly name: pulumi.Output<string>;
  /** The collaboration's description. */
  declare public readonly description: pulumi.Output<string>;
  /** The host portal's id. */
  declare public readonly hostPortalId: pulumi.Output<string>;
  /** This portal's role in the collaboration. */
  declare public readonly role: pulumi.Output<"host" | "guest">;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the collaboration and credentials; see {@link CollaborationArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: CollaborationArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolvePortalConnection("Collaboration", name, args);
    super(...registration(COLLABORATION, name, args, connection, opts));
  }
}
