/**
 * The stack config the real-engine tests set (tools/harness/real-stack.ts): plain values are
 * written into the stack's settings file as a user edits it, without a CLI run, and the CLI reads
 * each back as given (a multi-line PEM, quotes and colons too); a secret set through the CLI
 * (its value on stdin) stays encrypted and readable when plain values change after it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROJECT, prepareConsumer } from "../../tools/harness/host";
import { RealStack, type ConfigValue } from "../../tools/harness/real-stack";

jest.setTimeout(120_000);

const SECRET = "stack-Config-Secret-1";
const PEM = "-----BEGIN CERTIFICATE-----\nMIIBfake\nline two\n-----END CERTIFICATE-----\n";

let stack: RealStack;

beforeAll(async () => {
  // No program runs here: a consumer project without the package is enough.
  stack = await RealStack.create("config", await prepareConsumer({ includeSelf: false }));
});

afterAll(async () => {
  await stack?.cleanup();
});

/** What `pulumi config --json` shows: each key's value, or that it is a secret. */
async function shownConfig(config: Record<string, ConfigValue>) {
  const shown = await stack.cli(["config", "--json"], { config });
  expect(shown.code).toBe(0);
  return JSON.parse(shown.stdout) as Record<string, { value?: string; secret: boolean }>;
}

it("writes plain values into the settings file, which the CLI reads back as given", async () => {
  const first = await shownConfig({
    caCert: { value: PEM },
    "arcgis-admin:adminUrl": { value: "https://127.0.0.1:1/arcgis/admin" },
    odd: { value: `a "quoted" \\ value: with colons` },
    token: { value: SECRET, secret: true },
  });
  expect(first).toMatchObject({
    [`${PROJECT}:caCert`]: { value: PEM, secret: false },
    "arcgis-admin:adminUrl": { value: "https://127.0.0.1:1/arcgis/admin", secret: false },
    [`${PROJECT}:odd`]: { value: `a "quoted" \\ value: with colons`, secret: false },
    [`${PROJECT}:token`]: { secret: true },
  });

  // A plain change after the secret: written into the file (the CLI writes its keys unquoted).
  const settings = path.join(stack.projectDir, "Pulumi.config.yaml");
  const second = await shownConfig({ caCert: { value: "one line" }, added: { value: "true" } });
  const text = fs.readFileSync(settings, "utf8");
  expect(text).toContain(`"${PROJECT}:caCert": "one line"`);
  expect(text).toContain(`"${PROJECT}:added": "true"`);
  expect(text).not.toContain("MIIBfake");
  expect(text.includes(SECRET)).toBe(false);
  expect(second).toMatchObject({
    [`${PROJECT}:caCert`]: { value: "one line", secret: false },
    [`${PROJECT}:added`]: { value: "true", secret: false },
    [`${PROJECT}:odd`]: { value: `a "quoted" \\ value: with colons`, secret: false },
    [`${PROJECT}:token`]: { secret: true },
  });
  // The secret's ciphertext was kept as the CLI wrote it: the CLI still decrypts it.
  const got = await stack.cli(["config", "get", "token"]);
  expect(got.code).toBe(0);
  expect(got.stdout.trim() === SECRET).toBe(true);
});
