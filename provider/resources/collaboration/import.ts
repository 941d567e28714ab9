/**
 * `pulumi import` of a Collaboration (through the provider plugin): the id is the collaboration's
 * id (on this portal), or `<portalId>/<collaborationId>` (the resource's own id). It is read as
 * create reads it and recorded as `adopted`: destroy leaves it as it is unless
 * `deleteAdoptedOnDestroy` is set.
 */
import { type Importer, type Values } from "../common/pulumi/importer";
import { confirm } from "./lifecycle";
import { COLLABORATION } from "./definition";

/** @internal */
export const importer: Importer = {
  idFormat: "<collaborationId> or <portalId>/<collaborationId>",
  options: [],
  fromId(id) {
    const parts = id.main.split("/");
    if (parts.length > 2 || parts.some((p) => p.trim() === "")) {
      throw new Error(
        `Cannot import the Collaboration "${id.text}": the id is <collaborationId> or ` +
          "<portalId>/<collaborationId>.",
      );
    }
    return parts.length === 2
      ? { portalId: parts[0], collaborationId: parts[1] }
      : { collaborationId: parts[0] };
  },
  async adopt(_id, raw: Values) {
    const { id, outs } = await confirm(COLLABORATION.parse(raw), "adopted");
    return { id, outs: outs as unknown as Values };
  },
};
