/**
 * The plugin's gRPC server (provider/plugin/server.ts) spoken to over gRPC on 127.0.0.1 with
 * Pulumi's generated client, as the engine speaks to it: its version and schema (with the TSDoc
 * descriptions), the provider configuration as connection defaults with the password answered as
 * a secret, a missing connection value named, and `diff` naming the changed keys: both the ones
 * that replace and the ones that only update (what lets `replaceOnChanges` turn an update into a
 * replacement); and a ServerCertificate's certificate proven by check on a new certificate only.
 */
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import { startPluginServer } from "../../provider/plugin/server";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof grpcTypes;
const m = pulumiRequire("./proto/provider_pb") as typeof provTypes;
const services = pulumiRequire("./proto/provider_grpc_pb") as {
  ResourceProviderClient: new (address: string, credentials: unknown) => Client;
};
const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb.js") as {
  Struct: { fromJavaScript(value: Record<string, unknown>): never };
};
const { Empty } = pulumiRequire("google-protobuf/google/protobuf/empty_pb.js") as {
  Empty: new () => unknown;
};

type Client = Record<
  string,
  (request: unknown, callback: (error: Error | null, response: unknown) => void) => void
> & { close(): void };

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const TYPE = "arcgis-admin:index:SiteExport";
const URN = `urn:pulumi:dev::p::${TYPE}::backup`;

let server: { port: number; stop: () => void };
let client: Client;

function call<T>(method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method]!(request, (error, response) => (error ? reject(error) : resolve(response as T))),
  );
}

beforeAll(async () => {
  server = await startPluginServer();
  client = new services.ResourceProviderClient(
    `127.0.0.1:${server.port}`,
    grpc.credentials.createInsecure(),
  );
}, 60_000);

afterAll(() => {
  client?.close();
  server?.stop();
});

it("answers with the package's version and its schema, described with the TSDoc", async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  const info = await call<{ getVersion(): string }>("getPluginInfo", new Empty());
  expect(info.getVersion()).toBe(pkg.version);
  const answer = await call<{ getSchema(): string }>("getSchema", new m.GetSchemaRequest());
  const schema = JSON.parse(answer.getSchema()) as {
    version: string;
    resources: Record<
      string,
      { description: string; inputProperties: Record<string, { description?: string }> }
    >;
  };
  expect(schema.version).toBe(pkg.version);
  const siteExport = schema.resources[TYPE]!;
  expect(siteExport.description).not.toBe("");
  expect(siteExport.inputProperties.maxDownloadBytes!.description).toMatch(/^Largest archive/);
});

it("takes the provider configuration, refuses secrets, and fills the connection from it", async () => {
  const configure = new m.ConfigureRequest();
  configure.getVariablesMap().set("arcgis-admin:adminUrl", "https://127.0.0.1:20443/arcgis/admin");
  configure.getVariablesMap().set("arcgis-admin:username", "siteadmin");
  configure.getVariablesMap().set("arcgis-admin:password", "s3cret-from-config");
  configure.setAcceptsecrets(true);
  const configured = await call<{ getAcceptsecrets(): boolean }>("configure", configure);
  expect(configured.getAcceptsecrets()).toBe(false);

  const check = new m.CheckRequest()
    .setUrn(URN)
    .setType(TYPE)
    .setOlds(Struct.fromJavaScript({}))
    .setNews(Struct.fromJavaScript({ location: "/backups" }));
  const checked = await call<provTypes.CheckResponse>("check", check);
  expect(checked.getFailuresList()).toEqual([]);
  const inputs = (
    checked.getInputs() as unknown as { toJavaScript(): Record<string, unknown> }
  ).toJavaScript();
  expect(inputs.adminUrl).toBe("https://127.0.0.1:20443/arcgis/admin");
  expect(inputs.username).toBe("siteadmin");
  // The password from the configuration goes back as a secret.
  expect(inputs.password).toEqual({ ...SECRET, value: "s3cret-from-config" });
});

it("names a missing connection value when there is no default", async () => {
  await call("configure", new m.ConfigureRequest());
  const saved = { url: process.env.ARCGIS_ADMIN_URL };
  delete process.env.ARCGIS_ADMIN_URL;
  try {
    const check = new m.CheckRequest()
      .setUrn(URN)
      .setType(TYPE)
      .setOlds(Struct.fromJavaScript({}))
      .setNews(Struct.fromJavaScript({}));
    const checked = await call<provTypes.CheckResponse>("check", check);
    const reasons = checked.getFailuresList().map((f) => f.getReason());
    expect(reasons.some((r) => r.startsWith("adminUrl:"))).toBe(true);
  } finally {
    if (saved.url !== undefined) process.env.ARCGIS_ADMIN_URL = saved.url;
  }
});

describe("diff", () => {
  const olds = {
    serverType: "mission-server",
    adminUrl: "https://127.0.0.1:20443/arcgis/admin",
    username: "siteadmin",
    password: "pw",
    location: "/backups/a",
    requestedLocation: "/backups/a",
    timeouts: { exportMs: 1_800_000 },
    maxDownloadBytes: 4294967296,
    fileName: "x.agssite",
    exportedAt: "2025-01-01T00:00:00Z",
  };
  const inputs = { ...olds } as Record<string, unknown>;
  for (const key of ["requestedLocation", "fileName", "exportedAt"]) delete inputs[key];

  async function diff(news: Record<string, unknown>) {
    const request = new m.DiffRequest()
      .setId("x")
      .setUrn(URN)
      .setType(TYPE)
      .setOlds(Struct.fromJavaScript(olds))
      .setNews(Struct.fromJavaScript(news))
      .setOldInputs(Struct.fromJavaScript(inputs));
    const answer = await call<provTypes.DiffResponse>("diff", request);
    return {
      changes: answer.getChanges(),
      diffs: answer.getDiffsList(),
      replaces: answer.getReplacesList(),
    };
  }

  it("names every changed key, and the ones that replace", async () => {
    expect(await diff({ ...inputs, location: "/backups/b", username: "other" })).toEqual({
      changes: m.DiffResponse.DiffChanges.DIFF_SOME,
      diffs: ["username", "location"],
      replaces: ["location"],
    });
  });

  it("names a key that only updates, replacing nothing", async () => {
    expect(await diff({ ...inputs, maxDownloadBytes: 2_000_000_000 })).toEqual({
      changes: m.DiffResponse.DiffChanges.DIFF_SOME,
      diffs: ["maxDownloadBytes"],
      replaces: [],
    });
  });

  it("reports no change for the same inputs", async () => {
    expect(await diff(inputs)).toEqual({
      changes: m.DiffResponse.DiffChanges.DIFF_NONE,
      diffs: [],
      replaces: [],
    });
  });

  it("reports no change for another spelling of the server's URL", async () => {
    const adminUrl = "https://LOCALHOST:20443/arcgis/admin/";
    expect(await diff({ ...inputs, adminUrl })).toEqual({
      changes: m.DiffResponse.DiffChanges.DIFF_NONE,
      diffs: [],
      replaces: [],
    });
  });
});

describe("check of a change a Site cannot take", () => {
  const SITE_URN = "urn:pulumi:dev::p::arcgis-admin:index:Site::site";
  const olds = {
    serverType: "mission-server",
    adminUrl: "https://127.0.0.1:20443/arcgis/admin/",
    username: "siteadmin",
    password: "site-Password-1",
    deleteSiteOnDestroy: false,
  };

  async function reasons(news: Record<string, unknown>): Promise<string[]> {
    const check = new m.CheckRequest()
      .setUrn(SITE_URN)
      .setType("arcgis-admin:index:Site")
      .setOlds(Struct.fromJavaScript(olds))
      .setNews(Struct.fromJavaScript(news));
    const checked = await call<provTypes.CheckResponse>("check", check);
    return checked.getFailuresList().map((f) => f.getReason());
  }

  it("refuses another server, saying what to do, as the dynamic resource does", async () => {
    await call("configure", new m.ConfigureRequest());
    expect(
      await reasons({ ...olds, adminUrl: "https://gis9.example.com:20443/arcgis/admin" }),
    ).toEqual([
      expect.stringMatching(
        /^Cannot change adminUrl of the site at https:\/\/127\.0\.0\.1:20443\/arcgis\/admin\/: .*first set deleteSiteOnDestroy: true and run `pulumi up`, then make the change\.$/,
      ),
    ]);
  });

  it("takes another spelling of the same URL", async () => {
    expect(await reasons({ ...olds, adminUrl: "https://127.0.0.1:20443/arcgis/admin" })).toEqual(
      [],
    );
  });
});

describe("check proves a ServerCertificate's certificate on the plugin path too", () => {
  const type = "arcgis-admin:index:ServerCertificate";
  const DAY = 24 * 3600 * 1000;
  const ca = makeRootCa();
  const expired = issueServerCertificate(ca, ["gis.example.com"], "gis.example.com", {
    notBefore: new Date(Date.now() - 30 * DAY),
    notAfter: new Date(Date.now() - DAY),
  });
  const inputs = {
    adminUrl: "https://gis.example.com:6443/arcgis/admin",
    username: "siteadmin",
    password: "pw",
    machineName: "GIS.EXAMPLE.COM",
    pkcs12: pkcs12(expired, "pfx-Plugin-Secret").toString("base64"),
    certPassword: "pfx-Plugin-Secret",
    alias: "gis",
  };
  async function reasons(olds: Record<string, unknown>, news: Record<string, unknown>) {
    const check = new m.CheckRequest()
      .setUrn(`urn:pulumi:dev::p::${type}::https`)
      .setType(type)
      .setOlds(Struct.fromJavaScript(olds))
      .setNews(Struct.fromJavaScript(news));
    const checked = await call<provTypes.CheckResponse>("check", check);
    return checked.getFailuresList().map((f) => `${f.getProperty()}|${f.getReason()}`);
  }

  it("refuses a new expired certificate, the input named in the reason; an unchanged one is not proven again", async () => {
    await call("configure", new m.ConfigureRequest());
    expect(await reasons({}, inputs)).toEqual([
      expect.stringMatching(/^\|pkcs12: the certificate \(CN=gis\.example\.com, .*\) expired on /),
    ]);
    expect(await reasons(inputs, inputs)).toEqual([]);
  });
});
