/**
 * What a user's program registers, from the packed package: each resource under its own type
 * token, with the user's additionalSecretOutputs kept and ours added.
 */
import {
  prepareConsumer,
  type Consumer,
  type Registration,
  closeAll,
} from "../../tools/harness/consumer";

let consumer: Consumer;
let registrations: Registration[];

beforeAll(async () => {
  consumer = await prepareConsumer();
  registrations = await consumer.runProgram(`
    const { Site, SiteExport, Collaboration, SiteMachine, LogSettings, SiteImport } = require("pulumi-arcgis-admin");
    const adminUrl = "https://gis.example.com:20443/arcgis/admin";
    new Site("site", { adminUrl, username: "siteadmin", password: "site-Pw-1" },
      { additionalSecretOutputs: ["machines", "serverLogSettings"] });
    new SiteExport("backup", { adminUrl, username: "siteadmin", password: "site-Pw-1" },
      { additionalSecretOutputs: ["location"] });
    new Collaboration("partners", {
      sharingUrl: "https://gis.example.com/portal/sharing/rest",
      collaborationId: "c1", username: "portaladmin", password: "portal-Pw-1",
    }, { additionalSecretOutputs: ["description"] });
    new SiteMachine("gis2", {
      adminUrl: "https://gis2.example.com:20443/arcgis/admin", siteAdminUrl: adminUrl,
      username: "siteadmin", password: "site-Pw-1",
    }, { additionalSecretOutputs: ["machines"] });
    new LogSettings("logs", { adminUrl, username: "siteadmin", password: "site-Pw-1", logLevel: "WARNING" },
      { additionalSecretOutputs: ["previousSettings"] });
    new SiteImport("restore", { adminUrl, username: "siteadmin", password: "site-Pw-1", location: "/b/x.agssite" },
      { additionalSecretOutputs: ["report"] });
  `);
}, 180_000);

afterAll(() => closeAll(consumer));

it("registers each resource under its own type token", () => {
  expect(registrations.map((r) => [r.name, r.type])).toEqual([
    ["site", "pulumi-nodejs:dynamic/arcgis-admin:Site"],
    ["backup", "pulumi-nodejs:dynamic/arcgis-admin:SiteExport"],
    ["partners", "pulumi-nodejs:dynamic/arcgis-admin:Collaboration"],
    ["gis2", "pulumi-nodejs:dynamic/arcgis-admin:SiteMachine"],
    ["logs", "pulumi-nodejs:dynamic/arcgis-admin:LogSettings"],
    ["restore", "pulumi-nodejs:dynamic/arcgis-admin:SiteImport"],
  ]);
});

it("keeps the user's additionalSecretOutputs and adds the resource's own", () => {
  const secretOutputs = Object.fromEntries(
    registrations.map((r) => [r.name, [...(r.options?.additionalSecretOutputs ?? [])].sort()]),
  );
  expect(secretOutputs).toEqual({
    site: ["machines", "password", "serverLogSettings"],
    backup: ["location", "objectStoreCredentials", "password"],
    partners: ["description", "password", "token"],
    gis2: ["machines", "password"],
    logs: ["password", "previousSettings"],
    restore: ["objectStoreCredentials", "password", "report"],
  });
});
