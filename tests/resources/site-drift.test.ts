/**
 * Drift on refresh: Site's read reports what the server has now, after changes made behind the
 * stack's back through the server's own API; adoption names each difference from the program;
 * the next update applies the declared log settings again.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  createAdminSession,
  editLogSettings,
  exportSite,
  getLogSettings,
} from "../../provider/client";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import type { SiteOutputs } from "../../provider/resources/site/report";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const LOG_SETTINGS = {
  logLevel: "DEBUG",
  logDir: "D:\\arcgis\\logs",
  maxErrorReportsCount: 10,
  maxLogFileAge: 90,
};
const DIRECTORIES = [
  { name: "arcgissystem", physicalPath: "D:\\arcgis\\system", directoryType: "SYSTEM" },
];

let emu: TestEmulator;
let warnings: string[];

beforeEach(async () => {
  emu = await startTestEmulator({ createDelayMs: 0, exportDelayMs: 800 });
  warnings = [];
  jest.spyOn(pulumi.log, "warn").mockImplementation(async (message: string) => {
    warnings.push(message);
  });
});

afterEach(async () => {
  jest.restoreAllMocks();
  await emu.close();
});

async function create(extra: Record<string, unknown>) {
  const checked = await site.check({}, siteInputs(emu, extra));
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await site.create(checked.inputs);
  return { id, outs: outs as SiteOutputs, inputs: checked.inputs! };
}

function adminSession() {
  const { adminUrl, username, password, tls } = siteInputs(emu);
  return createAdminSession({ adminUrl, username, password, tls });
}

it("refresh reports log settings changed on the server, and the next update applies the declared ones", async () => {
  const { id, outs, inputs } = await create({ logSettings: LOG_SETTINGS });
  expect(outs.logSettings?.logLevel).toBe("DEBUG");

  await editLogSettings(adminSession(), { ...LOG_SETTINGS, logLevel: "WARNING" });
  const read = await site.read(id, outs);
  const now = read.props as SiteOutputs;
  expect(now.logSettings?.logLevel).toBe("WARNING");
  expect(now.serverLogSettings?.logLevel).toBe("WARNING");
  expect(warnings).toContain(
    `The site at ${emu.adminUrl} differs from state: logSettings.logLevel: "DEBUG" declared, ` +
      `"WARNING" on the server.`,
  );

  // pulumi up: the program still says DEBUG.
  expect(await site.diff(id, now, inputs)).toEqual({ changes: true });
  const updated = (await site.update(id, now, inputs)).outs as SiteOutputs;
  expect(updated.logSettings?.logLevel).toBe("DEBUG");
  expect((await getLogSettings(adminSession())).logLevel).toBe("DEBUG");
});

it("refresh reports the directories, configuration store, machines and version the server has", async () => {
  const { id, outs } = await create({
    directories: DIRECTORIES,
    configStoreConnection: { type: "FILESYSTEM", connectionString: "D:\\arcgis\\config-store" },
  });
  const now = (await site.read(id, { ...outs, machines: [], serverVersion: "0" }))
    .props as SiteOutputs;
  expect(now.serverDirectories).toEqual(
    expect.arrayContaining([{ name: "arcgissystem", path: "D:\\arcgis\\system" }]),
  );
  expect(now.serverConfigStore).toEqual({
    type: "FILESYSTEM",
    connectionString: "D:\\arcgis\\config-store",
  });
  expect(now.machines).toHaveLength(1);
  expect(now.serverVersion).toBe("11.3.0");
  expect(warnings).toEqual([]);
});

it("adopting a site names each difference between the program and the server", async () => {
  await create({ directories: DIRECTORIES, logSettings: { ...LOG_SETTINGS, logLevel: "WARNING" } });
  const checked = await site.check(
    {},
    siteInputs(emu, {
      adoptExisting: true,
      logSettings: LOG_SETTINGS,
      directories: [{ ...DIRECTORIES[0]!, physicalPath: "E:\\elsewhere\\system" }],
    }),
  );
  const { outs } = await site.create(checked.inputs);
  const adopted = outs as SiteOutputs;
  expect(adopted.state).toBe("adopted");
  const prefix = `The adopted site at ${emu.adminUrl} differs from the program: `;
  expect(warnings).toEqual(
    expect.arrayContaining([
      `${prefix}logSettings.logLevel: "DEBUG" declared, "WARNING" on the server.`,
      `${prefix}directories["arcgissystem"].physicalPath: "E:\\\\elsewhere\\\\system" declared, ` +
        `"D:\\\\arcgis\\\\system" on the server.`,
    ]),
  );
  // State holds what the server has, so the next `pulumi up` applies the program's.
  expect(adopted.logSettings?.logLevel).toBe("WARNING");
});

it("an in-place logSettings update waits while an export holds the site, then applies them", async () => {
  const { id, outs, inputs } = await create({ logSettings: LOG_SETTINGS });
  const exporting = exportSite(adminSession());
  await new Promise((r) => setTimeout(r, 150));
  const news = { ...inputs, logSettings: { ...LOG_SETTINGS, logLevel: "SEVERE" } };
  const updated = (await site.update(id, outs, news)).outs as SiteOutputs;
  await exporting;
  expect(updated.serverLogSettings?.logLevel).toBe("SEVERE");
  expect(emu.stats().changesRefusedDuringExport).toBeGreaterThan(0);
});
