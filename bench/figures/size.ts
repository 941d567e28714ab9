/** Figure 1: bytes of `__provider` per resource, as a user's program registers them. */
import type { FigureResult } from "../lib/report";
import { table } from "../lib/report";
import { serializedProvider, type ProviderSetup } from "../lib/provider";

const TARGET_BYTES = 4096;

export function providerSizes(
  setup: ProviderSetup,
): Omit<FigureResult, "figure" | "otherCores" | "durationMs"> {
  const resources = [
    ["Site", setup.registrations.site],
    ["SiteExport", setup.registrations.backup],
    ["Collaboration", setup.registrations.partners],
  ] as const;
  const sizes = resources.map(([kind, reg]) => {
    const text = serializedProvider(reg);
    return {
      kind,
      bytes: Buffer.byteLength(text, "utf8"),
      loadsByName: text.includes("pulumi-arcgis-admin/dist/provider/resources/"),
    };
  });
  return {
    title: "Serialized provider size",
    summary: sizes.map((s) => ({
      figure: `1. \`__provider\` of ${s.kind}`,
      measured: `${s.bytes} B`,
      target: `≤ ${TARGET_BYTES} B`,
      met: s.bytes <= TARGET_BYTES,
    })),
    details: [
      "Method: a program creating one Site, one SiteExport and one Collaboration (passwords from secret config) runs under `pulumi.runtime.setMocks` in a consumer project where the packed package is installed; the size is `Buffer.byteLength` of the `__provider` input each registration carries (UTF-8 bytes, what goes into state).",
      "",
      ...table(
        ["Resource", "`__provider` bytes", "Loads the implementation by package name"],
        sizes.map((s) => [s.kind, String(s.bytes), s.loadsByName ? "yes" : "no"]),
      ),
    ],
    misses: sizes
      .filter((s) => s.bytes > TARGET_BYTES)
      .map(
        (s) =>
          `- ${s.kind}: ${s.bytes} B. The serialized closure captured more than the lazy loader (provider/resources/common/pulumi/lazy-provider.ts \`lazyProvider\`); whatever its methods reference from module scope is copied into state. Keep the methods free of module-scope references.`,
      ),
  };
}
