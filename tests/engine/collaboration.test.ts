/**
 * Collaboration through Pulumi's real dynamic-provider host, from the packed package installed in
 * a consumer project's node_modules.
 */
import { createPortalSession } from "../../provider/client";
import {
  collaborationExists,
  portalSeed,
  SEED_PORTAL_ID,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import {
  findText,
  isSecret,
  unwrapSecrets,
  urn,
  type PropertyMap,
} from "../../tools/harness/property-values";
import {
  type Consumer,
  type Registration,
  consumerWithHost,
  closeAll,
  expectOurRegistration,
} from "../../tools/harness/consumer";
import { type Host, hostFailure } from "../../tools/harness/host-types";

const PORTAL_ID = SEED_PORTAL_ID;
const PASSWORD = "collab-Engine-Pw-5f8d";
const ADMIN = { username: "gisadmin", password: PASSWORD };
const URN = urn("partners");

/** A portal that hosts two collaborations and is a guest of a third. */
const seed = portalSeed([{ ...ADMIN, role: "org_admin" }]);

let emu: TestEmulator;
let consumer: Consumer;
let host: Host;
/** A portal token of the administrator, obtained before the program runs. */
let token: string;
let withPassword: Registration;
let withToken: Registration;
let checkedInputs: PropertyMap;
let checkedTokenInputs: PropertyMap;
let created: { id: string; properties: PropertyMap };
const errorTexts: string[] = [];

/** The user's program; `credentials` is the JS of the credential arguments. */
function program(credentials: string): string {
  return `
    const pulumi = require("@pulumi/pulumi");
    const { Collaboration } = require("pulumi-arcgis-admin");
    const config = new pulumi.Config("arcgis");
    new Collaboration("partners", {
      sharingUrl: ${JSON.stringify(emu.sharingUrl)},
      collaborationId: "hosted1",
      ${credentials}
      tls: { caCert: ${JSON.stringify(emu.caCert)} },
    });
  `;
}

/** Whether the collaboration still exists on the emulated portal. */
const exists = (id: string) => collaborationExists(emu, ADMIN, id, PORTAL_ID);

beforeAll(async () => {
  emu = await startTestEmulator({ seed });
  token = await createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...ADMIN,
    tls: { caCert: emu.caCert! },
  }).token();
  ({ consumer, host } = await consumerWithHost());
  const passwordRegs = await consumer.runProgram(
    program(`username: "gisadmin", password: config.requireSecret("password"),`),
    { config: { "arcgis:password": PASSWORD } },
  );
  const tokenRegs = await consumer.runProgram(program(`token: config.requireSecret("token"),`), {
    config: { "arcgis:token": token },
  });
  expect(passwordRegs).toHaveLength(1);
  expect(tokenRegs).toHaveLength(1);
  withPassword = passwordRegs[0]!;
  withToken = tokenRegs[0]!;
}, 180_000);

afterAll(() => closeAll(host, consumer, emu));

describe("Collaboration in a user's program (setMocks)", () => {
  it("registers one dynamic resource with the password as a secret and a small provider that loads the installed package by name", () => {
    expectOurRegistration(withPassword, {
      type: "pulumi-nodejs:dynamic/arcgis-admin:Collaboration",
      name: "partners",
      secretInputs: ["password"],
      secretOutputs: ["password", "token"],
      leaks: [PASSWORD, token],
    });
  });

  it("registers the token as a secret in the token variant", () => {
    expectOurRegistration(withToken, {
      type: "pulumi-nodejs:dynamic/arcgis-admin:Collaboration",
      name: "partners",
      secretInputs: ["token"],
      secretOutputs: ["password", "token"],
      leaks: [PASSWORD, token],
    });
    expect(withToken.inputs).not.toHaveProperty("password");
  });
});

describe("Collaboration through the dynamic-provider host", () => {
  it("checks the inputs and fills in the defaults", async () => {
    const result = await host.check(URN, {}, withPassword.inputs);
    expect(result.failures).toEqual([]);
    checkedInputs = result.inputs;
    expect(unwrapSecrets(checkedInputs)).toMatchObject({
      sharingUrl: emu.sharingUrl,
      collaborationId: "hosted1",
      username: "gisadmin",
      leaveAsGuest: false,
    });
    expect(isSecret(checkedInputs.password)).toBe(true);
  });

  it("accepts a token instead of username and password, keeping it secret", async () => {
    const result = await host.check(URN, {}, withToken.inputs);
    expect(result.failures).toEqual([]);
    checkedTokenInputs = result.inputs;
    expect(isSecret(checkedTokenInputs.token)).toBe(true);
    expect(checkedTokenInputs).not.toHaveProperty("password");
  });

  it("returns every check failure with its property path in the reason", async () => {
    const bad: PropertyMap = {
      ...withPassword.inputs,
      sharingUrl: "portal.example.com/portal/sharing/rest",
    };
    delete bad.username;
    delete bad.password;
    const result = await host.check(URN, {}, bad);
    // No `property`: the engine would print the input under that key, secrets in plain text.
    expect(result.failures.every((f) => f.property === "")).toBe(true);
    expect(result.failures.map((f) => f.reason.split(": ")[0]).sort()).toEqual([
      "password",
      "sharingUrl",
      "username",
    ]);
    const both = await host.check(
      URN,
      {},
      { ...withPassword.inputs, token: withToken.inputs.token! },
    );
    expect(both.failures).toEqual([
      { property: "", reason: "token: give either username and password, or a token, not both" },
    ]);
  });

  it("creates the resource as host, with outputs that survive the protobuf round trip", async () => {
    created = await host.create(URN, checkedInputs, {
      additionalSecretOutputs: ["password", "token"],
    });
    expect(created.id).toBe(`${PORTAL_ID}/hosted1`);
    expect(unwrapSecrets(created.properties)).toMatchObject({
      sharingUrl: emu.sharingUrl,
      collaborationId: "hosted1",
      username: "gisadmin",
      leaveAsGuest: false,
      portalId: PORTAL_ID,
      name: "Regional partners",
      description: "Shares basemaps with partners",
      hostPortalId: PORTAL_ID,
      role: "host",
    });
    expect(await exists("hosted1")).toBe(true);
  });

  it("keeps the password only under a key Pulumi marks secret", () => {
    const places = findText(created.properties, PASSWORD);
    expect(places.map((p) => p.path)).toEqual(["password"]);
    expect(places.every((p) => p.secret)).toBe(true);
  });

  it("reads the collaboration back on refresh", async () => {
    const read = await host.read(created.id, URN, created.properties, checkedInputs);
    expect(read.id).toBe(created.id);
    expect(unwrapSecrets(read.properties)).toMatchObject({
      name: "Regional partners",
      role: "host",
    });
  });

  it("replaces the resource when collaborationId changes", async () => {
    const news = { ...checkedInputs, collaborationId: "hosted2" };
    const diff = await host.diff(created.id, URN, created.properties, news);
    expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: ["collaborationId"] });
  });

  it("updates a switch from password to token in state, keeping every output", async () => {
    const diff = await host.diff(created.id, URN, created.properties, checkedTokenInputs);
    expect(diff.changes).toBe("DIFF_SOME");
    expect(diff.replaces).toEqual([]);
    const updated = await host.update(created.id, URN, created.properties, checkedTokenInputs, {
      additionalSecretOutputs: ["password", "token"],
    });
    const before = unwrapSecrets(created.properties);
    delete before.username;
    delete before.password;
    expect(unwrapSecrets(updated.properties)).toEqual({ ...before, token });
    const places = findText(updated.properties, token);
    expect(places.map((p) => p.path)).toEqual(["token"]);
    expect(places.every((p) => p.secret)).toBe(true);
    expect(findText(updated.properties, PASSWORD)).toEqual([]);
    expect(await exists("hosted1")).toBe(true);
    created = { id: created.id, properties: updated.properties };
  });

  it("refuses to create a guest collaboration without leaveAsGuest, and says what to do", async () => {
    const error = await hostFailure(
      host.create(urn("joined"), { ...checkedInputs, collaborationId: "joined1" }),
      errorTexts,
    );
    expect(error.message).toMatch(
      /^Portal HOSTPORTAL1 is a guest of the collaboration joined1 .*a guest cannot delete a collaboration.*leaveAsGuest: true.*removeParticipation/,
    );
    expect(await exists("joined1")).toBe(true);
  });

  it("deletes the collaboration on destroy", async () => {
    await host.delete(created.id, URN, created.properties);
    expect(await exists("hosted1")).toBe(false);
    expect(await exists("hosted2")).toBe(true);
    expect(emu.requestLog().some((r) => r.url.includes("/collaborations/hosted1/delete"))).toBe(
      true,
    );
  });

  it("succeeds when destroy runs again after the collaboration is gone", async () => {
    await expect(host.delete(created.id, URN, created.properties)).resolves.toBeUndefined();
    expect(host.stdout()).toContain("no longer exists; nothing to delete");
  });

  it("reports the collaboration as gone on refresh after delete", async () => {
    const read = await host.read(created.id, URN, created.properties, checkedTokenInputs);
    expect(read.id).toBe("");
  });

  it('takes portalId "self" as this portal: a hosted collaboration is deleted, even with leaveAsGuest', async () => {
    const SELF_URN = urn("self");
    const checked = await host.check(
      SELF_URN,
      {},
      {
        ...checkedInputs,
        collaborationId: "hosted2",
        portalId: "self",
        leaveAsGuest: true,
      },
    );
    expect(checked.failures).toEqual([]);
    const made = await host.create(SELF_URN, checked.inputs, {
      additionalSecretOutputs: ["password", "token"],
    });
    expect(made.id).toBe(`${PORTAL_ID}/hosted2`);
    expect(unwrapSecrets(made.properties)).toMatchObject({ portalId: PORTAL_ID, role: "host" });
    await host.delete(made.id, SELF_URN, made.properties);
    expect(await exists("hosted2")).toBe(false);
    const log = emu.requestLog();
    expect(log.some((r) => r.url.includes("/collaborations/hosted2/delete"))).toBe(true);
    expect(log.some((r) => r.url.includes("/hosted2/removeParticipation"))).toBe(false);
  });

  it("never prints the password or the token, nor puts them in an error or a URL", () => {
    expect(errorTexts.length).toBeGreaterThan(0);
    for (const value of [PASSWORD, token]) {
      expect(host.stdout()).not.toContain(value);
      expect(host.stderr()).not.toContain(value);
      for (const text of errorTexts) expect(text).not.toContain(value);
      expect(emu.requestLog().some((r) => r.url.includes(value))).toBe(false);
    }
  });
});
