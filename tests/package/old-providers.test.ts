/**
 * Stacks created by an earlier version keep working with this build: the `__provider` text that
 * each released version stored in the state of each resource (fixtures/old-providers/, captured
 * from the release commits by fixtures/old-providers/capture.ts) is run in Pulumi's real
 * dynamic-provider host against the package packed from this tree, through check, create, read,
 * diff and delete against the emulator. The stored text loads
 * `pulumi-arcgis-admin/dist/provider/resources/<name>.js` by path and calls its `implementation`:
 * if a module moves or stops exporting `implementation`, these calls fail.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  exportSite,
} from "../../provider/client";
import {
  portalSeed,
  siteInputs,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { closeAll, consumerWithHost, type Consumer } from "../../tools/harness/consumer";
import { urn, type PropertyMap } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";
import { runTempDir } from "../../tools/harness/temp";

const FIXTURES = path.join(__dirname, "fixtures", "old-providers");

interface StoredProviders {
  package: string;
  version: string;
  commit: string;
  producedBy: string;
  resources: { resource: string; type: string; provider: string }[];
}

/** Every released version and the resources it had: a fixture missing or cut short fails. */
const RELEASES: Record<string, string[]> = {
  "0.1.0-de66a91.json": ["Site", "SiteExport", "Collaboration"],
  "0.2.0-751b123.json": [
    "Site",
    "SiteExport",
    "Collaboration",
    "SiteMachine",
    "LogSettings",
    "SiteImport",
  ],
};

const fixtures = Object.keys(RELEASES).map((file) => ({
  file,
  stored: JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8")) as StoredProviders,
}));

const SITE_ADMIN = { username: "siteadmin", password: "old-Provider-Pw-7e2b" };
const PORTAL_ADMIN = { username: "gisadmin", password: "old-Portal-Pw-3a9c" };

/** What a resource needs on the emulator, and its inputs there; `close` stops what was started. */
interface Target {
  inputs: PropertyMap;
  close(): Promise<void>;
}

/** A plain-HTTP emulator with a site, exports allowed under a temporary folder. */
async function siteEmulator(extra: Parameters<typeof startTestEmulator>[0] = {}) {
  const folder = runTempDir("old-providers-");
  const emu = await startTestEmulator({
    tls: false,
    createDelayMs: 0,
    exportDelayMs: 20,
    importDelayMs: 20,
    exportRoots: [folder],
    ...extra,
  });
  await createNewSite(emu.adminUrl, { serverType: emu.serverType, ...SITE_ADMIN });
  const close = async () => {
    await emu.close();
    fs.rmSync(folder, { recursive: true, force: true });
  };
  return { emu, folder, close };
}

function admin(emu: TestEmulator): PropertyMap {
  return { adminUrl: emu.adminUrl, ...SITE_ADMIN, tls: {} };
}

const TARGETS: Record<string, () => Promise<Target>> = {
  async Site() {
    const emu = await startTestEmulator({ tls: false, createDelayMs: 0 });
    return {
      inputs: siteInputs(emu, { ...SITE_ADMIN, deleteSiteOnDestroy: true }),
      close: () => emu.close(),
    };
  },
  async SiteExport() {
    const { emu, folder, close } = await siteEmulator();
    return { inputs: { ...admin(emu), location: folder }, close };
  },
  async Collaboration() {
    const emu = await startTestEmulator({
      tls: false,
      seed: portalSeed([{ ...PORTAL_ADMIN, role: "org_admin" }]),
    });
    return {
      inputs: { sharingUrl: emu.sharingUrl, collaborationId: "hosted1", ...PORTAL_ADMIN, tls: {} },
      close: () => emu.close(),
    };
  },
  async SiteMachine() {
    const first = await siteEmulator({ machineName: "machine-a" });
    const second = await startTestEmulator({
      tls: false,
      machineName: "machine-b",
      joinDelayMs: 20,
      joinPollAfterSeconds: 1,
    });
    return {
      inputs: {
        adminUrl: second.adminUrl,
        siteAdminUrl: first.emu.adminUrl,
        machineName: "machine-b",
        ...SITE_ADMIN,
        tls: {},
        timeouts: { serverReadyMs: 10_000, joinMs: 20_000 },
      },
      close: async () => {
        await second.close();
        await first.close();
      },
    };
  },
  async LogSettings() {
    const { emu, close } = await siteEmulator();
    return { inputs: { ...admin(emu), logLevel: "WARNING" }, close };
  },
  async SiteImport() {
    const { emu, folder, close } = await siteEmulator();
    const session = createAdminSession({ adminUrl: emu.adminUrl, ...SITE_ADMIN });
    const { location } = await exportSite(session, { location: folder });
    return { inputs: { ...admin(emu), location }, close };
  },
};

let consumer: Consumer;
let host: Host;

beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 240_000);

afterAll(async () => {
  await closeAll(host, consumer);
  await closeDispatchers();
});

it("has a fixture for every released version, each covering every resource of that version", () => {
  expect(
    fs
      .readdirSync(FIXTURES)
      .filter((f) => f.endsWith(".json"))
      .sort(),
  ).toEqual(Object.keys(RELEASES).sort());
  for (const { file, stored } of fixtures) {
    expect([file, stored.resources.map((r) => r.resource)]).toEqual([file, RELEASES[file]]);
    expect(file).toBe(`${stored.version}-${stored.commit.slice(0, 7)}.json`);
    for (const { resource, provider } of stored.resources) {
      // The stored text loads the implementation by package path (the state holds no copy of it).
      expect([resource, provider]).toEqual([
        resource,
        expect.stringMatching(/"pulumi-arcgis-admin\/dist\/provider\/resources\/[a-z-]+\.js"/),
      ]);
    }
  }
});

describe.each(fixtures.map(({ file, stored }) => [file, stored] as const))(
  "the providers stored by %s",
  (_file, stored) => {
    it.each(stored.resources.map((r) => [r.resource, r] as const))(
      "%s: check, create, read, diff and delete run against this build",
      async (resource, { type, provider }) => {
        const target = await TARGETS[resource]!();
        try {
          const name = `old-${resource.toLowerCase()}`;
          const resourceUrn = urn(name, type);
          const checked = await host.check(
            resourceUrn,
            {},
            {
              ...target.inputs,
              __provider: provider,
            },
          );
          expect(checked.failures).toEqual([]);
          expect(checked.inputs.__provider).toBe(provider);

          const created = await host.create(resourceUrn, checked.inputs);
          expect(created.id).not.toBe("");
          expect(created.properties.__provider).toBe(provider);

          const read = await host.read(created.id, resourceUrn, created.properties, checked.inputs);
          expect(read.id).toBe(created.id);

          const diff = await host.diff(created.id, resourceUrn, created.properties, checked.inputs);
          expect(diff.changes).toBe("DIFF_NONE");

          await host.delete(created.id, resourceUrn, created.properties);
        } finally {
          await target.close();
        }
      },
      120_000,
    );
  },
);
