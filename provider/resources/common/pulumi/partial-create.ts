/**
 * A create that changed the server and then failed in a later step keeps what it made, through
 * Pulumi's own partial state for a failed create (the provider protocol's
 * `ErrorResourceInitFailed`): the engine records the resource under the id and outputs given,
 * shows the error, calls update on the next `pulumi up` to finish, and delete on destroy.
 */

/**
 * The error a create throws when the server holds part of its work. Pulumi's Node.js
 * dynamic-provider host turns an error with `id`, `properties` and `reasons` into partial state;
 * the plugin's server does the same (provider/plugin/server.ts).
 */
export class PartialCreateError extends Error {
  readonly reasons: string[];

  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "PartialCreateError";
    this.reasons = [message];
  }
}

/**
 * The partial-state error of a create that made `id` (its outputs `outs`) before `message`
 * failed it. `raw` is what create was given: the dynamic-provider host reads its serialized
 * provider from the recorded outputs on update and delete, so it is carried over.
 */
export function partialCreate(
  message: string,
  id: string,
  outs: object,
  raw: unknown,
  cause?: unknown,
): PartialCreateError {
  const provider = (raw as { __provider?: unknown } | undefined)?.__provider;
  const properties: Record<string, unknown> = { ...outs };
  if (provider !== undefined) properties.__provider = provider;
  return new PartialCreateError(message, id, properties, cause === undefined ? {} : { cause });
}

/** Whether a failure is a create's partial state (see {@link PartialCreateError}). */
export function isPartialCreate(error: unknown): error is PartialCreateError {
  return error instanceof PartialCreateError;
}
