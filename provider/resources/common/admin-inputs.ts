/**
 * The inputs every resource on a server's administrative root has: `serverType`, `adminUrl`,
 * `username`, `password`, `tls` and `timeouts`, their schema around the resource's own fields, and
 * which of them only update state.
 *
 * @internal
 */
import { z } from "zod";
import { SERVER_TYPES } from "../../client";
import { adminRootSchema, nonEmpty, timeoutsSchema, tlsSchema } from "./input-schemas";

/**
 * The schema of `serverType`: one of the products, `mission-server` when omitted.
 *
 * @internal
 */
export function serverTypeSchema() {
  return z
    .enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` })
    .default("mission-server");
}

/**
 * The strict schema of a resource on an administrative root: `serverType`, `adminUrl`, `username`
 * and `password`, then its own fields, then `tls` and its `timeouts` (each limit with its default).
 *
 * @param own - the resource's own fields.
 * @param timeouts - each time limit's name and default, in milliseconds.
 *
 * @internal
 */
export function adminInputsSchema<S extends z.ZodRawShape, K extends string>(
  own: S,
  timeouts: Record<K, number>,
) {
  return z.strictObject({
    serverType: serverTypeSchema(),
    adminUrl: adminRootSchema(),
    username: nonEmpty(),
    password: nonEmpty(),
    ...own,
    tls: tlsSchema(),
    timeouts: timeoutsSchema(timeouts),
  });
}

/**
 * The inputs of a resource on an administrative root whose change only updates state: the
 * credentials it acts with (proved or used at the next call), how it checks the server's
 * certificate, and its time limits. Never what it acts on.
 *
 * @internal
 */
export const ACCESS_INPUTS = ["username", "password", "tls", "timeouts"] as const;
