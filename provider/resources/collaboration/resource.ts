/**
 * The `Collaboration` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `collaboration.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../common/pulumi/lazy-provider";
import { registration } from "../common/pulumi/registration";
import {
  COLLABORATION_KEYS,
  type CollaborationArgs,
  type CollaborationOutputProperties,
} from "./generated";
import { PortalResource, portalResourceFrame } from "../common/base/portal-resource";
import { resolvePortalConnection } from "../common/connection/resolve";

/**
 * The serialized provider of `Collaboration`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/collaboration.js` when the engine calls it.
 */
export const collaborationProvider = lazyProvider("collaboration");

/**
 * What a Collaboration registers with beyond what every portal resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const COLLABORATION = portalResourceFrame(
  "Collaboration",
  collaborationProvider,
  COLLABORATION_KEYS,
);

export type { CollaborationArgs } from "./generated";

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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class Collaboration extends PortalResource {
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

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Collaboration extends CollaborationOutputProperties {}
