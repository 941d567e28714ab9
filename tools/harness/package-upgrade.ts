/**
 * A stack written by an earlier version of the package, then upgraded: a consumer project that
 * installed the package as it was at a git ref (packed from that commit, as a user installed
 * that release), and the upgrade to the package of this tree in its place, as `npm install`
 * of the new release leaves node_modules. The stack's state stays as the earlier package wrote it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { installTarball, prepareConsumer, type Consumer } from "./consumer";
import { packRepo, type PackSource } from "./pack";
import { PACKAGE_NAME } from "./project";

/**
 * A consumer project with the package as packed from `ref` of this repository.
 *
 * @example `const consumer = await consumerOfRelease("a2d789f")`
 */
export function consumerOfRelease(ref: string): Promise<Consumer> {
  return prepareConsumer({ source: { ref } });
}

/**
 * Replaces the package installed in `consumer` by the one of `source` (default: this working
 * tree, see {@link packRepo}): the old folder is removed and the tarball unpacked in its place.
 *
 * @example `await upgradePackage(stack.consumer)`
 */
export async function upgradePackage(consumer: Consumer, source?: PackSource): Promise<void> {
  const tarball = await packRepo(source);
  const modules = path.join(consumer.dir, "node_modules");
  fs.rmSync(path.join(modules, PACKAGE_NAME), { recursive: true, force: true });
  await installTarball(tarball, modules);
}
