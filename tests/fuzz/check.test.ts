/**
 * Property-based tests (fast-check, fixed seed) of each resource's `check()`, which Pulumi calls
 * with whatever a program passes: arbitrary values never make it throw, every failure names a
 * property path that exists in the input or is one of the resource's own properties there, valid
 * inputs (generated from arbitraries of valid values) pass without failures, and valid inputs with
 * one field broken fail on that very field.
 */
import fc from "fast-check";
import type { z } from "zod";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import { COLLABORATION } from "../../provider/resources/collaboration/definition";
import {
  type CheckFailure,
  formatPath,
  UNKNOWN,
} from "../../provider/resources/common/inputs/check";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { SITE_EXPORT } from "../../provider/resources/site-export/definition";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import {
  CLEANUP_MODES,
  CONFIG_STORE_TYPES,
  DIRECTORY_TYPES,
  LOG_LEVELS,
  SITE,
} from "../../provider/resources/site/definition";
import { SERVER_TYPES, serverProduct } from "../../provider/client";
import { SuiteFigures } from "../../tools/harness/robustness-record";

/** Fixed seed: a failure reproduces with the same inputs. Printed in the test names. */
const SEED = 20_261_123;
/** Runs per property; 3 resources x 4 properties stays well under a few seconds. */
const RUNS = 200;

const figures = new SuiteFigures("fuzz-check", SEED);
afterAll(() => figures.write());

// ---------------------------------------------------------------------------------------------
// What a plausible failure path is
// ---------------------------------------------------------------------------------------------

/** Every property name the schema knows, at any depth. */
function schemaKeys(schema: z.ZodType): Set<string> {
  const keys = new Set<string>();
  const walk = (s: unknown, depth: number): void => {
    if (depth > 10 || s === null || typeof s !== "object") return;
    const def = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (def === undefined) return;
    if (def.type === "object") {
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
        keys.add(k);
        walk(v, depth + 1);
      }
    }
    walk(def.innerType, depth + 1);
    walk(def.element, depth + 1);
  };
  walk(schema, 0);
  return keys;
}

/** The formatted path of every value inside `value` (as check() formats paths). */
function pathsOf(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, at: PropertyKey[], depth: number): void => {
    if (depth > 12) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        out.add(formatPath([...at, i]));
        walk(item, [...at, i], depth + 1);
      });
    } else if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        out.add(formatPath([...at, k]));
        walk(item, [...at, k], depth + 1);
      }
    }
  };
  walk(value, [], 0);
  return out;
}

/**
 * A failure path is plausible when it names a value of the input, or one of the schema's own
 * properties directly at the top level or under a value of the input (a missing required field).
 */
function implausiblePaths(failures: CheckFailure[], news: unknown, keys: Set<string>): string[] {
  const existing = pathsOf(news);
  const parents = ["", ...existing];
  return failures
    .map((f) => f.property)
    .filter(
      (p) =>
        typeof p !== "string" ||
        p === "" ||
        !(
          existing.has(p) || parents.some((parent) => [...keys].some((k) => join(parent, k) === p))
        ),
    );
}

function join(parent: string, key: string): string {
  return parent === "" ? key : `${parent}.${key}`;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries of valid values
// ---------------------------------------------------------------------------------------------

/** Sometimes a value still unknown during a preview (Pulumi's sentinel), which must pass. */
const maybeUnknown = <T>(arb: fc.Arbitrary<T>, withUnknown: boolean): fc.Arbitrary<T | string> =>
  withUnknown
    ? fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(UNKNOWN) })
    : arb;

/** Something in it: not empty, not only whitespace. */
const text = fc.string({ minLength: 1, maxLength: 24 }).filter((t) => t.trim() !== "");
const count = fc.nat({ max: 1_000_000 });
/** A time limit: at least the 1 s minimum. */
const timeoutMs = fc.integer({ min: 1000, max: 100_000_000 });
const httpUrl = fc
  .webUrl({ validSchemes: ["http", "https"], withQueryParameters: true })
  .filter((u) => {
    try {
      return ["http:", "https:"].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  });
const pem = fc
  .string({ maxLength: 40 })
  .map((body) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`);
const tls = fc.record({ caCert: pem, insecureSkipVerify: fc.boolean() }, { requiredKeys: [] });
const provider = fc.option(fc.string({ maxLength: 30 }), { nil: undefined });

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const directory = (withUnknown: boolean) =>
  fc
    .tuple(
      fc.record({
        name: maybeUnknown(text, withUnknown),
        physicalPath: maybeUnknown(text, withUnknown),
        directoryType: fc.constantFrom(...DIRECTORY_TYPES),
        description: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      }),
      fc.oneof(
        fc.constant({}),
        fc.record(
          { cleanupMode: fc.constant("NONE"), maxFileAge: fc.constant(0) },
          { requiredKeys: ["cleanupMode"] },
        ),
        fc.record(
          { cleanupMode: fc.constant(CLEANUP_MODES[1]), maxFileAge: count },
          { requiredKeys: ["cleanupMode"] },
        ),
        fc.record({ maxFileAge: count }),
      ),
    )
    .map(([d, cleanup]) => withoutUndefined({ ...d, ...cleanup }));

/**
 * Valid Site inputs: unique directory names, at most one SYSTEM directory, and only what the
 * product's createNewSite takes (its directory types; the ArcGIS Server-only and the
 * Mission/Notebook/Video-only fields dropped for the other products).
 */
const validSite = (withUnknown: boolean) =>
  fc
    .record(
      {
        serverType: fc.constantFrom(...SERVER_TYPES),
        adminUrl: maybeUnknown(httpUrl, withUnknown),
        username: maybeUnknown(text, withUnknown),
        password: maybeUnknown(text, withUnknown),
        configStoreConnection: fc.record(
          {
            type: fc.constantFrom(...CONFIG_STORE_TYPES),
            connectionString: text,
            localRepositoryPath: text,
            username: text,
            connectionSecret: text,
          },
          { requiredKeys: ["type", "connectionString"] },
        ),
        directories: fc.uniqueArray(directory(false), {
          maxLength: 5,
          // The server does not tell names apart by letter case.
          selector: (d) => (typeof d.name === "string" ? d.name.toLowerCase() : d.name),
        }),
        logSettings: fc.record({
          logLevel: fc.constantFrom(...LOG_LEVELS),
          logDir: text,
          maxErrorReportsCount: count,
          maxLogFileAge: count,
          usageMeteringEnabled: fc.option(fc.boolean(), { nil: undefined }),
        }),
        runAsync: fc.boolean(),
        adoptExisting: fc.boolean(),
        deleteSiteOnDestroy: fc.boolean(),
        tls,
        timeouts: fc.record(
          { serverReadyMs: timeoutMs, createMs: timeoutMs },
          { requiredKeys: [] },
        ),
        __provider: provider,
      },
      { requiredKeys: ["adminUrl", "username", "password"] },
    )
    .map((inputs) => {
      const out: Record<string, unknown> = withoutUndefined(inputs);
      const product = serverProduct(inputs.serverType ?? "mission-server");
      const carbon = product.dialect === "carbon";
      const types = product.directoryTypes.filter((t) => t !== "SYSTEM");
      if (inputs.configStoreConnection !== undefined) {
        const { localRepositoryPath, username, ...store } = inputs.configStoreConnection;
        out.configStoreConnection = withoutUndefined(
          carbon ? { ...store, username } : { ...store, localRepositoryPath },
        );
      }
      if (inputs.logSettings !== undefined) {
        const { usageMeteringEnabled, ...log } = inputs.logSettings;
        out.logSettings = withoutUndefined(carbon ? { ...log, usageMeteringEnabled } : log);
      }
      if (Array.isArray(inputs.directories)) {
        let system = false;
        out.directories = inputs.directories.map((raw, i) => {
          const d: Record<string, unknown> = carbon
            ? { name: raw.name, physicalPath: raw.physicalPath, directoryType: raw.directoryType }
            : { ...raw };
          if (!product.directoryTypes.includes(raw.directoryType)) {
            d.directoryType = types[i % types.length];
          }
          if (d.directoryType !== "SYSTEM") return d;
          if (!system) {
            system = true;
            return d;
          }
          return { ...d, directoryType: types[0] };
        });
      }
      return out;
    });

/** Valid SiteExport inputs: location or downloadTo, never both. */
const validSiteExport = (withUnknown: boolean) =>
  fc
    .record(
      {
        adminUrl: maybeUnknown(httpUrl, withUnknown),
        username: maybeUnknown(text, withUnknown),
        password: maybeUnknown(text, withUnknown),
        target: fc.oneof(
          fc.constant({}),
          fc.record({ location: text }),
          fc.record({ downloadTo: text }),
        ),
        triggers: fc.array(fc.jsonValue(), { maxLength: 4 }),
        maxDownloadBytes: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        tls,
        timeouts: fc.record({ exportMs: timeoutMs }, { requiredKeys: [] }),
        __provider: provider,
      },
      { requiredKeys: ["adminUrl", "username", "password", "target"] },
    )
    .map(({ target, ...rest }) => withoutUndefined({ ...rest, ...target }));

/** Valid Collaboration inputs: username and password, or a token. */
const validCollaboration = (withUnknown: boolean) =>
  fc
    .record(
      {
        sharingUrl: maybeUnknown(httpUrl, withUnknown),
        collaborationId: maybeUnknown(text, withUnknown),
        portalId: text,
        credentials: fc.oneof(
          fc.record({ username: text, password: text }),
          fc.record({ token: text }),
        ),
        leaveAsGuest: fc.boolean(),
        tls,
        __provider: provider,
      },
      { requiredKeys: ["sharingUrl", "collaborationId", "credentials"] },
    )
    .map(({ credentials, ...rest }) => withoutUndefined({ ...rest, ...credentials }));

// ---------------------------------------------------------------------------------------------
// Breaking one field on purpose
// ---------------------------------------------------------------------------------------------

type Kind = "text" | "url" | "bool" | "count" | "positive" | "timeout" | "object" | "array";

const notString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);
/** Not a count: negative, fractional, not a number. */
const notCount = fc.oneof(
  fc.integer({ min: -1_000_000, max: -1 }),
  fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }),
  fc.constantFrom("5", null, true, Number.NaN, Number.POSITIVE_INFINITY),
);
const INVALID: Record<Kind, fc.Arbitrary<unknown>> = {
  text: fc.oneof(notString, fc.constantFrom("", " ", "\t", " \n ")),
  url: fc.oneof(
    notString,
    fc.constantFrom("", "gis.example.com/arcgis/admin", "ftp://gis.example.com/", "file:///etc"),
    // Credentials in the user-info part.
    fc.constantFrom(
      "https://admin:pw@gis.example.com/arcgis/admin",
      "http://user@127.0.0.1:6080/arcgis/admin",
      "https://:secret@portal.example.com/portal/sharing/rest",
    ),
  ),
  bool: fc.oneof(fc.integer(), fc.constant(null), fc.constantFrom("true", "false", "")),
  count: notCount,
  positive: fc.oneof(notCount, fc.constant(0)),
  // 0 must not mean "no limit", and below 1 s is no sensible limit.
  timeout: fc.oneof(notCount, fc.integer({ min: 0, max: 999 })),
  object: fc.oneof(
    fc.integer(),
    fc.string(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 2 }),
  ),
  array: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant({})),
};

interface Resource {
  name: string;
  check: (
    news: unknown,
  ) => Promise<{ inputs?: Record<string, unknown>; failures?: CheckFailure[] }>;
  keys: Set<string>;
  valid: (withUnknown: boolean) => fc.Arbitrary<Record<string, unknown>>;
  /** Fields a mutation may break, with their kind; nested fields as paths. */
  fields: Record<string, Kind>;
  /** Fields whose removal must be reported (required). */
  required: string[];
}

const RESOURCES: Resource[] = [
  {
    name: "Site",
    check: (news) => site.check({}, news),
    keys: schemaKeys(SITE.rules.schema()),
    valid: validSite,
    fields: {
      serverType: "text",
      adminUrl: "url",
      username: "text",
      password: "text",
      configStoreConnection: "object",
      directories: "array",
      logSettings: "object",
      runAsync: "bool",
      adoptExisting: "bool",
      deleteSiteOnDestroy: "bool",
      tls: "object",
      timeouts: "object",
      "timeouts.serverReadyMs": "timeout",
      "timeouts.createMs": "timeout",
      "tls.insecureSkipVerify": "bool",
    },
    required: ["adminUrl", "username", "password"],
  },
  {
    name: "SiteExport",
    check: (news) => siteExport.check({}, news),
    keys: schemaKeys(SITE_EXPORT.rules.schema()),
    valid: validSiteExport,
    fields: {
      adminUrl: "url",
      username: "text",
      password: "text",
      triggers: "array",
      maxDownloadBytes: "positive",
      tls: "object",
      timeouts: "object",
      "timeouts.exportMs": "timeout",
    },
    required: ["adminUrl", "username", "password"],
  },
  {
    name: "Collaboration",
    check: (news) => collaboration.check({}, news),
    keys: schemaKeys(COLLABORATION.rules.schema()),
    valid: validCollaboration,
    fields: {
      sharingUrl: "url",
      collaborationId: "text",
      portalId: "text",
      leaveAsGuest: "bool",
      tls: "object",
      "tls.caCert": "text",
    },
    required: ["sharingUrl", "collaborationId"],
  },
];

/** Sets `path` (dot-separated) inside a copy of `inputs`. */
function setPath(inputs: Record<string, unknown>, path: string, value: unknown) {
  const copy = structuredClone(inputs);
  const parts = path.split(".");
  let at: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    at[part] = next !== null && typeof next === "object" && !Array.isArray(next) ? next : {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts.at(-1)!] = value;
  return copy;
}

/** Names the failure of a property: exactly it or something inside it. */
function names(failures: CheckFailure[], keys: readonly string[]): boolean {
  const path = formatPath(keys);
  return failures.some(
    (f) =>
      f.property === path || f.property.startsWith(`${path}.`) || f.property.startsWith(`${path}[`),
  );
}

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

describe.each(RESOURCES)(`$name check() (fast-check, seed ${SEED})`, (resource) => {
  const params = { seed: SEED, numRuns: RUNS, endOnFailure: true };

  it("never throws on arbitrary values, and names a plausible path in every failure", async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything({ maxDepth: 4 }),
          fc.object({ maxDepth: 3 }),
          // Arbitrary values under the resource's own property names.
          fc.dictionary(fc.constantFrom(...resource.keys), fc.anything({ maxDepth: 3 }), {
            maxKeys: 8,
          }),
        ),
        async (news) => {
          tried++;
          const result = await resource.check(news);
          const failures = result.failures ?? [];
          for (const f of failures) {
            expect(typeof f.reason).toBe("string");
            expect(f.reason.length).toBeGreaterThan(0);
          }
          expect(implausiblePaths(failures, news, resource.keys)).toEqual([]);
        },
      ),
      params,
    );
    figures.record(`${resource.name}: arbitrary values`, { inputsTried: tried });
  });

  it("passes valid inputs without failures and fills in the defaults", async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(resource.valid(false), async (news) => {
        tried++;
        const result = await resource.check(news);
        expect(result.failures ?? []).toEqual([]);
        expect(result.inputs).toBeDefined();
        expect(result.inputs).not.toHaveProperty("__provider");
      }),
      params,
    );
    figures.record(`${resource.name}: valid inputs`, { inputsTried: tried });
  });

  it("passes valid inputs with values still unknown during a preview", async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(resource.valid(true), async (news) => {
        tried++;
        const result = await resource.check(news);
        expect(result.failures ?? []).toEqual([]);
      }),
      params,
    );
    figures.record(`${resource.name}: valid inputs with unknowns`, { inputsTried: tried });
  });

  it("fails a valid input with one field broken, removed or misspelled, on that field", async () => {
    let tried = 0;
    const fieldNames = Object.keys(resource.fields);
    const mutation = fc.oneof(
      fc.constantFrom(...fieldNames).chain((field) =>
        INVALID[resource.fields[field]!].map((value) => ({
          kind: "break" as const,
          field,
          value,
        })),
      ),
      fc.constantFrom(...resource.required).map((field) => ({ kind: "remove" as const, field })),
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((k) => !resource.keys.has(k) && k !== "__provider")
        .map((field) => ({ kind: "add" as const, field })),
    );
    await fc.assert(
      fc.asyncProperty(resource.valid(false), mutation, async (valid, m) => {
        tried++;
        let news: Record<string, unknown>;
        if (m.kind === "break") news = setPath(valid, m.field, m.value);
        else if (m.kind === "remove") {
          news = structuredClone(valid);
          delete news[m.field];
        } else news = { ...valid, [m.field]: "surplus" };
        const result = await resource.check(news);
        const failures = result.failures ?? [];
        // The table's fields are dot-separated paths; an added key is one literal key.
        expect(names(failures, m.kind === "add" ? [m.field] : m.field.split("."))).toBe(true);
        expect(implausiblePaths(failures, news, resource.keys)).toEqual([]);
        if (m.kind === "add") {
          expect(failures).toContainEqual({
            property: formatPath([m.field]),
            reason: "unknown property; check its spelling",
          });
        }
      }),
      params,
    );
    figures.record(`${resource.name}: mutated valid inputs`, { inputsTried: tried });
  });
});

// ---------------------------------------------------------------------------------------------
// Inputs that once passed preview and failed (or hung) at `pulumi up`
// ---------------------------------------------------------------------------------------------

describe("check() refuses at preview what failed or hung at `pulumi up`", () => {
  const SITE = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: "site-Password-1",
  };
  const EXPORT = { ...SITE, downloadTo: "./backups" };
  const COLLABORATION = {
    sharingUrl: "https://portal.example.com/portal/sharing/rest",
    collaborationId: "c1",
    username: "portaladmin",
    password: "portal-Password-1",
  };

  /** The failures of `field` only. */
  async function failuresOf(
    check: (news: unknown) => Promise<{ failures?: CheckFailure[] }>,
    news: Record<string, unknown>,
    field: string,
  ): Promise<CheckFailure[]> {
    const { failures = [] } = await check(news);
    return failures.filter((f) => f.property === field);
  }

  it("refuses credentials in the user-info part of every URL input, without repeating them", async () => {
    const cases = [
      { check: RESOURCES[0]!.check, base: SITE, field: "adminUrl" },
      { check: RESOURCES[1]!.check, base: EXPORT, field: "adminUrl" },
      { check: RESOURCES[2]!.check, base: COLLABORATION, field: "sharingUrl" },
    ];
    const urls = [
      "https://admin:Url-Secret-7@gis.example.com:20443/arcgis/admin",
      "https://admin@gis.example.com:20443/arcgis/admin",
      "https://:Url-Secret-7@gis.example.com/portal/sharing/rest",
    ];
    let refused = 0;
    for (const { check, base, field } of cases) {
      for (const url of urls) {
        const failures = await failuresOf(check, { ...base, [field]: url }, field);
        expect(failures).toEqual([
          {
            property: field,
            reason:
              "must not contain credentials (user:password@ before the host): give them as " +
              "username and password (or token)",
          },
        ]);
        expect(JSON.stringify(failures)).not.toContain("Url-Secret-7");
        refused++;
      }
    }
    figures.record("URL inputs with credentials in user info (every resource)", {
      inputsTried: cases.length * urls.length,
      refusalsVerified: refused,
      secretsTracked: refused,
      secretsLeaked: 0,
    });
  });

  it("refuses a whitespace-only username or password, and directory names that differ only in case", async () => {
    const siteCheck = RESOURCES[0]!.check;
    let refused = 0;
    for (const field of ["username", "password"]) {
      for (const blank of [" ", "   ", "\t", " \n "]) {
        expect(await failuresOf(siteCheck, { ...SITE, [field]: blank }, field)).toEqual([
          { property: field, reason: "must not be only whitespace" },
        ]);
        refused++;
      }
    }
    const directories = [
      { name: "arcgisjobs", physicalPath: "D:\\arcgis\\jobs", directoryType: "JOBS" },
      { name: "ArcGISJobs", physicalPath: "D:\\arcgis\\jobs2", directoryType: "JOBS" },
    ];
    expect(await failuresOf(siteCheck, { ...SITE, directories }, "directories[1].name")).toEqual([
      {
        property: "directories[1].name",
        reason:
          'duplicate directory name "ArcGISJobs": it differs from "arcgisjobs" only in letter ' +
          "case, and the server does not tell them apart",
      },
    ]);
    refused++;
    figures.record("blank credentials and case-only duplicate directory names (Site)", {
      inputsTried: refused,
      refusalsVerified: refused,
    });
  });

  it("refuses 0 and other sub-second values for every time limit of every resource", async () => {
    const cases = [
      { check: RESOURCES[0]!.check, base: SITE, field: "serverReadyMs" },
      { check: RESOURCES[0]!.check, base: { ...SITE, runAsync: false }, field: "createMs" },
      { check: RESOURCES[1]!.check, base: EXPORT, field: "exportMs" },
    ];
    let refused = 0;
    for (const { check, base, field } of cases) {
      for (const value of [0, 1, 999]) {
        const failures = await failuresOf(
          check,
          { ...base, timeouts: { [field]: value } },
          `timeouts.${field}`,
        );
        expect(failures).toEqual([
          {
            property: `timeouts.${field}`,
            reason: 'must be at least 1000 ms (1 s); 0 does not mean "no limit"',
          },
        ]);
        refused++;
      }
      expect(
        await failuresOf(check, { ...base, timeouts: { [field]: 1000 } }, `timeouts.${field}`),
      ).toEqual([]);
    }
    figures.record("time limits of 0 or below 1 s (every resource)", {
      inputsTried: refused + cases.length,
      refusalsVerified: refused,
    });
  });
});
