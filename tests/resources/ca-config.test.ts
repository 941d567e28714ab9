/**
 * `tls.caCertConfig` (provider/resources/common/connection/ca-config.ts), the implementations
 * called directly against a real HTTPS emulator: check() records the key and the certificate's
 * digest and refuses, before any request, a key the config lacks or whose value is no
 * certificate; every step reaches the server with the certificate the key names; diff finds the
 * same certificate in another form no change. Through the real CLI: tests/real-engine/ca-config.
 */
import { createHash } from "node:crypto";
import { closeDispatchers } from "../../provider/client";
import { implementation as logSettings } from "../../provider/resources/log-settings/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const NOT_A_CERTIFICATE = "not-a-Certificate-But-A-Secret-5";

let emu: TestEmulator;
const config = new Map<string, string>();

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 0 });
});
afterAll(async () => {
  await emu.close();
  await closeDispatchers();
});

function withKey(key: string, extra: Record<string, unknown> = {}) {
  return siteInputs(emu, { serverType: emu.serverType, tls: { caCertConfig: key }, ...extra });
}

it("refuses tls.caCertConfig where the provider was given no stack config (the plugin), saying to give tls.caCert", async () => {
  // Before any configure() of this file: a process that never had the stack's config.
  const result = await site.check({}, withKey("proj:ca"), true);
  expect(result.failures).toEqual([
    { property: "", reason: expect.stringContaining("give the certificate itself as tls.caCert") },
  ]);
});

describe("with the stack's config", () => {
  beforeAll(() => {
    logSettings.configure({
      get: (key) => config.get(key),
      require: (key) => config.get(key) ?? "",
    });
    config.set("proj:ca", emu.caCert!);
    config.set("proj:password", NOT_A_CERTIFICATE);
  });

  it("records the key and the certificate's SHA-256, never the certificate, and every step reaches the server with it", async () => {
    const checked = await site.check({}, withKey("proj:ca", { runAsync: false }), true);
    expect(checked.failures ?? []).toEqual([]);
    const recorded = { caCertConfig: "proj:ca", caCertSha256: sha256(emu.caCert!) };
    expect(checked.inputs!["tls"]).toEqual(recorded);
    expect(JSON.stringify(checked.inputs)).not.toContain("BEGIN CERTIFICATE");
    const created = await site.create(checked.inputs);
    expect(created.outs["tls"]).toEqual(recorded);
    expect(JSON.stringify(created.outs)).not.toContain("BEGIN CERTIFICATE");
    const read = await site.read(created.id, created.outs);
    expect(read.props!["state"]).toBe("created");

    const logs = await logSettings.check({}, withKey("proj:ca", { logLevel: "DEBUG" }), true);
    expect(logs.failures ?? []).toEqual([]);
    const written = await logSettings.create(logs.inputs);
    expect(written.outs["serverLogSettings"]).toMatchObject({ logLevel: "DEBUG" });
    await logSettings.delete(written.id, { ...written.outs, restoreOnDestroy: true });
  });

  it("refuses at check a key the config does not have, and a value that is no certificate, naming the key and never the value", async () => {
    const sent = emu.requestLog().length;
    const missing = await site.check({}, withKey("proj:nothing"), true);
    expect(missing.failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining('stack config "proj:nothing", which the stack\'s config'),
      },
    ]);
    const wrong = await site.check({}, withKey("proj:password"), true);
    expect(wrong.failures).toEqual([
      { property: "", reason: expect.stringContaining('stack config "proj:password"') },
    ]);
    expect(JSON.stringify(wrong)).not.toContain(NOT_A_CERTIFICATE);
    expect(emu.requestLog().length).toBe(sent);
  });

  it("refuses caCert and caCertConfig together", async () => {
    const both = await site.check(
      {},
      siteInputs(emu, { tls: { caCert: emu.caCert!, caCertConfig: "proj:ca" } }),
      true,
    );
    expect(both.failures).toEqual([
      expect.objectContaining({ reason: expect.stringContaining("not both") }),
    ]);
  });

  it("diff: the same certificate by key is no change against the certificate itself; another certificate, or another key, is a change", async () => {
    const inline = (await logSettings.check({}, siteInputs(emu, { logLevel: "DEBUG" }))).inputs!;
    const byKey = (await logSettings.check({}, withKey("proj:ca", { logLevel: "DEBUG" }))).inputs!;
    expect((await logSettings.diff("id", inline, byKey)).changes).toBe(false);
    expect((await logSettings.diff("id", byKey, inline)).changes).toBe(false);
    expect((await logSettings.diff("id", byKey, byKey)).changes).toBe(false);

    config.set("proj:other", `${emu.caCert!.trimEnd()}\n\n`);
    const otherText = (await logSettings.check({}, withKey("proj:other", { logLevel: "DEBUG" })))
      .inputs!;
    config.set("proj:same", emu.caCert!);
    const otherKey = (await logSettings.check({}, withKey("proj:same", { logLevel: "DEBUG" })))
      .inputs!;
    for (const news of [otherText, otherKey]) {
      const diff = await logSettings.diff("id", byKey, news);
      expect(diff.changes).toBe(true);
      expect(diff.replaces ?? []).toEqual([]);
    }
  });
});
