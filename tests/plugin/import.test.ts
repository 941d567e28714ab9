/**
 * The plugin's import read (provider/plugin/import.ts) against the emulator, as the engine's Read
 * with only an id reaches it: a SiteMachine and a LogSettings imported with the provider
 * configuration's defaults, their generated inputs (no secret, no default) checked and diffed as
 * the `up` after the import does (no change), recorded as adopted; and bad ids, missing
 * credentials and resources that cannot be imported refused with the field named, never a value
 * of a secret.
 */
import * as path from "node:path";
import { closeDispatchers, createNewSite } from "../../provider/client";
import { importRead } from "../../provider/plugin/import";
import { pluginResource } from "../../provider/plugin/resources";
import { type ProviderConfig, withConnectionDefaults } from "../../provider/plugin/server";
import type { Values } from "../../provider/resources/common/pulumi/importer";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const PASSWORD = "import-Unit-Pass-1";
let first: TestEmulator;
let second: TestEmulator;
let config: ProviderConfig;

const resourceOf = (type: string) => pluginResource(`arcgis-admin:index:${type}`)!;

function imported(type: string, id: string, with_: ProviderConfig = config) {
  const resource = resourceOf(type);
  return importRead(resource, id, (values) => withConnectionDefaults(resource, values, with_));
}

/** What the `up` after the import does with the generated inputs: check, then diff. */
async function upAfter(type: string, inputs: Values, outs: Values, id: string) {
  const resource = resourceOf(type);
  const checked = await resource.implementation.check(
    inputs,
    withConnectionDefaults(resource, inputs, config),
  );
  expect(checked.failures ?? []).toEqual([]);
  return resource.implementation.diff(id, outs, checked.inputs);
}

beforeAll(async () => {
  first = await startTestEmulator({ machineName: "machine-a", createDelayMs: 20, joinDelayMs: 20 });
  const certFile = first.caCertFile!;
  second = await startTestEmulator({
    tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") },
    machineName: "machine-b",
    createDelayMs: 20,
    joinDelayMs: 20,
  });
  const tls = { tls: { caCert: first.caCert! } };
  await createNewSite(
    first.adminUrl,
    { serverType: "mission-server", username: "siteadmin", password: PASSWORD, runAsync: false },
    tls,
  );
  // The second machine joins outside any stack (through the lifecycle, as a stack would have).
  const machine = resourceOf("SiteMachine").implementation;
  const inputs = await machine.check(
    {},
    {
      adminUrl: second.adminUrl,
      siteAdminUrl: first.adminUrl,
      machineName: "machine-b",
      username: "siteadmin",
      password: PASSWORD,
      tls: { caCert: first.caCert! },
    },
  );
  await machine.create(inputs.inputs);
  config = {
    adminUrl: first.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    caCert: first.caCert!,
  };
}, 60_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  await closeDispatchers();
});

describe("SiteMachine import", () => {
  it("adopts the machine the site lists, with the site and credentials from the defaults", async () => {
    const id = `${second.adminUrl},machineName=machine-b`;
    const found = await imported("SiteMachine", id);
    expect(found.id).toBe(second.adminUrl);
    expect(found.inputs).toEqual({
      serverType: "mission-server",
      adminUrl: second.adminUrl,
      machineName: "machine-b",
    });
    expect(found.outs).toMatchObject({
      state: "adopted",
      registeredName: "machine-b",
      siteAdminUrl: first.adminUrl,
      unregisterAdoptedOnDestroy: false,
    });
    expect(await upAfter("SiteMachine", found.inputs, found.outs, found.id)).toEqual({
      changes: false,
    });
  });

  it("names the machineName option when the site lists the machine under another name", async () => {
    await expect(imported("SiteMachine", second.adminUrl)).rejects.toThrow(
      /lists no machine named '127\.0\.0\.1' \(it lists .*machine-b.*\)\. .*add ,machineName=<name>/,
    );
  });
});

describe("LogSettings import", () => {
  it("declares every field the server reports, with its value, and restores nothing on destroy", async () => {
    const found = await imported("LogSettings", `${first.adminUrl}/logs/settings`);
    expect(found.id).toBe(`${first.adminUrl}/logs/settings`);
    expect(found.inputs).toMatchObject({
      serverType: "mission-server",
      adminUrl: first.adminUrl,
      logLevel: expect.any(String),
      logDir: expect.any(String),
    });
    expect(Object.keys(found.inputs)).not.toContain("password");
    expect(found.outs).toMatchObject({ restoreOnDestroy: false });
    expect(await upAfter("LogSettings", found.inputs, found.outs, found.id)).toEqual({
      changes: false,
    });
  });
});

describe("refusals", () => {
  it("refuses a secret in the id without repeating its value", async () => {
    const error = (await imported("Site", `${first.adminUrl},password=hunter2-Secret`).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/password is a secret and never part of an import id/);
    expect(error.message).not.toContain("hunter2-Secret");
  });

  it("names an option the resource does not take, and its options", async () => {
    await expect(imported("Site", `${first.adminUrl},colour=blue`)).rejects.toThrow(
      /"colour" is not one of its options \(serverType\)\. The id's format is <adminUrl>/,
    );
    await expect(imported("Site", `${first.adminUrl},serverType=portal`)).rejects.toThrow(
      /serverType "portal" \(from the import id\) must be one of mission-server/,
    );
  });

  it("names each missing credential and the config key that supplies it", async () => {
    const error = (await imported("Site", first.adminUrl, { adminUrl: first.adminUrl }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(
      /username is required\. Set it as stack config arcgis-admin:username \(`pulumi config set arcgis-admin:username`\) or as environment variable ARCGIS_ADMIN_USERNAME/,
    );
    expect(error.message).toMatch(
      /password is required\. Set it as stack config arcgis-admin:password \(`pulumi config set --secret arcgis-admin:password`\) or as environment variable ARCGIS_ADMIN_PASSWORD/,
    );
    // An import has no property to set: its inputs are the id and the configuration.
    expect(error.message).not.toMatch(/property|argument/);
  });

  it("gives the default credentials to the default server only", async () => {
    await expect(imported("Site", second.adminUrl)).rejects.toThrow(/password is required\./);
  });

  it("ends the sentence of an untrusted certificate with one full stop", async () => {
    const { caCert: _trusted, ...untrusted } = config;
    const refused = await imported("Site", first.adminUrl, untrusted).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(refused).toContain("is not trusted");
    expect(refused).toContain("tls.insecureSkipVerify: true.");
    expect(refused).not.toMatch(/\.\.(\s|$)/);
  });

  it("refuses a product the admin root does not answer as", async () => {
    await expect(imported("Site", `${first.adminUrl},serverType=arcgis-server`)).rejects.toThrow(
      /answers as a Mission, Notebook or Video Server does\. Add ,serverType=<mission-server/,
    );
  });

  it("refuses a Collaboration id of more than two parts, and a SiteExport", async () => {
    await expect(imported("Collaboration", "a/b/c", {})).rejects.toThrow(
      /the id is <collaborationId> or <portalId>\/<collaborationId>/,
    );
    await expect(imported("SiteExport", first.adminUrl)).rejects.toThrow(
      /A SiteExport cannot be imported/,
    );
  });
});
