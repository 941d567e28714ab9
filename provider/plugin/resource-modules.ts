/**
 * A resource's modules by their path below provider/resources/: `<folder>` (the released module
 * path, whose `implementation` the dynamic-provider host loads) and `<folder>/import`. The plugin
 * archive's bundler (toolchain/plugin-archive.cjs) replaces this module by one that requires each
 * registry row's modules by path, so that the archive carries them.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- each resource is loaded by its module path */

/** The module `../resources/<modulePath>` (`site`, `site/import`); the caller states its type. */
export function resourceModule(modulePath: string): unknown {
  return require(`../resources/${modulePath}`);
}
