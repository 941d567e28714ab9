/**
 * The rules of a `Site`'s inputs across fields, reported by check() together with the per-field
 * problems: the directories' (one SYSTEM directory, no two names alike) and the chosen product's
 * (the directory types it takes, the inputs its createNewSite has no place for).
 */
import {
  MISSION_WORKSPACE_VERSION,
  SERVER_TYPES,
  serverProduct,
  type ServerType,
  unsupportedFields,
} from "../../client";
import type { CheckFailure } from "../common/inputs/definition";

/**
 * Rules across directories, checked on the raw inputs so that they are reported together with
 * the per-field problems (zod skips refinements of an array whose items are invalid).
 *
 * @internal
 */
export function siteCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const dirs = Array.isArray(values.directories) ? (values.directories as unknown[]) : [];
  let systemSeen = false;
  // Names that differ only in letter case count as one: the emulator refuses them (an assumption
  // of ours, docs/site.md), and on Windows, where most sites run, they name the same folder.
  const names = new Map<string, string>();
  dirs.forEach((d, i) => {
    if (d === null || typeof d !== "object") return;
    const dir = d as Record<string, unknown>;
    if (dir.directoryType === "SYSTEM") {
      if (systemSeen) {
        failures.push({
          property: `directories[${i}].directoryType`,
          reason: "a site has exactly one SYSTEM directory; this is a second one",
        });
      }
      systemSeen = true;
    }
    if (typeof dir.name === "string" && dir.name !== "") {
      const key = dir.name.toLowerCase();
      const earlier = names.get(key);
      if (earlier !== undefined) {
        failures.push({
          property: `directories[${i}].name`,
          reason:
            earlier === dir.name
              ? `duplicate directory name "${dir.name}"`
              : `duplicate directory name "${dir.name}": it differs from "${earlier}" only in ` +
                "letter case, and the server does not tell them apart",
        });
      } else {
        names.set(key, dir.name);
      }
    }
  });
  return failures;
}

/**
 * Rules of the chosen product (`serverType`): which directory types it takes, and which inputs
 * its createNewSite request has no place for (refused rather than dropped, naming the product).
 *
 * @internal
 */
export function productChecks(values: Record<string, unknown>): CheckFailure[] {
  const serverType = values.serverType ?? "mission-server";
  if (!SERVER_TYPES.includes(serverType as ServerType)) return [];
  const product = serverProduct(serverType as ServerType);
  const failures: CheckFailure[] = [];
  const dirs = Array.isArray(values.directories) ? (values.directories as unknown[]) : [];
  dirs.forEach((d, i) => {
    if (d === null || typeof d !== "object") return;
    const type = (d as Record<string, unknown>).directoryType;
    if (typeof type === "string" && type !== "" && !product.directoryTypes.includes(type)) {
      const workspace =
        serverType === "mission-server" ? ` (WORKSPACE only on ${MISSION_WORKSPACE_VERSION})` : "";
      failures.push({
        property: `directories[${i}].directoryType`,
        reason: `must be one of ${product.directoryTypes.join(", ")} for ${product.label}${workspace}`,
      });
    }
  });
  const fields = unsupportedFields(serverType as ServerType, {
    configStoreConnection: plainObject(values.configStoreConnection) as never,
    directories: dirs.map((d) => plainObject(d) ?? {}) as never,
    logSettings: plainObject(values.logSettings),
  });
  for (const field of fields) failures.push({ property: field.path, reason: field.reason });
  return failures;
}

function plainObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Every rule across fields: the directory rules and the product's rules.
 *
 * @internal
 */
export function allCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  return [...siteCrossChecks(values), ...productChecks(values)];
}
