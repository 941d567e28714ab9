/**
 * Connection defaults in a user's program, from the packed package: a connection declared once
 * and given to several resources, stack config `arcgis-admin:*` and `ARCGIS_ADMIN_*` variables;
 * the resolved values become each resource's inputs (what destroy uses), credentials as secrets.
 */
import { isSecret } from "../../tools/harness/property-values";
import {
  prepareConsumer,
  type Consumer,
  type Registration,
  closeAll,
} from "../../tools/harness/consumer";

const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
/** The program line that declares the shared connection `server`. */
const DECLARE_SERVER = `const server = {
  adminUrl: "https://gis.example.com:20443/arcgis/admin",
  username: "siteadmin",
  password: "shared-Pw-1",
  tls: { caCert: ${JSON.stringify(PEM)} },
};`;
let consumer: Consumer;

beforeAll(async () => {
  consumer = await prepareConsumer();
}, 180_000);

afterAll(() => closeAll(consumer));

function byName(regs: Registration[], name: string): Registration {
  const found = regs.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no resource ${name}`);
  return found;
}

it("gives one declared connection to several resources, their own arguments winning", async () => {
  const regs = await consumer.runProgram(`
    const { Site, SiteExport } = require("pulumi-arcgis-admin");
    ${DECLARE_SERVER}
    new Site("site", { connection: server });
    new SiteExport("backup", { connection: server, username: "backupadmin", password: "own-Pw-2" });
  `);
  const site = byName(regs, "site").inputs;
  expect(site.adminUrl).toBe("https://gis.example.com:20443/arcgis/admin");
  expect(site.username).toBe("siteadmin");
  expect(isSecret(site.password)).toBe(true);
  expect(site.tls).toEqual({ caCert: PEM });
  expect(site).not.toHaveProperty("connection");
  const backup = byName(regs, "backup").inputs;
  expect(backup.adminUrl).toBe("https://gis.example.com:20443/arcgis/admin");
  expect(backup.username).toBe("backupadmin");
  expect(isSecret(backup.password)).toBe(true);
});

it("takes stack config arcgis-admin:* before ARCGIS_ADMIN_* variables, credentials as secrets", async () => {
  const regs = await consumer.runProgram(
    `
    const { Site, Collaboration } = require("pulumi-arcgis-admin");
    new Site("site", {});
    new Collaboration("partners", { collaborationId: "c1" });
  `,
    {
      config: {
        "arcgis-admin:adminUrl": "https://config.example.com/arcgis/admin",
        "arcgis-admin:password": "config-Pw-3",
        "arcgis-admin:caCert": PEM,
      },
      env: {
        ARCGIS_ADMIN_URL: "https://env.example.com/arcgis/admin",
        ARCGIS_ADMIN_USERNAME: "envadmin",
        ARCGIS_ADMIN_SHARING_URL: "https://env.example.com/portal/sharing/rest",
        ARCGIS_ADMIN_PORTAL_USERNAME: "portaladmin",
        ARCGIS_ADMIN_PORTAL_PASSWORD: "env-Portal-Pw-4",
      },
    },
  );
  const site = byName(regs, "site").inputs;
  expect(site.adminUrl).toBe("https://config.example.com/arcgis/admin");
  expect(site.username).toBe("envadmin");
  expect(isSecret(site.password)).toBe(true);
  expect(site.tls).toEqual({ caCert: PEM });
  const partners = byName(regs, "partners").inputs;
  expect(partners.sharingUrl).toBe("https://env.example.com/portal/sharing/rest");
  expect(partners.username).toBe("portaladmin");
  expect(isSecret(partners.password)).toBe(true);
  expect(partners.tls).toEqual({ caCert: PEM });
});

it("takes the CA certificate from ARCGIS_ADMIN_CA_CERT when stack config has none", async () => {
  const regs = await consumer.runProgram(
    `
    const { Site } = require("pulumi-arcgis-admin");
    new Site("site", { adminUrl: "https://gis.example.com/arcgis/admin", password: "p" });
  `,
    { env: { ARCGIS_ADMIN_CA_CERT: PEM, ARCGIS_ADMIN_USERNAME: "envadmin" } },
  );
  expect(byName(regs, "site").inputs.tls).toEqual({ caCert: PEM });
});

it("names every place to give a missing value", async () => {
  await expect(
    consumer.runProgram(`
      const { SiteExport } = require("pulumi-arcgis-admin");
      new SiteExport("backup", { adminUrl: "https://gis.example.com/arcgis/admin", username: "a" });
    `),
  ).rejects.toThrow(
    'SiteExport "backup": password is required. Give it as the argument password, as password ' +
      "in the connection argument, as stack config arcgis-admin:password " +
      "(`pulumi config set --secret arcgis-admin:password`) or as environment variable " +
      "ARCGIS_ADMIN_PASSWORD (stack config and environment credentials serve only the URL that " +
      "arcgis-admin:adminUrl names, when it is set).",
  );
});

it("gives the connection to LogSettings and SiteImport, and to SiteMachine as its site (siteAdminUrl), never as the joining machine", async () => {
  const regs = await consumer.runProgram(`
    const { LogSettings, SiteImport, SiteMachine } = require("pulumi-arcgis-admin");
    ${DECLARE_SERVER}
    new LogSettings("logs", { connection: server, logLevel: "WARNING" });
    new SiteImport("restore", { connection: server, location: "/backups/a.agssite", username: "restorer" });
    new SiteMachine("gis2", { connection: server, adminUrl: "https://gis2.example.com:20443/arcgis/admin" });
  `);
  for (const name of ["logs", "restore"]) {
    const inputs = byName(regs, name).inputs;
    expect(inputs.adminUrl).toBe("https://gis.example.com:20443/arcgis/admin");
    expect(isSecret(inputs.password)).toBe(true);
    expect(inputs.tls).toEqual({ caCert: PEM });
    expect(inputs).not.toHaveProperty("connection");
  }
  expect(byName(regs, "logs").inputs.username).toBe("siteadmin");
  expect(byName(regs, "restore").inputs.username).toBe("restorer");
  const machine = byName(regs, "gis2").inputs;
  expect(machine.adminUrl).toBe("https://gis2.example.com:20443/arcgis/admin");
  expect(machine.siteAdminUrl).toBe("https://gis.example.com:20443/arcgis/admin");
  expect(machine.username).toBe("siteadmin");
  expect(isSecret(machine.password)).toBe(true);
  expect(machine.tls).toEqual({ caCert: PEM });
  expect(machine).not.toHaveProperty("connection");
});

it("names siteAdminUrl, and where to give it, when a SiteMachine has no site", async () => {
  await expect(
    consumer.runProgram(`
      const { SiteMachine } = require("pulumi-arcgis-admin");
      new SiteMachine("gis2", {
        adminUrl: "https://gis2.example.com:20443/arcgis/admin",
        username: "a",
        password: "b",
      });
    `),
  ).rejects.toThrow(
    'SiteMachine "gis2": siteAdminUrl is required. Give it as the argument siteAdminUrl, as ' +
      "adminUrl in the connection argument, as stack config arcgis-admin:adminUrl " +
      "(`pulumi config set arcgis-admin:adminUrl`) or as environment variable ARCGIS_ADMIN_URL.",
  );
});

it("names every missing value at once", async () => {
  const error = await consumer
    .runProgram(
      `
      const { SiteExport } = require("pulumi-arcgis-admin");
      new SiteExport("backup", { adminUrl: "https://gis.example.com/arcgis/admin" });
    `,
    )
    .catch((e: unknown) => e as Error);
  expect((error as Error).message).toContain('SiteExport "backup": username is required.');
  expect((error as Error).message).toContain("password is required.");
  expect((error as Error).message).toContain("ARCGIS_ADMIN_PASSWORD");
});

it("takes no credentials from the defaults for a resource that names another server", async () => {
  const program = `
    const { SiteExport } = require("pulumi-arcgis-admin");
    new SiteExport("other", { adminUrl: "https://other.example.com/arcgis/admin" });
  `;
  const env = {
    ARCGIS_ADMIN_URL: "https://gis.example.com/arcgis/admin",
    ARCGIS_ADMIN_USERNAME: "siteadmin",
    ARCGIS_ADMIN_PASSWORD: "meant-for-gis-1",
  };
  await expect(consumer.runProgram(program, { env })).rejects.toThrow(
    /SiteExport "other": username is required\..*password is required\./s,
  );
  // The same server under another spelling takes them.
  const regs = await consumer.runProgram(
    program.replace(
      "https://other.example.com/arcgis/admin",
      "https://GIS.example.com/arcgis/admin/",
    ),
    { env },
  );
  expect(byName(regs, "other").inputs.username).toBe("siteadmin");
  expect(isSecret(byName(regs, "other").inputs.password)).toBe(true);
});

it("takes no portal credentials from the defaults for a Collaboration on another portal", async () => {
  const env = {
    ARCGIS_ADMIN_SHARING_URL: "https://portal.example.com/portal/sharing/rest",
    ARCGIS_ADMIN_PORTAL_USERNAME: "portaladmin",
    ARCGIS_ADMIN_PORTAL_PASSWORD: "meant-for-portal-1",
  };
  const program = (sharingUrl: string) => `
    const { Collaboration } = require("pulumi-arcgis-admin");
    new Collaboration("partners", { sharingUrl: "${sharingUrl}", collaborationId: "c1" });
  `;
  const other = await consumer.runProgram(
    program("https://other.example.com/portal/sharing/rest"),
    {
      env,
    },
  );
  expect(byName(other, "partners").inputs.username).toBeUndefined();
  expect(byName(other, "partners").inputs.password).toBeUndefined();
  const same = await consumer.runProgram(
    program("https://PORTAL.example.com/portal/sharing/rest/"),
    {
      env,
    },
  );
  expect(byName(same, "partners").inputs.username).toBe("portaladmin");
  expect(isSecret(byName(same, "partners").inputs.password)).toBe(true);
});
