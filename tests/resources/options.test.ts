/**
 * Resource options as users expect them: the user's additionalSecretOutputs are kept and ours
 * added; customTimeouts and replaceOnChanges, which dynamic resources cannot honour, are warned
 * about with the argument that does the job; import is refused, naming what works. Type tokens
 * name each resource.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  resourceOptions,
  typeToken,
} from "../../provider/resources/common/pulumi/resource-options";

let warnings: string[];

beforeEach(() => {
  warnings = [];
  jest.spyOn(pulumi.log, "warn").mockImplementation(async (message: string) => {
    warnings.push(message);
  });
});

afterEach(() => jest.restoreAllMocks());

describe("resourceOptions()", () => {
  it("adds the resource's secret outputs to the user's, never replacing them", () => {
    const opts = resourceOptions("Site", "site", { additionalSecretOutputs: ["machines"] }, [
      "password",
    ]);
    expect(opts.additionalSecretOutputs).toEqual(["machines", "password"]);
  });

  it("lists an output only once when the user names one of ours too", () => {
    const opts = resourceOptions(
      "Collaboration",
      "partners",
      { additionalSecretOutputs: ["password", "name"] },
      ["password", "token"],
    );
    expect(opts.additionalSecretOutputs).toEqual(["password", "name", "token"]);
  });

  it("keeps every other option as given", () => {
    const opts = resourceOptions("Site", "site", { protect: true, ignoreChanges: ["tls"] }, [
      "password",
    ]);
    expect(opts).toEqual({
      protect: true,
      ignoreChanges: ["tls"],
      additionalSecretOutputs: ["password"],
    });
    expect(warnings).toEqual([]);
  });

  it("warns that customTimeouts is ignored and points at timeouts", () => {
    resourceOptions("SiteExport", "backup", { customTimeouts: { create: "2h" } }, ["password"]);
    expect(warnings).toEqual([
      'SiteExport "backup": customTimeouts is ignored (Pulumi does not apply it to dynamic ' +
        "resources); use the resource's own timeouts argument instead.",
    ]);
  });

  it("warns that replaceOnChanges is ignored, as customTimeouts is", () => {
    resourceOptions("LogSettings", "logs", { replaceOnChanges: ["logLevel"] }, ["password"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('LogSettings "logs": replaceOnChanges is ignored');
    expect(warnings[0]).toContain("pulumi up --replace");
  });

  it("refuses the import option, pointing a Site at adoptExisting and at the plugin", () => {
    expect(() =>
      resourceOptions("Site", "site", { import: "https://gis.example.com/arcgis/admin" }, [
        "password",
      ]),
    ).toThrow(
      /Site "site": the import option does not work .*set adoptExisting: true.*docs\/import\.md/,
    );
    expect(warnings).toHaveLength(0);
  });
});

describe("typeToken()", () => {
  it("is pulumi-nodejs:dynamic/arcgis-admin:<resource>", () => {
    expect(typeToken("Site")).toBe("pulumi-nodejs:dynamic/arcgis-admin:Site");
  });
});
