/**
 * Type tokens and the resource options every resource registers with.
 */
import * as pulumi from "@pulumi/pulumi";
import { logWarn } from "../messages/log";

/**
 * The module of every resource's type token. Pulumi gives a dynamic resource the type
 * `pulumi-nodejs:dynamic/<module>:<type>` (its package is always the dynamic-provider host's,
 * `pulumi-nodejs`), so a Site is `pulumi-nodejs:dynamic/arcgis-admin:Site`.
 */
export const TYPE_MODULE = "arcgis-admin";

/**
 * The type every resource of versions before 0.2 had: Pulumi's default for a dynamic resource.
 * A stack created with such a version keeps its resources when they get
 * `aliases: [{ type: LEGACY_RESOURCE_TYPE }]` for one `pulumi up`.
 */
export const LEGACY_RESOURCE_TYPE = "pulumi-nodejs:dynamic:Resource";

/**
 * The full type token of a resource of this package, e.g. `pulumi-nodejs:dynamic/arcgis-admin:Site`.
 *
 * @param type - the resource's class name.
 */
export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${TYPE_MODULE}:${type}`;
}

/**
 * The resource options a resource registers with: the user's, with this resource's secret outputs
 * added to (never replacing) the user's `additionalSecretOutputs`. Options that dynamic resources
 * cannot honour are warned about, naming the argument that does the job: `customTimeouts` (the
 * engine does not apply them to dynamic resources: use `timeouts`) and `replaceOnChanges` (the host
 * reports no changed keys). `import` is refused: the engine reads an imported resource without the
 * provider code a dynamic resource carries, so it would fail anyway, with a stack trace
 * (tests/real-engine/ts-import-option.test.ts).
 *
 * A resource class gets them through `registration(...)` (registration.ts), from its frame's
 * `secretOutputs`.
 *
 * @param type - the resource's class name, for the warnings.
 * @param name - the resource's name, for the warnings.
 * @param opts - the user's options.
 * @param secretOutputs - the outputs this resource always keeps secret.
 */
export function resourceOptions(
  type: string,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: readonly string[],
): pulumi.CustomResourceOptions {
  const merged = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])];
  if (opts?.customTimeouts !== undefined) {
    logWarn(
      `${type} "${name}": customTimeouts is ignored (Pulumi does not apply it to dynamic ` +
        `resources); use the resource's own timeouts argument instead.`,
    );
  }
  if (opts?.replaceOnChanges !== undefined && opts.replaceOnChanges.length > 0) {
    logWarn(
      `${type} "${name}": replaceOnChanges is ignored (Pulumi's dynamic-provider host reports no ` +
        "changed properties to the engine, so it cannot match them); this resource decides " +
        "itself which changes replace it (see its page in docs/), and `pulumi up --replace " +
        "<urn>` replaces it on demand.",
    );
  }
  if (opts?.import !== undefined) {
    throw new pulumi.RunError(
      `${type} "${name}": the import option does not work on this package's TypeScript classes ` +
        "(Pulumi reads an imported resource without the provider code a dynamic resource " +
        "carries). " +
        (type === "Site" || type === "Federation"
          ? "To manage an existing one, set adoptExisting: true instead"
          : "Declare it without the option: it takes on what it finds when created") +
        "; or import it with `pulumi import` through the provider plugin (docs/import.md).",
    );
  }
  return { ...opts, additionalSecretOutputs: merged };
}
