/**
 * A CA certificate from stack config, recorded by its key (`tls.caCertConfig`,
 * docs/connection.md), through the real Pulumi CLI against an HTTPS emulator: the state holds the
 * key and the certificate's digest and never the certificate; the same certificate given itself
 * before is no change; another certificate under the key is an update of state only; and once the
 * keys are gone from the stack's config, a preview is refused naming the key before any request,
 * and `pulumi refresh` and `pulumi destroy` still reach the server with the config the last
 * update recorded.
 */
import { createHash } from "node:crypto";
import { closeAfterAll, emulator, stack } from "../../tools/harness/killed-run";
import { createAdminSession, getLogSettings } from "../../provider/client";
import { stateResources } from "../../tools/harness/engine-events";
import type { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import type { TestEmulator } from "../../tools/harness/emulator";

// Six runs of the CLI; on a loaded machine one can take 30 s.
jest.setTimeout(400_000);
closeAfterAll();

const PASSWORD = "ca-Config-Pass-7";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Each managed resource's recorded tls, inputs and outputs, and its whole entry as JSON. */
async function recorded(s: RealStack) {
  const exported = await s.mustRun("export");
  const entries = stateResources(exported.state).filter((r) =>
    r.type.startsWith("pulumi-nodejs:dynamic/arcgis-admin:"),
  );
  return Object.fromEntries(
    entries.map((r) => {
      const entry = r as unknown as {
        inputs: { tls?: unknown };
        outputs: { tls?: unknown };
      };
      const name = r.urn.split("::").pop()!;
      return [
        name,
        { inputs: entry.inputs.tls, outputs: entry.outputs.tls, json: JSON.stringify(r) },
      ];
    }),
  );
}

function logLevelOf(emu: TestEmulator): Promise<string> {
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    tls: { caCert: emu.caCert! },
  });
  return getLogSettings(session).then((s) => String(s.logLevel));
}

it("records the key and the digest, never the certificate; the certificate itself before is no change; another under the key updates state only; refresh and destroy read the recorded config", async () => {
  const emu = await emulator({ createDelayMs: 0 });
  const pem = emu.caCert!;
  const s = await stack("ca-config", "ca-config-program.cjs");
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: emu.adminUrl },
    sitePassword: { value: PASSWORD, secret: true },
    caCert: { value: pem },
    "arcgis-admin:caCert": { value: pem },
    logsInline: { value: "true" },
  };

  // The Site names arcgis-admin:caCert; the LogSettings gives the certificate itself.
  await s.mustRun("up", { config });
  const before = await logLevelOf(emu);
  expect(before).toBe("DEBUG");
  let state = await recorded(s);
  const siteByKey = { caCertConfig: "arcgis-admin:caCert", caCertSha256: sha256(pem) };
  expect(state["site"]!.inputs).toEqual(siteByKey);
  expect(state["site"]!.outputs).toEqual(siteByKey);
  expect(state["site"]!.json).not.toContain("BEGIN CERTIFICATE");
  expect(JSON.stringify(state["logs"]!.inputs)).toContain("ciphertext");

  // The same certificate by key: no change, and nothing sent.
  const sentBefore = emu.requestLog().length;
  const byKey = await s.mustRun("up", {
    config: { ...config, logsInline: { value: "false" } },
    options: { expectNoChanges: true },
  });
  expect(byKey.changeSummary).toEqual({ same: 3 });
  expect(emu.requestLog().length).toBe(sentBefore);
  state = await recorded(s);
  expect(state["logs"]!.inputs).toEqual({ caCertConfig: "caCert", caCertSha256: sha256(pem) });

  // Another certificate text under the key (the same CA, one more line): an update of state only.
  const another = `${pem.trimEnd()}\n\n`;
  const changed = await s.mustRun("up", {
    config: { ...config, logsInline: { value: "false" }, caCert: { value: another } },
  });
  expect(changed.changeSummary).toEqual({ update: 1, same: 2 });
  state = await recorded(s);
  const logsByKey = { caCertConfig: "caCert", caCertSha256: sha256(another) };
  expect(state["logs"]!.inputs).toEqual(logsByKey);
  expect(state["logs"]!.outputs).toEqual(logsByKey);
  expect(state["logs"]!.json).not.toContain("BEGIN CERTIFICATE");

  // The keys removed from the stack's config: refresh and destroy use what the last up recorded.
  for (const key of ["caCert", "arcgis-admin:caCert"]) {
    expect((await s.cli(["config", "rm", key])).code).toBe(0);
  }
  // The program's next preview is refused, naming the key, before any request.
  const sentBeforePreview = emu.requestLog().length;
  const preview = await s.run("preview");
  expect(preview.ok).toBe(false);
  expect(preview.output).toMatch(/tls\.caCertConfig names stack config "(arcgis-admin:)?caCert"/);
  expect(preview.output).not.toContain("BEGIN CERTIFICATE");
  expect(emu.requestLog().length).toBe(sentBeforePreview);
  const refreshed = await s.mustRun("refresh");
  expect(refreshed.changeSummary).toEqual({ same: 3 });
  const writesBefore = emu.requestLog().filter((r) => r.method === "POST").length;
  await s.mustRun("destroy");
  // restoreOnDestroy put back the level the server had before the stack wrote DEBUG.
  expect(emu.requestLog().filter((r) => r.method === "POST").length).toBeGreaterThan(writesBefore);
  expect(await logLevelOf(emu)).not.toBe("DEBUG");
});
