/**
 * The wording of the errors, on both paths, against the emulator (issue 38, item 5): the
 * dynamic resources' `implementation` called as Pulumi's dynamic-provider host calls it (a
 * TypeScript program's path), and the plugin's gRPC server as the engine calls it for a YAML or
 * Python program. `pulumi import` is tests/plugin/import.test.ts; the engine's own printout of
 * these messages is tests/real-engine/wording.test.ts.
 *
 * - a missing input says it is required and where it can come from, worded for the path (an
 *   argument and the `connection` argument in TypeScript, a property in YAML), never zod's words;
 * - refused credentials name the inputs that hold them (the portal's `username`/`password` and
 *   their stack config keys, Federation's `serverUsername`/`serverPassword`);
 * - each sentence once (the client's advice is not repeated by the resource's sentence);
 * - no Node.js advice (`--use-system-ca`), no stack trace;
 * - a changed certificate is named by its SHA-256 fingerprint, never its PEM.
 */
import { createRequire } from "node:module";
import { X509Certificate } from "node:crypto";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import { PluginServer, startPluginServer } from "../../provider/plugin/server";
import type { EngineLog } from "../../provider/resources/common/messages/engine-log";
import { withOperationLogger } from "../../provider/resources/common/messages/operation-log";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import { implementation as federation } from "../../provider/resources/federation/lifecycle";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { closeDispatchers, createNewSite } from "../../provider/client";
import {
  portalSeed,
  siteInputs,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";

jest.setTimeout(60_000);

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof grpcTypes;
const m = pulumiRequire("./proto/provider_pb") as typeof provTypes;
const services = pulumiRequire("./proto/provider_grpc_pb") as {
  ResourceProviderClient: new (address: string, credentials: unknown) => Client;
};
const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb.js") as {
  Struct: { fromJavaScript(value: Record<string, unknown>): never };
};

type Client = Record<
  string,
  (request: unknown, callback: (error: Error | null, response: unknown) => void) => void
> & { close(): void };

const SITE_PASSWORD = "wording-Site-Pass-1";
const PORTAL = { username: "gisadmin", password: "wording-Portal-Pass-1" };
const WRONG = "wording-Wrong-Pass-9";

let emu: TestEmulator;
let server: { port: number; stop: () => void };
let client: Client;
/** What the plugin's steps wrote to the engine's log. */
const logged: string[] = [];
const savedEnv = { ...process.env };

/** An engine's log that keeps what it is given. */
const engineLog = {
  logger: () => ({ log: (_severity: string, message: string) => logged.push(message) }),
  flush: async () => {},
} as unknown as EngineLog;

function call<T>(method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method]!(request, (error, response) => (error ? reject(error) : resolve(response as T))),
  );
}

beforeAll(async () => {
  for (const key of Object.keys(process.env)) {
    if (key.startsWith("ARCGIS_ADMIN_")) delete process.env[key];
  }
  emu = await startTestEmulator({
    createDelayMs: 0,
    seed: portalSeed([{ ...PORTAL, role: "org_admin" }]),
  });
  await createNewSite(
    emu.adminUrl,
    {
      serverType: "mission-server",
      username: "siteadmin",
      password: SITE_PASSWORD,
      runAsync: false,
    },
    { tls: { caCert: emu.caCert! } },
  );
  server = await startPluginServer(new PluginServer(undefined, engineLog));
  client = new services.ResourceProviderClient(
    `127.0.0.1:${server.port}`,
    grpc.credentials.createInsecure(),
  );
  await call("configure", new m.ConfigureRequest());
}, 60_000);

afterAll(async () => {
  process.env = savedEnv;
  client?.close();
  server?.stop();
  await emu?.close();
  await closeDispatchers();
});

const urn = (type: string, name: string) =>
  `urn:pulumi:dev::p::arcgis-admin:index:${type}::${name}`;
const structOf = (value: unknown) =>
  (value as { toJavaScript(): Record<string, unknown> }).toJavaScript();

/** The plugin's check: the reasons of its failures, and the inputs it answered. */
async function pluginCheck(type: string, news: Record<string, unknown>) {
  const request = new m.CheckRequest()
    .setUrn(urn(type, "r"))
    .setType(`arcgis-admin:index:${type}`)
    .setOlds(Struct.fromJavaScript({}))
    .setNews(Struct.fromJavaScript(news));
  const checked = await call<provTypes.CheckResponse>("check", request);
  return {
    reasons: checked.getFailuresList().map((f) => f.getReason()),
    inputs: structOf(checked.getInputs()),
  };
}

/** The plugin's check, then its create: the error the engine is given. */
async function pluginCreateFails(type: string, news: Record<string, unknown>): Promise<string> {
  const { reasons, inputs } = await pluginCheck(type, news);
  expect(reasons).toEqual([]);
  const request = new m.CreateRequest()
    .setUrn(urn(type, "r"))
    .setType(`arcgis-admin:index:${type}`)
    .setProperties(Struct.fromJavaScript(asTheEngineSends(inputs)));
  const error = (await call("create", request).catch((e: unknown) => e)) as grpcTypes.ServiceError;
  expect(error).toBeInstanceOf(Error);
  return error.details;
}

/** Pulumi's secret envelope (sig.Secret). */
const SECRET_KEY = "4dabf18193072939515e22adb298388d";

/**
 * Checked inputs as the engine sends them on to a provider that accepts no secrets: each secret
 * envelope replaced by its value.
 */
function asTheEngineSends(value: unknown): never {
  const plain = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(plain);
    if (v === null || typeof v !== "object") return v;
    if (SECRET_KEY in v) return plain((v as unknown as { value: unknown }).value);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  };
  return plain(value) as never;
}

type Implementation = {
  check: (olds: unknown, news: unknown) => Promise<{ inputs?: unknown; failures?: unknown[] }>;
  create: (inputs: unknown) => Promise<unknown>;
};

/** The dynamic path's check: its failures as the host prints them (`property: reason`). */
async function dynamicCheck(impl: Implementation, news: Record<string, unknown>) {
  const checked = await impl.check({}, news);
  return (checked.failures as Array<{ property: string; reason: string }>).map(
    (f) => `${f.property}: ${f.reason}`,
  );
}

/** The dynamic path's check, then create: the error's message (and it has no stack trace). */
async function dynamicCreateFails(impl: Implementation, news: Record<string, unknown>) {
  const checked = await impl.check({}, news);
  expect(checked.failures ?? []).toEqual([]);
  const error = (await impl.create(checked.inputs).catch((e: unknown) => e)) as Error;
  expect(error).toBeInstanceOf(Error);
  expect(error.stack).toBe("");
  return error.message;
}

/** Every sentence of a message once: no sentence said twice in other places of it. */
function expectEachSentenceOnce(message: string): void {
  const sentences = message
    .split(/(?<=[.:])\s+(?=[A-Z])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 20);
  expect(sentences.filter((s, i) => sentences.indexOf(s) !== i)).toEqual([]);
  expect(message.match(/Waiting cannot change this/g)?.length ?? 0).toBeLessThanOrEqual(1);
}

/** No runtime's words a Pulumi user cannot act on. */
function expectNoRuntimeAdvice(message: string): void {
  expect(message).not.toMatch(/Invalid input|expected string|received (undefined|null)/);
  expect(message).not.toMatch(/Node\.js|--use-system-ca|--help/);
  expect(message).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
}

const portalInputs = (extra: Record<string, unknown> = {}) => ({
  sharingUrl: emu.sharingUrl,
  collaborationId: "hosted1",
  ...PORTAL,
  tls: { caCert: emu.caCert },
  ...extra,
});

describe("a missing input says it is required and where it can come from", () => {
  it("dynamic: the argument, the connection argument, stack config and the environment", async () => {
    const failures = await dynamicCheck(site, { ...siteInputs(emu), password: null });
    expect(failures).toEqual([
      "password: is required. Give it as the argument password, as password in the connection " +
        "argument, as stack config arcgis-admin:password (`pulumi config set --secret " +
        "arcgis-admin:password`) or as environment variable ARCGIS_ADMIN_PASSWORD (stack config " +
        "and environment credentials serve only the URL that arcgis-admin:adminUrl names, when " +
        "it is set).",
    ]);
    // Federation's server account is an argument of its own in TypeScript (no defaults there).
    const federationFailures = await dynamicCheck(federation, {
      sharingUrl: emu.sharingUrl,
      ...PORTAL,
      adminUrl: emu.adminUrl,
      serverUsername: "siteadmin",
      serverPassword: null,
    });
    expect(federationFailures).toEqual([
      "serverPassword: is required. Give it as the argument serverPassword.",
    ]);
    for (const f of [...failures, ...federationFailures]) expectNoRuntimeAdvice(f);
  });

  it("dynamic: also when it is found missing at create (unknown at preview)", async () => {
    const error = (await siteExport
      .create({ ...siteInputs(emu), password: null, location: emu.dataDir })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^Invalid SiteExport inputs: password: is required\. Give it as the argument password, as password in the connection argument/,
    );
    expectNoRuntimeAdvice(error.message);
  });

  it("plugin: the resource's property, stack config and the environment; no argument", async () => {
    const { reasons } = await pluginCheck("Site", {
      adminUrl: emu.adminUrl,
      username: "siteadmin",
    });
    expect(reasons).toEqual([
      "password: is required. Set it as the resource's property password, as stack config " +
        "arcgis-admin:password (`pulumi config set --secret arcgis-admin:password`) or as " +
        "environment variable ARCGIS_ADMIN_PASSWORD (stack config and environment credentials " +
        "serve only the URL that arcgis-admin:adminUrl names, when it is set).",
    ]);
    // The plugin fills Federation's server account from the server defaults.
    const federationReasons = await pluginCheck("Federation", {
      sharingUrl: emu.sharingUrl,
      ...PORTAL,
      adminUrl: emu.adminUrl,
      serverUsername: "siteadmin",
    });
    expect(federationReasons.reasons).toEqual([
      "serverPassword: is required. Set it as the resource's property serverPassword, as stack " +
        "config arcgis-admin:password (`pulumi config set --secret arcgis-admin:password`) or as " +
        "environment variable ARCGIS_ADMIN_PASSWORD (stack config and environment credentials " +
        "serve only the URL that arcgis-admin:adminUrl names, when it is set).",
    ]);
    for (const r of [...reasons, ...federationReasons.reasons]) {
      expect(r).not.toMatch(/argument/);
      expectNoRuntimeAdvice(r);
    }
  });
});

describe("refused credentials name the inputs that hold them, once", () => {
  it("dynamic: a portal's username and password, and where they come from", async () => {
    const message = await dynamicCreateFails(collaboration, portalInputs({ password: WRONG }));
    expect(message).toMatch(
      /^The portal at sharingUrl \(https:\/\/127\.0\.0\.1:\d+\/portal\/sharing\/rest\) refused the username "gisadmin" with the password given \(it answered "[^"]+"\): check the arguments username and password, or, when the resource leaves them out, the connection argument, stack config arcgis-admin:portalUsername and arcgis-admin:portalPassword or environment variables ARCGIS_ADMIN_PORTAL_USERNAME and ARCGIS_ADMIN_PORTAL_PASSWORD\. Waiting cannot change this, so it was not waited for\.$/,
    );
    expect(message).not.toContain(WRONG);
    // The client's own "generateToken on … failed" is not said beside it.
    expect(message).not.toMatch(/generateToken on/);
    expectEachSentenceOnce(message);
  });

  it("dynamic: a server's username and password", async () => {
    const message = await dynamicCreateFails(siteExport, {
      ...siteInputs(emu, { password: WRONG }),
      location: emu.dataDir,
    });
    expect(message).toMatch(
      /refused the username "siteadmin" with the password given \(it answered "[^"]+"\): check the arguments username and password, or, when the resource leaves them out, the connection argument, stack config arcgis-admin:username and arcgis-admin:password/,
    );
    expectEachSentenceOnce(message);
  });

  it("plugin: the properties, and the stack config keys that supply them", async () => {
    const message = await pluginCreateFails("Collaboration", portalInputs({ password: WRONG }));
    expect(message).toMatch(
      /^The portal at sharingUrl \(.*\) refused the username "gisadmin" with the password given \(it answered "[^"]+"\): check the properties username and password, or, when the resource leaves them out, stack config arcgis-admin:portalUsername and arcgis-admin:portalPassword or environment variables ARCGIS_ADMIN_PORTAL_USERNAME and ARCGIS_ADMIN_PORTAL_PASSWORD\. Waiting cannot change this, so it was not waited for\.$/,
    );
    expect(message).not.toMatch(/argument/);
    expect(message).not.toContain(WRONG);
    expectEachSentenceOnce(message);
  });
});

describe("an untrusted certificate: tls.caCert, once, without Node.js's advice", () => {
  it("dynamic", async () => {
    const message = await dynamicCreateFails(collaboration, portalInputs({ tls: {} }));
    expect(message).toMatch(
      /^The certificate of sharingUrl \(https:\/\/127\.0\.0\.1:\d+\) is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate\): set tls\.caCert to the PEM certificate of the CA that signed it/,
    );
    expectNoRuntimeAdvice(message);
    expectEachSentenceOnce(message);
    expect(message.match(/tls\.caCert/g)).toHaveLength(1);
  });

  it("plugin", async () => {
    const message = await pluginCreateFails("Collaboration", portalInputs({ tls: {} }));
    expect(message).toMatch(/^The certificate of sharingUrl \(.*\) is not trusted/);
    expectNoRuntimeAdvice(message);
    expectEachSentenceOnce(message);
  });
});

describe("a changed certificate is named by its fingerprint, not its PEM", () => {
  const fingerprint = () => new X509Certificate(emu.caCert!).fingerprint256;
  const bundle = () => `${emu.caCert!.trim()}\n${emu.caCert!.trim()}\n`;

  it("dynamic: the diff says it once, by SHA-256", async () => {
    const olds = (await site.check({}, { ...siteInputs(emu), password: SITE_PASSWORD })).inputs;
    const said: string[] = [];
    const result = await withOperationLogger(
      { log: (_severity, message) => said.push(message) },
      () => site.diff("id", olds, { ...(olds as object), tls: { caCert: bundle() } }),
    );
    expect(result.changes).toBe(true);
    expect(said).toEqual([
      `tls.caCert changes from SHA-256 ${fingerprint()} to SHA-256 ${fingerprint()}.`,
    ]);
    expect(said.join("\n")).not.toContain("BEGIN CERTIFICATE");
  });

  it("check marks the certificate a secret for the engine on both paths, so its diff shows no PEM", async () => {
    const news = { ...siteInputs(emu), password: SITE_PASSWORD };
    const secretCa = { [SECRET_KEY]: "1b47061264138c4ac30d75fd1eb44270", value: emu.caCert };
    const dynamic = (await site.check({}, news, true)).inputs as { tls: { caCert: unknown } };
    expect(dynamic.tls.caCert).toEqual(secretCa);
    // Called directly (tests, import), check answers the plain value the other steps take.
    const direct = (await site.check({}, news)).inputs as { tls: { caCert: unknown } };
    expect(direct.tls.caCert).toBe(emu.caCert);
    const { inputs } = await pluginCheck("Site", news);
    expect((inputs as { tls: { caCert: unknown } }).tls.caCert).toEqual(secretCa);
  });

  it("plugin: the diff says it under the resource, by SHA-256", async () => {
    const olds = (await site.check({}, { ...siteInputs(emu), password: SITE_PASSWORD }))
      .inputs as Record<string, unknown>;
    logged.length = 0;
    const request = new m.DiffRequest()
      .setId("id")
      .setUrn(urn("Site", "site"))
      .setType("arcgis-admin:index:Site")
      .setOlds(Struct.fromJavaScript(olds))
      .setNews(Struct.fromJavaScript({ ...olds, tls: { caCert: bundle() } }));
    const diff = await call<provTypes.DiffResponse>("diff", request);
    expect(diff.getDiffsList()).toContain("tls");
    expect(logged).toEqual([
      `tls.caCert changes from SHA-256 ${fingerprint()} to SHA-256 ${fingerprint()}.`,
    ]);
  });
});
