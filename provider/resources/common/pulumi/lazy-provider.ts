/**
 * The lazy provider that Pulumi serializes into every resource's state, and the methods every
 * resource implementation provides.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the host loads the implementation by name */
import type * as pulumi from "@pulumi/pulumi";

/** The package name under which the host resolves our implementation at run time. */
export const PACKAGE_NAME = "pulumi-arcgis-admin";

/** The reserved input in which Pulumi keeps the serialized provider. */
const PROVIDER_KEY = "__provider";

/**
 * The methods every resource implementation provides (a Pulumi dynamic provider). `check` called
 * for the engine (`forEngine`) marks the certificate inputs as secrets (`secrets.ts`); called
 * directly, it answers the plain values the other methods take.
 */
export type ResourceImplementation = Required<
  Pick<pulumi.dynamic.ResourceProvider, "diff" | "create" | "read" | "update" | "delete">
> & {
  check(olds: unknown, news: unknown, forEngine?: boolean): Promise<pulumi.dynamic.CheckResult>;
  /** Keeps the stack's config, from which `tls.caCertConfig` is read (../connection/ca-config.ts). */
  configure(config: pulumi.dynamic.Config): void;
};

/**
 * Builds the small provider object that Pulumi serializes into every resource's state.
 *
 * Its methods load the real implementation by package name when the host calls them, so state holds
 * a small stub (bench figure 1) instead of the whole client layer, and the provider keeps working
 * when the package is installed in a user's node_modules (where the host's cwd is the user's
 * project and relative requires fail). Each resource's generated module `<folder>/provider.ts`
 * exports this object as its whole exports: Pulumi's serializer records a captured value that is
 * the exports of a module of an installed package as a `require` of that module, so the state
 * of a program using the installed package holds one line per resource, not these methods
 * (bench figure 1). Where the package is not installed (this repository's own runs), the object
 * is serialized by value: the methods must not reference anything from module scope, since
 * whatever they capture is copied into state.
 *
 * @param resourceFile - the file under dist/provider/resources/ that exports `implementation`.
 * @example
 * ```ts
 * export const siteProvider = lazyProvider("site");
 * ```
 */
export function lazyProvider(resourceFile: string): pulumi.dynamic.ResourceProvider {
  // Exports patterns add no extension: name the .js file itself.
  const modulePath = "pulumi-arcgis-admin/dist/provider/resources/" + resourceFile + ".js";
  return {
    // Comments stay outside the methods: a method's text, comments included, is stored in state.
    // Pulumi's host calls configure once, before the others, with the stack's config; only that
    // host calls it. The modules it loads then go through Node's compile cache (Node's own
    // folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off), written at once (Node 22 writes it at
    // exit, and the engine may stop the host without one). A later host skips compiling them.
    async configure(req: pulumi.dynamic.ConfigureRequest) {
      const nodeModule = require("node:module") as typeof import("node:module");
      nodeModule.enableCompileCache?.();
      const m = require(modulePath) as { implementation: ResourceImplementation };
      nodeModule.flushCompileCache?.();
      m.implementation.configure(req.config);
    },
    // The engine prints a failure with a property as "property P value V has a problem", V being
    // the input as it is, a secret's plain value included: the property goes into the reason.
    async check(olds: unknown, news: unknown) {
      const m = require(modulePath) as { implementation: ResourceImplementation };
      const result = await m.implementation.check(olds, news, true);
      return {
        ...result,
        failures: (result.failures ?? []).map((f) => ({
          property: "",
          reason: f.property === "" ? f.reason : `${f.property}: ${f.reason}`,
        })),
      };
    },
    async diff(id: string, olds: unknown, news: unknown) {
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.diff(id, olds, news);
    },
    async create(inputs: unknown) {
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.create(inputs);
    },
    async read(id: string, props: unknown) {
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.read(id, props);
    },
    async update(id: string, olds: unknown, news: unknown) {
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.update(id, olds, news);
    },
    async delete(id: string, props: unknown) {
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.delete(id, props);
    },
  };
}

/** Removes Pulumi's reserved `__provider` key so that strict schemas see only user inputs. */
export function withoutProvider(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  delete copy[PROVIDER_KEY];
  return copy;
}
