/**
 * The outputs of a resource's class, from the state its definition describes (a public type: the
 * declaration of every class names it).
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * The outputs a class declares beyond its base class's: each of its state's fields (`O`, its
 * generated `<Type>Outputs`) that `Base` (its base class) does not declare, as a `pulumi.Output`, with the field's
 * own TSDoc.
 */
export type OutputProperties<O, Base> = {
  readonly [K in keyof O as K extends keyof Base ? never : K]-?: pulumi.Output<O[K]>;
};
