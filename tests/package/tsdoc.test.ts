/**
 * TSDoc on every field of the public types, nested shapes included, read from the built
 * declaration files as an editor shows them; fields with a unit name it.
 */
import ts from "typescript";
import { entryExports } from "../../tools/harness/entry-declarations";

const PUBLIC_TYPES = [
  "Site",
  "SiteArgs",
  "SiteOutputs",
  "SiteConfigStoreConnection",
  "SiteDirectory",
  "SiteLogSettings",
  "SiteTimeouts",
  "SiteExport",
  "SiteExportArgs",
  "SiteExportOutputs",
  "SiteExportTimeouts",
  "PortalSite",
  "PortalSiteArgs",
  "PortalSiteOutputs",
  "PortalContentStore",
  "PortalSiteTimeouts",
  "Collaboration",
  "CollaborationArgs",
  "CollaborationOutputs",
  "SystemProperties",
  "SystemPropertiesArgs",
  "SystemPropertiesOutputs",
  "SiteUpgrade",
  "SiteUpgradeArgs",
  "SiteUpgradeOutputs",
  "ServerCertificate",
  "ServerCertificateArgs",
  "ServerCertificateOutputs",
  "CaCertificate",
  "TlsSettings",
  "ServerConnection",
  "PortalConnection",
  "PortalConnectionArgs",
  "PortalResource",
  "ServerConnectionArgs",
  "ServerResource",
  "ServerResourceArgs",
];

/** Members every Pulumi resource has (documented by @pulumi/pulumi). */
const INHERITED = new Set(["urn", "id", "getProvider"]);

let documented: Map<string, string>;

beforeAll(() => {
  const { checker, exports } = entryExports();
  documented = new Map();
  for (const { name, symbol } of exports) {
    if (!PUBLIC_TYPES.includes(name)) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    for (const property of checker.getPropertiesOfType(type)) {
      if (INHERITED.has(property.name)) continue;
      const doc = ts.displayPartsToString(property.getDocumentationComment(checker));
      documented.set(`${name}.${property.name}`, doc);
    }
  }
});

it("finds every public type", () => {
  const found = new Set([...documented.keys()].map((k) => k.split(".")[0]));
  expect([...found].sort()).toEqual([...PUBLIC_TYPES].sort());
});

it("documents every field", () => {
  const missing = [...documented].filter(([, doc]) => doc.trim() === "").map(([k]) => k);
  expect(missing).toEqual([]);
});

it("names the unit of every time limit and size", () => {
  const unitless = [...documented]
    .filter(([key]) => /(Ms|Bytes)$/.test(key))
    .filter(([key, doc]) =>
      key.endsWith("Ms") ? !/\bms\b|millisecond/i.test(doc) : !/bytes/i.test(doc),
    )
    .map(([key]) => key);
  expect(unitless).toEqual([]);
  expect(documented.get("SiteLogSettings.maxLogFileAge")).toContain("not documented by Esri");
  expect(documented.get("SiteDirectory.maxFileAge")).toContain("not documented by Esri");
});
