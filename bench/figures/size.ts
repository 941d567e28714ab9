/** Figure 1: bytes of `__provider` per resource, as a user's program registers them. */
import type { FigureResult } from "../lib/report";
import { table } from "../lib/report";
import { serializedProvider, type ProviderSetup } from "../lib/provider";

/** A `require` of the resource's provider module, not the provider's methods. */
const TARGET_BYTES = 512;

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
      byModule:
        /require\("pulumi-arcgis-admin\/dist\/provider\/resources\/[a-z-]+\/provider\.js"\)/.test(
          text,
        ),
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
        [
          "Resource",
          "`__provider` bytes",
          "Loads the implementation by package name",
          "A `require` of its provider module",
        ],
        sizes.map((s) => [
          s.kind,
          String(s.bytes),
          s.loadsByName ? "yes" : "no",
          s.byModule ? "yes" : "no",
        ]),
      ),
    ],
    misses: sizes
      .filter((s) => s.bytes > TARGET_BYTES)
      .map(
        (s) =>
          `- ${s.kind}: ${s.bytes} B. The serializer recorded more than a \`require\` of the resource's provider module: the class must register with the exports of its generated \`<folder>/provider.ts\` itself (provider/resources/common/pulumi/lazy-provider.ts), which Pulumi's serializer records by its path when the package is installed.`,
      ),
  };
}
