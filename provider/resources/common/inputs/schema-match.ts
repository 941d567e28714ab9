/**
 * A build-time check that a hand-written inputs interface and its zod schema agree. The public
 * types stay hand-written (a type derived with `z.infer` would make the declaration files import
 * zod); this check fails the build when the two drift apart.
 *
 * @internal
 */
import type { z } from "zod";

/** `T` with `undefined` allowed in every field, nested objects included (optionality kept). */
type Widened<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]: Widened<T[K]> | undefined }
    : T;

/**
 * `true` when every value the schema parses is an `I` (optional fields may hold `undefined`) and
 * both name the same fields; `false` otherwise.
 *
 * @internal
 */
export type ParsesTo<S extends z.ZodType, I> = [Widened<z.output<S>>] extends [Widened<I>]
  ? [keyof I] extends [keyof z.output<S>]
    ? [keyof z.output<S>] extends [keyof I]
      ? true
      : false
    : false
  : false;

/**
 * Compiles only when `T` is `true`: `type _Check = Assert<ParsesTo<typeof schema, Inputs>>`.
 *
 * @internal
 */
export type Assert<T extends true> = T;
