import * as pulumi from "@pulumi/pulumi";
import { createPortalSession, deleteCollaboration } from "../../provider/client";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import type { CollaborationOutputs } from "../../provider/resources/collaboration/generated";
import {
  collaborationExists,
  portalSeed,
  SEED_PORTAL_ID,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";

const PORTAL_ID = SEED_PORTAL_ID;
const ADMIN = { username: "gisadmin", password: "portal-Admin-1" };
const VIEWER = { username: "viewer", password: "portal-User-1" };

/** A portal that hosts two collaborations and is a guest of a third. */
const seed = () =>
  portalSeed([
    { ...ADMIN, role: "org_admin" },
    { ...VIEWER, role: "org_user" },
  ]);

async function checked(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await collaboration.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

describe("Collaboration check()", () => {
  const base = {
    sharingUrl: "https://portal.example.com/portal/sharing/rest",
    collaborationId: "c1",
  };

  it("accepts username and password, or a token", async () => {
    expect(await checked({ ...base, ...ADMIN })).toMatchObject({ leaveAsGuest: false });
    await checked({ ...base, token: "abc" });
  });

  it("asks for credentials when none are given, naming both fields", async () => {
    const result = await collaboration.check({}, base);
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual(["password", "username"]);
  });

  it("rejects a token together with a password", async () => {
    const result = await collaboration.check({}, { ...base, ...ADMIN, token: "abc" });
    expect(result.failures).toEqual([
      { property: "token", reason: "give either username and password, or a token, not both" },
    ]);
  });
});

describe("Collaboration diff()", () => {
  const olds: CollaborationOutputs = {
    sharingUrl: "https://portal.example.com/portal/sharing/rest",
    collaborationId: "c1",
    ...ADMIN,
    leaveAsGuest: false,
    deleteAdoptedOnDestroy: false,
    portalId: PORTAL_ID,
    portalIdGiven: false,
    name: "n",
    description: "d",
    hostPortalId: PORTAL_ID,
    role: "host",
  };
  const news = {
    sharingUrl: olds.sharingUrl,
    collaborationId: "c1",
    ...ADMIN,
    leaveAsGuest: false,
  };

  it("does not count a looked-up portalId as a change", async () => {
    expect(await collaboration.diff("id", olds, news)).toEqual({ changes: false });
  });

  it("replaces on collaborationId, sharingUrl or portalId changes", async () => {
    expect(await collaboration.diff("id", olds, { ...news, collaborationId: "c2" })).toEqual({
      changes: true,
      replaces: ["collaborationId"],
    });
    expect(await collaboration.diff("id", olds, { ...news, portalId: "OTHER" })).toEqual({
      changes: true,
      replaces: ["portalId"],
    });
  });

  it("updates credentials in state only, keeping every output", async () => {
    const next = { ...news, password: "new-Password-3" };
    expect(await collaboration.diff("id", olds, next)).toEqual({ changes: true });
    const { outs } = await collaboration.update("id", olds, next);
    expect(outs).toEqual({ ...olds, password: "new-Password-3" });
  });
});

describe("Collaboration against the emulator", () => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await startTestEmulator({ seed: seed() });
  });
  afterEach(async () => {
    await emu.close();
  });

  const inputs = (extra: Record<string, unknown> = {}) =>
    checked({
      sharingUrl: emu.sharingUrl,
      collaborationId: "hosted1",
      ...ADMIN,
      tls: { caCert: emu.caCert },
      ...extra,
    });

  const exists = (id: string) => collaborationExists(emu, ADMIN, id, PORTAL_ID);

  it("records the collaboration as host, with the portal id from portals/self", async () => {
    const { id, outs } = await collaboration.create(await inputs());
    expect(id).toBe(`${PORTAL_ID}/hosted1`);
    expect(outs).toMatchObject({
      portalId: PORTAL_ID,
      portalIdGiven: false,
      name: "Regional partners",
      description: "Shares basemaps with partners",
      hostPortalId: PORTAL_ID,
      role: "host",
    });
  });

  it("deletes it as host on destroy, and a second destroy succeeds", async () => {
    const { id, outs } = await collaboration.create(await inputs());
    await collaboration.delete(id, outs);
    expect(await exists("hosted1")).toBe(false);
    expect(await exists("hosted2")).toBe(true);
    await expect(collaboration.delete(id, outs)).resolves.toBeUndefined();
    expect(await collaboration.read(id, outs)).toEqual({});
  });

  it("refresh reports what the portal has now, naming each change made behind the stack's back", async () => {
    const { id, outs } = await collaboration.create(await inputs({ leaveAsGuest: false }));
    const warnings: string[] = [];
    const spy = jest.spyOn(pulumi.log, "warn").mockImplementation(async (message: string) => {
      warnings.push(message);
    });
    try {
      // Out of band, through the portal's API: the collaboration is now hosted elsewhere, renamed.
      const session = createPortalSession({
        sharingUrl: emu.sharingUrl,
        ...ADMIN,
        tls: { caCert: emu.caCert! },
      });
      await deleteCollaboration(session, PORTAL_ID, "hosted1");
      await session.call(`portals/${PORTAL_ID}/createCollaboration`, {
        id: "hosted1",
        name: "Renamed",
        hostPortalId: "OTHERPORTAL9",
        guestPortalIds: PORTAL_ID,
      });
      const now = (await collaboration.read(id, outs)).props as CollaborationOutputs;
      expect(now).toMatchObject({ name: "Renamed", hostPortalId: "OTHERPORTAL9", role: "guest" });
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/changed on the portal: name: ".+" in state, "Renamed" now\.$/),
          expect.stringMatching(/changed on the portal: role: "host" in state, "guest" now\.$/),
          expect.stringContaining("is no longer the host"),
        ]),
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('resolves portalId: "self" to the portal\'s own id: a hosted collaboration stays host', async () => {
    const { id, outs } = await collaboration.create(await inputs({ portalId: "self" }));
    expect(id).toBe(`${PORTAL_ID}/hosted1`);
    expect(outs).toMatchObject({ portalId: PORTAL_ID, portalIdGiven: false, role: "host" });
    // "self" again, or leaving it out, is no change; another portal's id is.
    const news = {
      sharingUrl: emu.sharingUrl,
      collaborationId: "hosted1",
      ...ADMIN,
      leaveAsGuest: false,
      tls: { caCert: emu.caCert },
    };
    expect(await collaboration.diff(id, outs, { ...news, portalId: "self" })).toEqual({
      changes: false,
    });
    expect(await collaboration.diff(id, outs, news)).toEqual({ changes: false });
    expect(await collaboration.diff(id, outs, { ...news, portalId: "OTHER1" })).toMatchObject({
      replaces: ["portalId"],
    });
  });

  it('deletes (not leaves) a hosted collaboration given as portalId: "self" with leaveAsGuest', async () => {
    const { id, outs } = await collaboration.create(
      await inputs({ portalId: "self", leaveAsGuest: true }),
    );
    expect(outs.role).toBe("host");
    await collaboration.delete(id, outs);
    expect(await exists("hosted1")).toBe(false);
    expect(emu.requestLog().some((r) => r.url.includes("/hosted1/delete"))).toBe(true);
    expect(emu.requestLog().some((r) => r.url.includes("/hosted1/removeParticipation"))).toBe(
      false,
    );
  });

  it("decides the role by the portal's own id, not by a given portalId", async () => {
    // The guest portal's view of a collaboration hosted elsewhere, looked up under its own id.
    const { outs } = await collaboration.create(
      await inputs({ collaborationId: "joined1", portalId: PORTAL_ID, leaveAsGuest: true }),
    );
    expect(outs).toMatchObject({ portalId: PORTAL_ID, portalIdGiven: true, role: "guest" });
  });

  it("refuses a guest collaboration without leaveAsGuest, and says what to do", async () => {
    await expect(
      collaboration.create(await inputs({ collaborationId: "joined1" })),
    ).rejects.toThrow(
      /guest cannot delete a collaboration.*leaveAsGuest: true.*removeParticipation/,
    );
  });

  it("leaves a guest collaboration on destroy with leaveAsGuest", async () => {
    const { id, outs } = await collaboration.create(
      await inputs({ collaborationId: "joined1", leaveAsGuest: true }),
    );
    expect(outs.role).toBe("guest");
    await collaboration.delete(id, outs);
    expect(await exists("joined1")).toBe(false);
    expect(emu.requestLog().some((r) => r.url.includes("/joined1/removeParticipation"))).toBe(true);
    expect(emu.requestLog().some((r) => r.url.includes("/joined1/delete"))).toBe(false);
  });

  it("rejects credentials that are not an administrator's", async () => {
    await expect(collaboration.create(await inputs({ ...VIEWER }))).rejects.toThrow(
      /viewer .* not an administrator's \(role org_user\)/,
    );
  });

  it("reports a collaboration that does not exist", async () => {
    await expect(collaboration.create(await inputs({ collaborationId: "nope" }))).rejects.toThrow(
      /collaboration nope on portal HOSTPORTAL1 .* does not exist/,
    );
  });

  it("works with a token instead of a password", async () => {
    const session = createPortalSession({
      sharingUrl: emu.sharingUrl,
      ...ADMIN,
      tls: { caCert: emu.caCert! },
    });
    const token = await session.token();
    const { id, outs } = await collaboration.create(
      await checked({
        sharingUrl: emu.sharingUrl,
        collaborationId: "hosted2",
        token,
        tls: { caCert: emu.caCert },
      }),
    );
    await collaboration.delete(id, outs);
    expect(await exists("hosted2")).toBe(false);
  });

  it("keeps the collaboration in state when the delete fails for another reason", async () => {
    const { id, outs } = await collaboration.create(await inputs());
    const broken = { ...outs, password: "wrong-Password-0" };
    await expect(collaboration.delete(id, broken)).rejects.toThrow(/failed.*stays in the stack/);
    expect(await exists("hosted1")).toBe(true);
  });
});
