import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as client from "../../provider/client";

const CLIENT_DIR = join(__dirname, "../../provider/client");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

function versionTuple(v: string): number[] {
  return v
    .replace(/^[^\d]*/, "")
    .split(".")
    .map(Number);
}

describe("the client layer", () => {
  it("runs on a Node version that package.json engines allows", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8"));
    const minimum = versionTuple(/>=\s*([\d.]+)/.exec(pkg.engines.node)![1]!);
    const current = versionTuple(process.versions.node);
    const cmp = current.map((n, i) => n - (minimum[i] ?? 0)).find((d) => d !== 0) ?? 0;
    expect(cmp).toBeGreaterThanOrEqual(0);
    expect(current[0]).toBeGreaterThanOrEqual(22);
  });

  it("never imports @pulumi/pulumi", () => {
    const offenders = sourceFiles(CLIENT_DIR).filter((f) =>
      /from\s+["']@pulumi\/pulumi["']|require\(\s*["']@pulumi\/pulumi/.test(
        readFileSync(f, "utf8"),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("exports the API other layers code against", () => {
    for (const name of [
      "ArcGISRequestError",
      "isArcGISRequestError",
      "isAuthError",
      "isTransientError",
      "isTlsError",
      "hasServerCode",
      "isNotFoundError",
      "redactSecrets",
      "arcgisRequest",
      "dispatcherFor",
      "generateToken",
      "TokenCache",
      "AdminSession",
      "createAdminSession",
      "createPortalSession",
      "siteStatus",
      "createNewSite",
      "healthCheck",
      "exportSite",
      "downloadExport",
      "deleteSite",
      "listMachines",
      "getLogSettings",
      "portalSelf",
      "communitySelf",
      "getCollaboration",
      "deleteCollaboration",
      "removeParticipation",
    ]) {
      expect(typeof (client as Record<string, unknown>)[name]).toBe("function");
    }
  });
});
