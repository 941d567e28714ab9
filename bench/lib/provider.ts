/**
 * The provider side of the benchmark: a consumer project with the packed package, the inputs a
 * user's program registers (read once under setMocks), and Site creation through the real
 * dynamic-provider host.
 */
import { performance } from "node:perf_hooks";
import { isSecret, urn, type PropertyMap } from "../../tools/harness/property-values";
import { prepareConsumer, type Consumer, type Registration } from "../../tools/harness/consumer";
import type { Host } from "../../tools/harness/host-types";
import type { PackSource } from "../../tools/harness/pack";
import type { BenchEmulator } from "./emulators";
import { SITE_DIRECTORIES, SITE_USER } from "./raw";

/** Placeholders of the registration program; each run substitutes its emulator's values. */
const ADMIN_URL = "https://placeholder.invalid:20443/arcgis/admin";
const SHARING_URL = "https://placeholder.invalid/portal/sharing/rest";

/** The program a user would write: one resource of each kind, passwords from secret config. */
const PROGRAM = `
  const pulumi = require("@pulumi/pulumi");
  const { Site, SiteExport, Collaboration } = require("pulumi-arcgis-admin");
  const config = new pulumi.Config("arcgis");
  const tls = { caCert: "-----BEGIN CERTIFICATE-----placeholder-----END CERTIFICATE-----" };
  new Site("site", {
    adminUrl: ${JSON.stringify(ADMIN_URL)},
    username: ${JSON.stringify(SITE_USER.username)},
    password: config.requireSecret("sitePassword"),
    directories: ${JSON.stringify(SITE_DIRECTORIES)},
    tls,
  });
  new SiteExport("backup", {
    adminUrl: ${JSON.stringify(ADMIN_URL)},
    username: ${JSON.stringify(SITE_USER.username)},
    password: config.requireSecret("sitePassword"),
    downloadTo: "/placeholder",
    tls,
  });
  new Collaboration("partners", {
    sharingUrl: ${JSON.stringify(SHARING_URL)},
    collaborationId: "hosted1",
    username: "portaladmin",
    password: config.requireSecret("portalPassword"),
    tls,
  });
`;

/** The consumer project and what the program registered, by resource name. */
export interface ProviderSetup {
  consumer: Consumer;
  /** Basename of the packed tarball (names the tree it was built from). */
  tarball: string;
  registrations: { site: Registration; backup: Registration; partners: Registration };
}

/**
 * Packs the repository (see the harness's packRepo), installs it into a consumer project and
 * runs the registration program under setMocks.
 *
 * @param source - what to pack; undefined: the harness default (the working tree, or
 *   ENGINE_TESTS_PACK_REF).
 */
export async function prepareProvider(source: PackSource | undefined): Promise<ProviderSetup> {
  const consumer = await prepareConsumer(source === undefined ? {} : { source });
  try {
    const regs = await consumer.runProgram(PROGRAM, {
      config: { "arcgis:sitePassword": SITE_USER.password, "arcgis:portalPassword": "unused-Pw-1" },
    });
    const byName = (name: string): Registration => {
      const found = regs.find((r) => r.name === name);
      if (found === undefined) throw new Error(`the program registered no resource ${name}`);
      return found;
    };
    const tarball = Object.values(consumer.tarballs)[0] ?? "";
    return {
      consumer,
      tarball: tarball.split(/[\\/]/).pop() ?? tarball,
      registrations: {
        site: byName("site"),
        backup: byName("backup"),
        partners: byName("partners"),
      },
    };
  } catch (error) {
    await consumer.cleanup();
    throw error;
  }
}

/** The `__provider` text of a registration (unwrapped when it is a secret). */
export function serializedProvider(registration: Registration): string {
  const value = registration.inputs.__provider;
  const text = isSecret(value) ? value.value : value;
  if (typeof text !== "string") throw new Error(`${registration.name} has no __provider string`);
  return text;
}

/**
 * The registered inputs of a resource, pointed at an emulator: what the engine would send as
 * news had the program named that emulator (`__provider` does not depend on the inputs).
 */
export function newsFor(
  registration: Registration,
  bench: BenchEmulator,
  extra: PropertyMap = {},
): PropertyMap {
  const url =
    registration.name === "partners"
      ? { sharingUrl: bench.emu.sharingUrl }
      : { adminUrl: bench.emu.adminUrl };
  return {
    ...registration.inputs,
    ...url,
    tls: bench.caCert === undefined ? {} : { caCert: bench.caCert },
    ...extra,
  };
}

/** Per-step durations of a Site creation through the host, in ms. */
export interface CreateTiming {
  checkMs: number;
  createMs: number;
  diffMs: number;
  /** performance.now() when create returned. */
  createdAt: number;
  /** Epoch ms when create returned. */
  createdEpochMs: number;
}

/**
 * What the engine does for a new resource, through the host: Check, then Create with the
 * checked inputs; then the no-op Diff of the next `pulumi up` (outputs against the same inputs).
 *
 * @param name - the resource name (distinct names for concurrent creations).
 * @param withDiff - also time the Diff.
 */
export async function createThroughHost(
  host: Host,
  news: PropertyMap,
  name: string,
  registration: Registration,
  withDiff = true,
): Promise<CreateTiming & { id: string; properties: PropertyMap }> {
  const target = urn(name);
  const t0 = performance.now();
  const checked = await host.check(target, {}, news);
  if (checked.failures.length > 0) {
    throw new Error(`check of ${name} failed: ${JSON.stringify(checked.failures)}`);
  }
  const t1 = performance.now();
  const created = await host.create(target, checked.inputs, {
    additionalSecretOutputs: registration.options?.additionalSecretOutputs ?? [],
  });
  const t2 = performance.now();
  const createdEpochMs = Date.now();
  let diffMs = 0;
  if (withDiff) {
    const diff = await host.diff(created.id, target, created.properties, checked.inputs);
    if (diff.changes !== "DIFF_NONE") throw new Error(`unexpected diff: ${JSON.stringify(diff)}`);
    diffMs = performance.now() - t2;
  }
  return {
    checkMs: t1 - t0,
    createMs: t2 - t1,
    diffMs,
    createdAt: t2,
    createdEpochMs,
    id: created.id,
    properties: created.properties,
  };
}

/** Starts a host in the consumer project and configures it as the engine would. */
export async function startConfiguredHost(setup: ProviderSetup): Promise<Host> {
  const host = await setup.consumer.startHost({ callTimeoutMs: 600_000 });
  await host.configure();
  return host;
}
