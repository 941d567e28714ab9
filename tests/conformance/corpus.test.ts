import fs from "node:fs";
import path from "node:path";
import { CASES } from "./index";

describe("the conformance corpus", () => {
  const files = fs.readdirSync(path.join(__dirname, "cases")).filter((f) => f.endsWith(".ts"));

  it("lists every case file, each once, named after its case", () => {
    expect(CASES.map((c) => `${c.name}.ts`).sort()).toEqual([...files].sort());
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s names its evidence", (_name, c) => {
    expect(c.sources.length).toBeGreaterThan(0);
    for (const source of c.sources) {
      if ("package" in source) {
        // Esri's own client libraries, read as published, at a pinned version.
        expect(`${source.registry}:${source.package}`).toBe("PyPI:arcgis");
        expect(source.version).toMatch(/^\d+\.\d+\.\d+$/);
        expect(source.file).toMatch(/^arcgis\//);
        expect(source.symbol.length).toBeGreaterThan(0);
      } else if ("url" in source && source.url !== undefined) {
        expect(source.url).toMatch(/^https:\/\/developers\.arcgis\.com\//);
        expect(source.states.length).toBeGreaterThan(10);
      } else {
        expect(source.repository).toMatch(/^Esri\//);
        expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
        expect(source.path.length).toBeGreaterThan(0);
      }
    }
  });

  it("covers every exchange the dialects issue names", () => {
    const names = new Set(CASES.map((c) => c.name));
    for (const required of [
      "chef-mission-create-site",
      "chef-notebook-create-site",
      "dsc-mission-create-filesystem",
      "dsc-mission-create-azure",
      "ansible-arcgis-server-create-site",
      "chef-mission-site-exists",
      "ansible-arcgis-server-site-exists",
      "docs-mission-healthcheck-healthy",
      "docs-mission-healthcheck-no-site",
      "docs-arcgis-server-healthcheck-healthy",
      "docs-arcgis-server-healthcheck-unhealthy",
      "docs-export-site-location",
    ]) {
      expect(names).toContain(required);
    }
  });
});
