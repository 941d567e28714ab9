/**
 * Another spelling of the same URL (host case, a default port written out, a trailing slash) is
 * never a replacement, on every resource with a URL input: the definitions mark their URL inputs
 * (`url`), each diff compares through them (`changedInputs`), and a Site's change it cannot take
 * is refused by check(), from the old and new inputs, before any diff.
 */
import { sameUrl } from "../../provider/resources/common/connection/urls";
import { UNKNOWN } from "../../provider/resources/common/inputs/check";
import { changedInputs } from "../../provider/resources/common/pulumi/state-diff";
import { PLUGIN_RESOURCES, type PluginResource } from "../../provider/plugin/resources";
import { checkInputs } from "../../provider/resources/common/inputs/check";

describe("sameUrl()", () => {
  it("takes the host in any case as the same server", () => {
    expect(
      sameUrl("https://GIS.Example.com/arcgis/admin", "https://gis.example.com/arcgis/admin"),
    ).toBe(true);
  });

  it("takes the scheme's default port written out as the port left out", () => {
    expect(sameUrl("https://gis.example.com:443/a", "https://gis.example.com/a")).toBe(true);
    expect(sameUrl("http://gis.example.com:80/a", "http://gis.example.com/a")).toBe(true);
    // Another scheme's default port is another port.
    expect(sameUrl("http://gis.example.com:443/a", "http://gis.example.com/a")).toBe(false);
    expect(sameUrl("https://gis.example.com:80/a", "https://gis.example.com/a")).toBe(false);
  });

  it("ignores trailing slashes", () => {
    expect(
      sameUrl("https://gis.example.com/arcgis/admin/", "https://gis.example.com/arcgis/admin"),
    ).toBe(true);
    expect(sameUrl("https://gis.example.com/", "https://gis.example.com")).toBe(true);
  });

  it("tells another host, port, path or scheme apart", () => {
    const url = "https://gis.example.com:6443/arcgis/admin";
    expect(sameUrl(url, "https://gis2.example.com:6443/arcgis/admin")).toBe(false);
    expect(sameUrl(url, "https://gis.example.com:7443/arcgis/admin")).toBe(false);
    expect(sameUrl(url, "https://gis.example.com:6443/server/admin")).toBe(false);
    expect(sameUrl(url, "http://gis.example.com:6443/arcgis/admin")).toBe(false);
    // A path's case is the server's to decide: not folded.
    expect(sameUrl(url, "https://gis.example.com:6443/ArcGIS/admin")).toBe(false);
  });
});

describe("changedInputs()", () => {
  const definition = {
    inputs: {
      adminUrl: { schema: () => undefined as never, doc: "", url: true as const },
      objectStore: { schema: () => undefined as never, doc: "", url: ["endpoint"] as const },
      location: { schema: () => undefined as never, doc: "" },
    },
  };
  const keys = ["adminUrl", "objectStore", "location"] as const;

  it("compares a URL input, and the URL fields of an object input, by the place they name", () => {
    const olds = {
      adminUrl: "https://gis.example.com/arcgis/admin",
      objectStore: { endpoint: "http://store.example.com:8333", region: "eu" },
      location: "/backups",
    };
    const respelled = {
      adminUrl: "https://GIS.example.com:443/arcgis/admin/",
      objectStore: { endpoint: "http://Store.example.com:8333/", region: "eu" },
      location: "/backups",
    };
    expect(changedInputs(definition, keys, olds, respelled)).toEqual([]);
    expect(
      changedInputs(definition, keys, olds, {
        adminUrl: "https://other.example.com/arcgis/admin",
        objectStore: { endpoint: "http://store.example.com:8333", region: "us" },
        location: "/backups/",
      }),
    ).toEqual(["adminUrl", "objectStore", "location"]);
  });
});

/** A URL in another spelling: its host in capitals, the default port written out, a slash added. */
function respelled(value: string): string {
  const url = new URL(value);
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  return `${url.protocol}//${url.hostname.toUpperCase()}:${port}${url.pathname.replace(/\/?$/, "/")}`;
}

/** Another server: the host renamed. */
function elsewhere(value: string): string {
  const url = new URL(value);
  url.hostname = `other-${url.hostname}`;
  return url.toString();
}

const SERVER = { username: "siteadmin", password: "site-Password-1" };
const PORTAL = { username: "portaladmin", password: "portal-Password-1" };
/** Unreachable: a diff that reads the server (SiteUpgrade's) is refused at once and goes on. */
const ADMIN = "https://gis1.example.com:1/arcgis/admin";
const SHARING = "https://portal.example.com/portal/sharing/rest";

/** Valid inputs of each resource, its URL inputs in a plain spelling (default ports left out). */
const INPUTS: Record<string, Record<string, unknown>> = {
  Site: { adminUrl: ADMIN, ...SERVER },
  SiteExport: {
    adminUrl: ADMIN,
    ...SERVER,
    uploadTo: "s3://backups/prod/",
    objectStore: { endpoint: "http://store.example.com:8333", forcePathStyle: true },
  },
  SiteImport: {
    adminUrl: ADMIN,
    ...SERVER,
    archiveObject: "s3://backups/prod/site.agssite",
    archiveSha256: "a".repeat(64),
    objectStore: { endpoint: "http://store.example.com:8333", forcePathStyle: true },
  },
  SiteMachine: {
    adminUrl: "https://gis2.example.com/arcgis/admin",
    siteAdminUrl: ADMIN,
    ...SERVER,
  },
  LogSettings: { adminUrl: ADMIN, ...SERVER, logLevel: "WARNING" },
  SystemProperties: {
    adminUrl: ADMIN,
    ...SERVER,
    properties: { WebContextURL: "https://gis.example.com/server" },
  },
  SiteUpgrade: { adminUrl: ADMIN, ...SERVER },
  SecuritySettings: { adminUrl: ADMIN, ...SERVER, hstsEnabled: true },
  WebAdaptor: { adminUrl: ADMIN, ...SERVER, webAdaptorUrl: "https://gis.example.com/server" },
  PortalSite: {
    sharingUrl: SHARING,
    ...PORTAL,
    fullName: "Portal Administrator",
    email: "gis-admins@example.com",
    contentStore: { connectionString: "/arcgis/portal/content" },
  },
  ServerCertificate: {
    adminUrl: ADMIN,
    ...SERVER,
    machineName: "gis1.example.com",
    alias: "gis1-2026",
    pkcs12: "MIIB",
    certPassword: "cert-Password-1",
    webServerUrl: "https://gis1.example.com/arcgis",
  },
  Collaboration: { sharingUrl: SHARING, ...PORTAL, collaborationId: "hosted1" },
  Federation: {
    sharingUrl: SHARING,
    ...PORTAL,
    adminUrl: "https://gis1.example.com/arcgis/admin",
    serverUrl: "https://gis.example.com/server",
    serverUsername: SERVER.username,
    serverPassword: SERVER.password,
  },
};

/** The URLs among each resource's inputs (an object input's field after a dot). */
const URLS: Record<string, readonly string[]> = {
  Site: ["adminUrl"],
  SiteExport: ["adminUrl", "objectStore.endpoint"],
  SiteImport: ["adminUrl", "objectStore.endpoint"],
  SiteMachine: ["adminUrl", "siteAdminUrl"],
  LogSettings: ["adminUrl"],
  SystemProperties: ["adminUrl"],
  SiteUpgrade: ["adminUrl"],
  SecuritySettings: ["adminUrl"],
  WebAdaptor: ["adminUrl", "webAdaptorUrl"],
  PortalSite: ["sharingUrl"],
  ServerCertificate: ["adminUrl", "webServerUrl"],
  Collaboration: ["sharingUrl"],
  Federation: ["sharingUrl", "adminUrl", "serverUrl"],
};

/** What a diff reads of the outputs beyond the inputs. */
const OUTPUTS: Record<string, Record<string, unknown>> = {
  SiteImport: { fingerprint: `sha256:${"a".repeat(64)}` },
};

/** The inputs as check() leaves them (defaults filled in), read without any server. */
function checked(resource: PluginResource, raw: Record<string, unknown>): Record<string, unknown> {
  const result = checkInputs(resource.rules.schema(), raw, resource.rules.crossChecks);
  expect(result.failures).toEqual([]);
  return result.inputs;
}

/** Each URL in the inputs, at the top or as an object input's field the definition names. */
function urlPaths(resource: PluginResource, inputs: Record<string, unknown>): string[][] {
  return Object.entries(resource.definition.inputs).flatMap(([key, spec]) => {
    if (spec.url === undefined || inputs[key] === undefined) return [];
    return spec.url === true ? [[key]] : spec.url.map((field) => [key, field]);
  });
}

function withUrl(
  inputs: Record<string, unknown>,
  [key, field]: string[],
  change: (url: string) => string,
): Record<string, unknown> {
  if (field === undefined) return { ...inputs, [key!]: change(inputs[key!] as string) };
  const inner = inputs[key!] as Record<string, unknown>;
  return { ...inputs, [key!]: { ...inner, [field]: change(inner[field] as string) } };
}

describe.each(PLUGIN_RESOURCES.map((r) => [r.type, r] as const))("%s", (type, resource) => {
  it("marks its URL inputs, and the URL fields of its object inputs, as URLs", () => {
    const marked = urlPaths(resource, INPUTS[type]!).map((p) => p.join("."));
    expect(marked.sort()).toEqual([...URLS[type]!].sort());
  });

  it("marks every input whose name says it is a URL as one", () => {
    const named = Object.keys(resource.definition.inputs).filter((key) => /Url$/.test(key));
    for (const key of named)
      expect([key, resource.definition.inputs[key]!.url]).toEqual([key, true]);
  });

  it("takes another spelling of each URL input as no replacement, and another server as one", async () => {
    const inputs = checked(resource, INPUTS[type]!);
    const olds = { ...inputs, ...OUTPUTS[type] };
    const paths = urlPaths(resource, inputs);
    expect(paths.length).toBeGreaterThan(0);
    const news = paths.reduce((values, p) => withUrl(values, p, respelled), inputs);
    expect(checked(resource, news)).toBeDefined();
    const diff = await resource.implementation.diff("id", olds, news);
    expect(diff.replaces ?? []).toEqual([]);
    // Only the inputs that also update state (the recorded spelling) may be a change.
    const stateOnly = paths.every(([key]) => resource.definition.inputs[key!]!.stateOnly === true);
    if (!stateOnly) expect(diff.changes).toBe(false);
    // A Site replaces only once deleteSiteOnDestroy is set (else check() refuses, below).
    const before = type === "Site" ? { ...olds, deleteSiteOnDestroy: true } : olds;
    for (const p of paths.filter(([key]) => resource.definition.inputs[key!]!.replaces === true)) {
      const moved = await resource.implementation.diff("id", before, withUrl(inputs, p, elsewhere));
      expect([p.join("."), moved.replaces]).toEqual([p.join("."), expect.arrayContaining([p[0]])]);
    }
  });
});

describe("Site's change it cannot take", () => {
  const site = PLUGIN_RESOURCES.find((r) => r.type === "Site")!;
  const olds = () => checked(site, INPUTS.Site!);

  it("is refused by check(), naming the input and what to do, from the old and new inputs", async () => {
    const news = { ...olds(), adminUrl: "https://gis9.example.com:1/arcgis/admin" };
    const result = await site.implementation.check(olds(), news);
    expect(result.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^Cannot change adminUrl of the site at https:\/\/gis1\.example\.com:1\/arcgis\/admin: .*createNewSite cannot run on it again.*Revert the change; or, .*first set deleteSiteOnDestroy: true and run `pulumi up`, then make the change\.$/,
        ),
      },
    ]);
  });

  it("is not refused for another spelling, a value still unknown, or with deleteSiteOnDestroy set before", async () => {
    const moved = { ...olds(), adminUrl: "https://gis9.example.com:1/arcgis/admin" };
    const respelledUrl = { ...olds(), adminUrl: respelled(ADMIN) };
    expect((await site.implementation.check(olds(), respelledUrl)).failures).toEqual([]);
    expect((await site.implementation.diff("id", olds(), respelledUrl)).changes).toBe(false);
    expect(
      (await site.implementation.check(olds(), { ...olds(), adminUrl: UNKNOWN })).failures,
    ).toEqual([]);
    expect(
      (
        await site.implementation.check(
          { ...olds(), deleteSiteOnDestroy: true },
          { ...moved, deleteSiteOnDestroy: true },
        )
      ).failures,
    ).toEqual([]);
    expect(
      await site.implementation.diff("id", { ...olds(), deleteSiteOnDestroy: true }, moved),
    ).toMatchObject({ replaces: ["adminUrl"], deleteBeforeReplace: true });
  });
});
