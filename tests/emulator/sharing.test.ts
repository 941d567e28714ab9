import { DEFAULT_PORTAL_ADMIN } from "../../emulator";
import { Harness } from "../../tools/harness/emulator-http";

const PORTAL = "HOSTPORTAL0001";
const OTHER = "OTHERPORTAL002";
const hosted = Array.from({ length: 12 }, (_, i) => ({
  id: `host-collab-${String(i + 1).padStart(2, "0")}`,
  name: `Hosted ${i + 1}`,
  description: "",
  hostPortalId: PORTAL,
  guestPortalIds: [OTHER],
}));
const SEED = {
  portal: {
    id: PORTAL,
    name: "Seeded Portal",
    users: [
      { username: "gisadmin", password: "Portal-Admin-Pass-1", role: "org_admin" as const },
      { username: "viewer", password: "Viewer-Pass-1", role: "org_user" as const },
    ],
    collaborations: [
      ...hosted,
      {
        id: "guest-collab",
        name: "Hosted elsewhere",
        description: "We are a guest",
        hostPortalId: OTHER,
        guestPortalIds: [PORTAL],
      },
    ],
  },
};

describe("the portal sharing API", () => {
  let h: Harness;
  let admin: string;
  let viewer: string;
  const base = `portals/${PORTAL}/collaborations`;
  beforeEach(async () => {
    h = await Harness.start({ seed: SEED });
    admin = await h.portalToken("gisadmin", "Portal-Admin-Pass-1");
    viewer = await h.portalToken("viewer", "Viewer-Pass-1");
  });
  afterEach(async () => {
    await h.close();
  });

  it("portals/self gives the portal's id anonymously, and the user with a token", async () => {
    const anonymous = await h.sharingGet("/portals/self?f=json");
    expect(anonymous.json).toMatchObject({ id: PORTAL, name: "Seeded Portal" });
    expect(anonymous.json.user).toBeUndefined();
    const signedIn = await h.sharingGet(`/portals/self?f=json&token=${admin}`);
    expect(signedIn.json.user).toMatchObject({ username: "gisadmin", role: "org_admin" });
    expect(h.emu.portalId).toBe(PORTAL);
  });

  it("community/self gives the user and its role", async () => {
    expect((await h.sharing("community/self", { token: viewer })).json).toMatchObject({
      username: "viewer",
      role: "org_user",
      orgId: PORTAL,
    });
  });

  it("lists collaborations in pages: 1-based start, num, total and nextStart (-1 at the end)", async () => {
    const first = await h.sharingGet(`/${base}?f=json&num=5&token=${admin}`);
    expect(first.json).toMatchObject({ total: 13, start: 1, num: 5, nextStart: 6 });
    expect(first.json.collaborations.map((c: { id: string }) => c.id)).toEqual(
      hosted.slice(0, 5).map((c) => c.id),
    );
    const last = await h.sharingGet(`/${base}?f=json&start=11&num=5&token=${admin}`);
    expect(last.json).toMatchObject({ total: 13, start: 11, num: 3, nextStart: -1 });
    const all = await h.sharingGet(`/${base}?f=json&num=100&token=${admin}`);
    expect(all.json.collaborations).toHaveLength(13);
    const defaults = await h.sharingGet(`/${base}?f=json&token=${admin}`);
    expect(defaults.json).toMatchObject({ num: 10, nextStart: 11 });
    const bad = await h.sharingGet(`/${base}?f=json&num=0&token=${admin}`);
    expect(bad.json.error.code).toBe(400);
  });

  it("describes a collaboration with collaborationHostPortalId", async () => {
    const info = await h.sharingGet(`/${base}/guest-collab?f=json&token=${admin}`);
    expect(info.json).toMatchObject({
      id: "guest-collab",
      name: "Hosted elsewhere",
      description: "We are a guest",
      collaborationHostPortalId: OTHER,
    });
    expect(typeof info.json.created).toBe("number");
  });

  it("delete by the host's admin answers success; the collaboration then leaves the list and its info answers not found", async () => {
    const answer = await h.sharing(`${base}/host-collab-03/delete`, { token: admin });
    expect(answer.json).toEqual({ success: true });
    const list = await h.sharingGet(`/${base}?f=json&num=100&token=${admin}`);
    expect(list.json.total).toBe(12);
    expect(list.json.collaborations.map((c: { id: string }) => c.id)).not.toContain(
      "host-collab-03",
    );
    const info = await h.sharingGet(`/${base}/host-collab-03?f=json&token=${admin}`);
    expect(info.status).toBe(200);
    expect(info.json.error).toMatchObject({
      code: 400,
      message: "Collaboration with id 'host-collab-03' does not exist.",
      messageCode: "COLLABORATION_NOT_FOUND",
    });
  });

  it("delete of an unknown id answers the not-found sharing error", async () => {
    const answer = await h.sharing(`${base}/no-such-collab/delete`, { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      error: {
        code: 400,
        message: "Collaboration with id 'no-such-collab' does not exist.",
        details: [],
        messageCode: "COLLABORATION_NOT_FOUND",
      },
    });
  });

  it("delete by a guest answers an error pointing at removeParticipation, and deletes nothing", async () => {
    const answer = await h.sharing(`${base}/guest-collab/delete`, { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.json.error.code).toBe(400);
    expect(answer.json.error.message).toContain("removeParticipation");
    expect(answer.json.error.messageCode).toBe("COLLABORATION_GUEST_CANNOT_DELETE");
    expect((await h.sharingGet(`/${base}/guest-collab?f=json&token=${admin}`)).json.id).toBe(
      "guest-collab",
    );
  });

  it("removeParticipation lets a guest leave, and refuses the host", async () => {
    const leave = await h.sharing(`${base}/guest-collab/removeParticipation`, { token: admin });
    expect(leave.json).toEqual({ success: true });
    expect(
      (await h.sharingGet(`/${base}/guest-collab?f=json&token=${admin}`)).json.error.code,
    ).toBe(400);
    const host = await h.sharing(`${base}/host-collab-01/removeParticipation`, { token: admin });
    expect(host.json.error.message).toContain("use delete");
    expect((await h.sharingGet(`/${base}/host-collab-01?f=json&token=${admin}`)).json.id).toBe(
      "host-collab-01",
    );
  });

  it("answers 403 to an org_user on every administrative operation", async () => {
    const attempts = [
      h.sharingGet(`/${base}?f=json&token=${viewer}`),
      h.sharingGet(`/${base}/host-collab-01?f=json&token=${viewer}`),
      h.sharing(`${base}/host-collab-01/delete`, { token: viewer }),
      h.sharing(`${base}/guest-collab/removeParticipation`, { token: viewer }),
      h.sharing(`portals/${PORTAL}/createCollaboration`, { token: viewer, name: "x" }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(200);
      expect(answer.json.error).toMatchObject({
        code: 403,
        message: "You do not have permissions to access this resource or perform this operation.",
      });
    }
    expect((await h.sharingGet(`/${base}?f=json&num=100&token=${admin}`)).json.total).toBe(13);
  });

  it("answers 499 without a token and 498 with a bad one on administrative operations", async () => {
    expect((await h.sharing(`${base}/host-collab-01/delete`)).json.error.code).toBe(499);
    expect(
      (await h.sharing(`${base}/host-collab-01/delete`, { token: "bogus" })).json.error.code,
    ).toBe(498);
  });

  it("createCollaboration (org admin) adds a collaboration as host or as guest", async () => {
    const created = await h.sharing(`portals/${PORTAL}/createCollaboration`, {
      token: admin,
      name: "Demo",
      description: "for a demo",
      guestPortalIds: JSON.stringify([OTHER]),
    });
    expect(created.json.success).toBe(true);
    const id = created.json.id as string;
    const info = await h.sharingGet(`/${base}/${id}?f=json&token=${admin}`);
    expect(info.json).toMatchObject({ name: "Demo", collaborationHostPortalId: PORTAL });

    const asGuest = await h.sharing(`portals/${PORTAL}/createCollaboration`, {
      token: admin,
      id: "demo-guest",
      name: "Guest demo",
      hostPortalId: OTHER,
      guestPortalIds: PORTAL,
    });
    expect(asGuest.json.id).toBe("demo-guest");
    expect(
      (await h.sharing(`${base}/demo-guest/delete`, { token: admin })).json.error.message,
    ).toContain("removeParticipation");
    const unrelated = await h.sharing(`portals/${PORTAL}/createCollaboration`, {
      token: admin,
      name: "Not ours",
      hostPortalId: OTHER,
      guestPortalIds: "THIRDPORTAL",
    });
    expect(unrelated.json.error.code).toBe(400);
  });

  it("refuses another portal's id, GET on delete, and unknown operations", async () => {
    const other = await h.sharingGet(`/portals/${OTHER}/collaborations?f=json&token=${admin}`);
    expect(other.json.error.messageCode).toBe("PORTAL_NOT_FOUND");
    const get = await h.sharingGet(`/${base}/host-collab-01/delete?f=json&token=${admin}`);
    expect(get.json.error.code).toBe(405);
    expect((await h.sharingGet(`/${base}/host-collab-01?f=json&token=${admin}`)).json.id).toBe(
      "host-collab-01",
    );
    const unknown = await h.sharingGet(`/portals/${PORTAL}/frobnicate?f=json&token=${admin}`);
    expect(unknown.json.error).toMatchObject({
      code: 404,
      message: "Could not find resource or operation 'frobnicate' on the system.",
    });
  });

  it("answers a minimal HTML page without f", async () => {
    const page = await h.sharingGet(`/portals/self`);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.text).toContain(PORTAL);
  });
});

describe("the portal without a seed", () => {
  it("has one org_admin with the documented default credentials and no collaborations", async () => {
    const h = await Harness.start();
    try {
      expect(DEFAULT_PORTAL_ADMIN).toEqual({
        username: "portaladmin",
        password: "emulator-Admin-1",
      });
      const token = await h.portalToken("portaladmin", "emulator-Admin-1");
      expect((await h.sharing("community/self", { token })).json.role).toBe("org_admin");
      const list = await h.sharingGet(
        `/portals/${h.emu.portalId}/collaborations?f=json&token=${token}`,
      );
      expect(list.json).toMatchObject({ total: 0, nextStart: -1, collaborations: [] });
    } finally {
      await h.close();
    }
  });

  it("refuses an invalid seed with a message naming the field", async () => {
    await expect(
      Harness.start({
        seed: {
          portal: {
            id: "P1",
            users: [{ username: "a", password: "b", role: "superuser" as never }],
          },
        },
      }),
    ).rejects.toThrow(/users\[0\]\.role|role/);
  });
});
