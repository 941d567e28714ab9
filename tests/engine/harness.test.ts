/**
 * Proves the engine harness against Pulumi's real dynamic-provider host, with
 * the echo-provider fixture instead of our resources (which have their own
 * suites built on this harness).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  DYNAMIC_RESOURCE_TYPE,
  findText,
  isSecret,
  secret,
  unwrapSecrets,
  urn,
  type PropertyMap,
} from "../../tools/harness/property-values";
import { HostCallError, type Host } from "../../tools/harness/host-types";
import { PACKAGE_NAME } from "../../tools/harness/project";
import { prepareConsumer, type Consumer, type Registration } from "../../tools/harness/consumer";

const ECHO_PACKAGE = path.join(__dirname, "fixtures", "echo-provider");
const PASSWORD = "pw-Echo-7f3a91";

/** A program that declares one Echo resource with the given JS expression as args. */
function echoProgram(name: string, args: string, opts = "{}"): string {
  return `
    const pulumi = require("@pulumi/pulumi");
    const { Echo } = require("echo-provider");
    new Echo(${JSON.stringify(name)}, ${args}, ${opts});
  `;
}

function only(registrations: Registration[]): Registration {
  expect(registrations).toHaveLength(1);
  return registrations[0]!;
}

/** Waits for a call that must fail and returns its HostCallError. */
async function rejection(promise: Promise<unknown>): Promise<HostCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostCallError);
  return error as HostCallError;
}

let consumer: Consumer;
/** What the seed program registered; its __provider feeds the host tests. */
let seed: Registration;
let provider: string;

beforeAll(async () => {
  consumer = await prepareConsumer({
    // The harness is under test here, not colleagues' uncommitted code: pin
    // the committed tree. The resource suites pack the working tree.
    source: { ref: "HEAD" },
    extraPackages: [ECHO_PACKAGE],
  });
  seed = only(
    await consumer.runProgram(
      echoProgram(
        "seed",
        "{ name: 'seed', password: pulumi.secret('hidden'), list: [1, pulumi.secret('x')], count: 2 }",
        "{ additionalSecretOutputs: ['mirror'], deleteBeforeReplace: true }",
      ),
    ),
  );
  provider = seed.inputs.__provider as string;
});

afterAll(async () => {
  await consumer?.cleanup();
});

describe("prepareConsumer()", () => {
  it("installs the packed package as a real folder, not a link to the repository", () => {
    const installed = path.join(consumer.dir, "node_modules", PACKAGE_NAME);
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(fs.existsSync(path.join(installed, "dist", "provider", "index.js"))).toBe(true);
    // Only what package.json "files" lists is in the tarball.
    expect(fs.existsSync(path.join(installed, "provider"))).toBe(false);
    expect(Object.keys(consumer.tarballs).sort()).toEqual(["echo-provider", PACKAGE_NAME]);
  });

  it("resolves one @pulumi/pulumi from the project, from our package and from the fixture", () => {
    const script = `
      const resolveFrom = (dir) => require("fs").realpathSync(
        require.resolve("@pulumi/pulumi/package.json", { paths: [dir] }));
      console.log(JSON.stringify({
        project: resolveFrom(process.cwd()),
        ours: resolveFrom(require("path").dirname(require.resolve("${PACKAGE_NAME}/package.json"))),
        echo: resolveFrom(require("path").dirname(require.resolve("echo-provider/package.json"))),
        main: require.resolve("${PACKAGE_NAME}"),
      }));
    `;
    const out = execFileSync(process.execPath, ["-e", script], {
      cwd: consumer.dir,
      encoding: "utf8",
    });
    const resolved = JSON.parse(out) as Record<string, string>;
    const sdk = path.join(consumer.pulumiDir, "package.json");
    expect(resolved).toEqual({
      project: sdk,
      ours: sdk,
      echo: sdk,
      main: path.join(consumer.dir, "node_modules", PACKAGE_NAME, "dist", "provider", "index.js"),
    });
  });
});

describe("consumer.runProgram()", () => {
  it("records each registration with its type, name, inputs and resource options", () => {
    expect(seed).toMatchObject({
      type: DYNAMIC_RESOURCE_TYPE,
      name: "seed",
      custom: true,
      inputs: { name: "seed", count: 2 },
      options: { additionalSecretOutputs: ["mirror"], deleteBeforeReplace: true },
    });
  });

  it("yields a small __provider that loads the implementation by package name", () => {
    expect(typeof provider).toBe("string");
    expect(provider.length).toBeLessThan(4096);
    expect(provider).toContain('require("echo-provider/impl")');
    // impl.js is not copied into state: it is required when the host runs.
    expect(provider).not.toContain("receivedShapes");
  });

  it("delivers secret inputs as sentinel objects, and a secret array element makes the whole array secret", () => {
    expect(seed.inputs.password).toEqual(secret("hidden"));
    expect(seed.inputs.list).toEqual(secret([1, "x"]));
  });

  it("gives the program its stack config and environment", async () => {
    const { inputs } = only(
      await consumer.runProgram(
        echoProgram(
          "cfg",
          "{ name: 'cfg', greeting: new pulumi.Config('echo').require('greeting'), home: process.env.ECHO_HOME }",
        ),
        { config: { "echo:greeting": "hi" }, env: { ECHO_HOME: "/srv/echo" } },
      ),
    );
    expect(inputs).toMatchObject({ greeting: "hi", home: "/srv/echo" });
  });

  it("rejects with the serializer's explanation when __provider cannot be serialized", async () => {
    const program = `
      const { Unserializable } = require("echo-provider");
      new Unserializable("broken", {});
    `;
    await expect(consumer.runProgram(program)).rejects.toThrow(
      /error serializing property "__provider"[\s\S]*arrow function captured 'this'/,
    );
  });

  it("rejects with the program's own error when the program throws", async () => {
    await expect(consumer.runProgram(`throw new Error("the program gave up");`)).rejects.toThrow(
      "the program gave up",
    );
  });
});

describe("startHost()", () => {
  let host: Host;

  beforeAll(async () => {
    host = await consumer.startHost({ config: { "echo:greeting": secret("hello") } });
  });

  afterAll(async () => {
    await host?.close();
  });

  it("answers Configure as the dynamic-provider host does: no secrets, no preview", async () => {
    await expect(host.configure()).resolves.toEqual({
      acceptSecrets: false,
      acceptResources: false,
      acceptOutputs: false,
      supportsPreview: false,
    });
  });

  it("round-trips check, create, read, diff, update and delete with every JSON type intact", async () => {
    const resource = urn("round-trip");
    const news: PropertyMap = {
      __provider: provider,
      name: "round-trip",
      count: 3,
      ratio: 0.25,
      negative: -7,
      enabled: true,
      disabled: false,
      nothing: null,
      tags: ["a", "b"],
      nested: { deep: { list: [1, { x: "y" }, null, true] }, empty: {} },
    };
    const plain = { ...news };
    delete plain.__provider;

    const checked = await host.check(resource, {}, news);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ ...news, checked: true });

    const created = await host.create(resource, checked.inputs);
    expect(created.id).toBe("echo-round-trip");
    expect(created.properties).toMatchObject({ ...plain, checked: true, created: true });
    // The host copies the serialized provider back into the outputs.
    expect(created.properties.__provider).toBe(provider);
    // configure() unwrapped the secret config value for provider.configure.
    expect(created.properties.greeting).toBe("hello");
    expect(created.properties.receivedShapes).toMatchObject({
      nothing: "null",
      tags: "array",
      nested: "object",
      ratio: "number",
      enabled: "boolean",
    });

    const read = await host.read(created.id, resource, created.properties, checked.inputs);
    expect(read.id).toBe(created.id);
    expect(read.properties).toMatchObject({ ...plain, refreshed: true, __provider: provider });
    expect(read.inputs).toEqual({ name: "round-trip", __provider: provider });

    const same = await host.diff(created.id, resource, created.properties, checked.inputs);
    expect(same).toMatchObject({ changes: "DIFF_NONE", replaces: [], deleteBeforeReplace: false });

    const changed = { ...checked.inputs, count: 4, nested: { deep: { list: [] } } };
    const diff = await host.diff(created.id, resource, created.properties, changed);
    expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });

    const replacing = await host.diff(created.id, resource, created.properties, {
      ...changed,
      replaceOnChanges: ["count"],
      deleteBeforeReplace: true,
    });
    expect(replacing).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["count"],
      deleteBeforeReplace: true,
    });

    const updated = await host.update(created.id, resource, created.properties, changed, {
      oldInputs: checked.inputs,
    });
    expect(updated.properties).toMatchObject({
      count: 4,
      nested: { deep: { list: [] } },
      created: true,
      updated: true,
      __provider: provider,
    });

    await host.delete(created.id, resource, updated.properties);
    expect(host.stdout()).toContain("echo: delete echo-round-trip");
  });

  it("returns check failures as property and reason", async () => {
    const checked = await host.check(
      urn("invalid"),
      {},
      {
        __provider: provider,
        name: 42,
        invalid: true,
      },
    );
    expect(checked.failures).toEqual([
      { property: "invalid", reason: "invalid must not be true" },
      { property: "name", reason: "name must be a string" },
    ]);
  });

  it("rejects with exactly the message the provider threw, from every method", async () => {
    const props = (throwIn: string): PropertyMap => ({ __provider: provider, name: "t", throwIn });
    const id = "echo-t";
    const resource = urn("t");
    const calls: [string, () => Promise<unknown>][] = [
      ["check", () => host.check(resource, {}, props("check"))],
      ["diff", () => host.diff(id, resource, props("x"), props("diff"))],
      ["create", () => host.create(resource, props("create"))],
      ["read", () => host.read(id, resource, props("read"))],
      ["update", () => host.update(id, resource, props("x"), props("update"))],
      ["delete", () => host.delete(id, resource, props("delete"))],
    ];
    for (const [method, call] of calls) {
      const error = await rejection(call());
      expect(error).toMatchObject({
        code: "HOST_CALL_FAILED",
        method,
        grpcCode: 2,
        message: `echo: ${method} failed as requested`,
        id: undefined,
      });
    }
  });

  it("decodes ErrorResourceInitFailed when a create fails after the resource exists", async () => {
    const error = await rejection(
      host.create(urn("partial"), { __provider: provider, name: "partial", throwIn: "partial" }),
    );
    expect(error.message).toBe("echo: created but failed to initialize");
    expect(error.metadata["grpc-status-details-bin"]).toHaveLength(1);
    expect(error).toMatchObject({
      id: "echo-partial",
      properties: { name: "partial", initialized: false },
      reasons: ["echo: initialization was asked to fail"],
    });
  });

  it("reports a resource that read finds gone with an empty id", async () => {
    const read = await host.read("echo-gone", urn("gone"), { __provider: provider, gone: true });
    expect(read.id).toBe("");
  });

  it("hands the provider plain values and marks secret only the outputs under the secret input's key", async () => {
    const resource = urn("secretive");
    const news: PropertyMap = {
      __provider: provider,
      name: "secretive",
      password: secret(PASSWORD),
      mirror: "password",
    };
    const checked = await host.check(resource, {}, news);
    expect(checked.inputs.password).toEqual(secret(PASSWORD));

    const created = await host.create(resource, checked.inputs);
    // The engine stripped the marker: the provider saw a string.
    expect(created.properties.receivedShapes).toMatchObject({ password: "string" });
    expect(created.properties.password).toEqual(secret(PASSWORD));
    // A copy under another key is NOT re-marked by the engine.
    const hits = findText(created.properties, PASSWORD);
    expect(hits).toHaveLength(2);
    expect(hits).toEqual(
      expect.arrayContaining([
        { path: "mirror", secret: false },
        { path: "password", secret: true },
      ]),
    );

    // additionalSecretOutputs (from the registration) is what protects it.
    const guarded = await host.create(resource, checked.inputs, {
      additionalSecretOutputs: ["mirror"],
    });
    expect(isSecret(guarded.properties.mirror)).toBe(true);
    expect(findText(guarded.properties, PASSWORD).every((hit) => hit.secret)).toBe(true);

    const updated = await host.update(created.id, resource, created.properties, checked.inputs, {
      additionalSecretOutputs: ["mirror"],
    });
    expect(findText(updated.properties, PASSWORD).every((hit) => hit.secret)).toBe(true);
    expect(unwrapSecrets(updated.properties.mirror)).toBe(PASSWORD);

    expect(host.stdout()).not.toContain(PASSWORD);
    expect(host.stderr()).not.toContain(PASSWORD);
  });

  it("captures what the provider prints on stdout and stderr", async () => {
    await host.create(urn("chatty"), { __provider: provider, name: "chatty" });
    expect(host.stdout()).toContain("echo: create chatty\n");
    expect(host.stderr()).toContain("echo: create chatty (stderr)\n");
    // The host itself prints errors from check/diff/read/delete, with their
    // stack, where the user sees them: error texts must be as clean as outputs.
    await rejection(host.check(urn("noisy"), {}, { __provider: provider, throwIn: "check" }));
    expect(host.stderr()).toMatch(
      /Error: echo: check failed as requested: Error: echo: check failed/,
    );
  });
});

describe("a host in passthrough mode", () => {
  it("shows that the host itself hands secret sentinels to the provider untouched", async () => {
    const host = await consumer.startHost({ secrets: "passthrough" });
    try {
      await host.configure({});
      const created = await host.create(urn("raw"), {
        __provider: provider,
        name: "raw",
        password: secret(PASSWORD),
      });
      expect(created.properties.receivedShapes).toMatchObject({ password: "object" });
      expect(created.properties.password).toEqual(secret(PASSWORD));
    } finally {
      await host.close();
    }
  });
});

/** Whether a process with this id exists (signal 0 only probes). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

describe("host.close()", () => {
  it("stops the host process so that nothing is left running", async () => {
    const host = await consumer.startHost();
    await host.configure();
    expect(alive(host.pid)).toBe(true);
    await host.close();
    await host.close();
    expect(host.exited()).toEqual({ code: null, signal: "SIGTERM" });
    expect(alive(host.pid)).toBe(false);
  });
});

describe("a host that was not configured", () => {
  it("refuses calls before configure, as the engine never makes them", async () => {
    const host = await consumer.startHost();
    try {
      await expect(host.create(urn("early"), { __provider: provider })).rejects.toThrow(
        "call configure() first",
      );
    } finally {
      await host.close();
    }
  });
});
