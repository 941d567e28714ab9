/**
 * What the classes made from the resources' definitions (provider/resources/common/pulumi/
 * resource-class.ts) register, as a program using the packed package does: every secret input a
 * definition marks is sent as a secret without any class wrapping it by hand (the connection's
 * password, ServerCertificate's PKCS #12 file and its password, Federation's serverPassword, a
 * SiteExport's store credentials, a Site's config store while it holds a connectionSecret), a
 * plain input stays plain, and the definition's `deleteBeforeReplace` default applies unless the
 * program says otherwise.
 */
import { closeAll, prepareConsumer, type Consumer } from "../../tools/harness/consumer";
import { isSecret } from "../../tools/harness/property-values";

jest.setTimeout(120_000);

let consumer: Consumer;

beforeAll(async () => {
  consumer = await prepareConsumer();
}, 180_000);

afterAll(() => closeAll(consumer));

const SERVER = {
  adminUrl: "https://gis.example.com:6443/arcgis/admin",
  username: "siteadmin",
  password: "class-Pw-1",
};

/** The registrations of a program that declares `declarations`, by resource name. */
async function registrations(declarations: string) {
  const registered = await consumer.runProgram(`
    const pkg = require("pulumi-arcgis-admin");
    ${declarations}
  `);
  return (name: string) => registered.find((r) => r.name === name)!;
}

it("sends every secret input a definition marks as a secret, and the others plain", async () => {
  const server = JSON.stringify(SERVER);
  const named = await registrations(`
    new pkg.ServerCertificate("cert", { ...${server}, machineName: "GIS", pkcs12: "QUJD",
      certPassword: "pfx-Pw-2", alias: "web" });
    new pkg.Federation("fed", { sharingUrl: "https://portal.example.com/portal/sharing/rest",
      username: "portaladmin", password: "portal-Pw-3", adminUrl: ${JSON.stringify(SERVER.adminUrl)},
      serverUsername: "siteadmin", serverPassword: "server-Pw-4" });
    new pkg.SiteExport("backup", { ...${server}, uploadTo: "s3://backups/site",
      objectStoreCredentials: { accessKeyId: "AKIA", secretAccessKey: "store-Key-5" } });
    new pkg.Site("site", { ...${server}, configStoreConnection: { type: "AZURE",
      connectionString: "account", connectionSecret: "store-Key-6" } });
    new pkg.Site("plain", { ...${server}, configStoreConnection: { type: "FILESYSTEM",
      connectionString: "/arcgis/config-store" } });
  `);
  const [certificate, federation, backup, site, plainSite] = [
    named("cert"),
    named("fed"),
    named("backup"),
    named("site"),
    named("plain"),
  ];
  expect(isSecret(certificate.inputs.password)).toBe(true);
  expect(isSecret(certificate.inputs.pkcs12)).toBe(true);
  expect(isSecret(certificate.inputs.certPassword)).toBe(true);
  expect(isSecret(certificate.inputs.alias)).toBe(false);
  expect(isSecret(federation.inputs.password)).toBe(true);
  expect(isSecret(federation.inputs.serverPassword)).toBe(true);
  expect(isSecret(federation.inputs.serverUsername)).toBe(false);
  expect(isSecret(backup.inputs.objectStoreCredentials)).toBe(true);
  expect(isSecret(site.inputs.configStoreConnection)).toBe(true);
  expect(isSecret(plainSite.inputs.configStoreConnection)).toBe(false);
});

it("applies the definition's deleteBeforeReplace default, which the program's option overrides", async () => {
  const server = JSON.stringify(SERVER);
  const named = await registrations(`
    new pkg.SystemProperties("props", { ...${server}, properties: { a: "b" } });
    new pkg.SystemProperties("off", { ...${server}, properties: { a: "b" } },
      { deleteBeforeReplace: false });
    new pkg.SiteUpgrade("upgrade", ${server});
  `);
  expect(named("props").options?.deleteBeforeReplace).toBe(true);
  expect(named("off").options?.deleteBeforeReplace).toBe(false);
  expect(named("upgrade").options?.deleteBeforeReplace).toBeUndefined();
});
