import {
  communitySelf,
  deleteCollaboration,
  getCollaboration,
  isNotFoundError,
  portalSelf,
  removeParticipation,
} from "../../provider/client";
import {
  COLLABORATION_ID,
  CollaborationAnswer,
  CollaborationDoesNotExistAnswer,
  CommunitySelfAnswer,
  GuestCannotDeleteAnswer,
  PORTAL_ID,
  PortalSelfAnswer,
  SHARING_URL,
  SharingNotConfirmedAnswer,
  SharingNotFoundAnswer,
  SharingSuccessAnswer,
} from "../../tools/harness/server-answers";
import {
  expectNoTokenInAnyUrl,
  failure,
  json,
  PORTAL_TOKEN,
  portalSessionSetup,
  recordedCalls,
  startsWith,
} from "../../tools/harness/mock-agent";

const SHARING_PATH = new URL(SHARING_URL).pathname;
const COLLAB_PATH = `${SHARING_PATH}/portals/${PORTAL_ID}/collaborations/${COLLABORATION_ID}`;
const TOKEN = PORTAL_TOKEN;

describe("portalSelf()", () => {
  it("GETs portals/self and returns its id and name", async () => {
    const { agent, pool, session } = portalSessionSetup();
    pool
      .intercept({ path: startsWith(`${SHARING_PATH}/portals/self`), method: "GET" })
      .reply(200, PortalSelfAnswer, json);
    await expect(portalSelf(session)).resolves.toEqual({
      id: PORTAL_ID,
      name: "Example Portal",
      raw: PortalSelfAnswer,
    });
    expectNoTokenInAnyUrl(agent, [TOKEN]);
  });

  it("reports an answer without id as BAD_RESPONSE", async () => {
    const { pool, session } = portalSessionSetup();
    pool
      .intercept({ path: startsWith(`${SHARING_PATH}/portals/self`) })
      .reply(200, { name: "x" }, json);
    await expect(portalSelf(session)).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });
});

describe("communitySelf()", () => {
  it("GETs community/self and returns username, role and privileges", async () => {
    const { pool, session } = portalSessionSetup();
    pool
      .intercept({ path: startsWith(`${SHARING_PATH}/community/self`), method: "GET" })
      .reply(200, CommunitySelfAnswer, json);
    const me = await communitySelf(session);
    expect(me).toMatchObject({
      username: "portaladmin",
      role: "org_admin",
      privileges: CommunitySelfAnswer.privileges,
    });
  });
});

describe("getCollaboration()", () => {
  it("GETs the collaboration and keeps fields it does not know", async () => {
    const { pool, session, calls } = portalSessionSetup();
    pool
      .intercept({ path: startsWith(COLLAB_PATH), method: "GET" })
      .reply(200, CollaborationAnswer, json);
    await expect(getCollaboration(session, PORTAL_ID, COLLABORATION_ID)).resolves.toEqual(
      CollaborationAnswer,
    );
    expect(calls(COLLAB_PATH)[0]!.headers["x-esri-authorization"]).toBe(`Bearer ${TOKEN}`);
  });

  it("URL-encodes the ids in the path", async () => {
    const { pool, session, agent } = portalSessionSetup();
    pool
      .intercept({ path: startsWith(`${SHARING_PATH}/portals/a%2Fb/collaborations/c%20d`) })
      .reply(200, { ...CollaborationAnswer, id: "c d" }, json);
    await getCollaboration(session, "a/b", "c d");
    expect(recordedCalls(agent).at(-1)!.path).toBe(
      `${SHARING_PATH}/portals/a%2Fb/collaborations/c%20d`,
    );
  });

  it.each([
    ["a 400 saying it does not exist", CollaborationDoesNotExistAnswer],
    ["a 404", SharingNotFoundAnswer],
  ])("fails with a not-found error on %s", async (_name, answer) => {
    const { pool, session } = portalSessionSetup();
    pool.intercept({ path: startsWith(COLLAB_PATH) }).reply(200, answer, json);
    const e = await failure(getCollaboration(session, PORTAL_ID, COLLABORATION_ID));
    expect(isNotFoundError(e)).toBe(true);
    expect(e.message).toMatch(/^getCollaboration on /);
  });

  it("does not call a permission error 'not found'", async () => {
    const { pool, session } = portalSessionSetup();
    pool.intercept({ path: startsWith(COLLAB_PATH) }).reply(200, GuestCannotDeleteAnswer, json);
    const e = await failure(getCollaboration(session, PORTAL_ID, COLLABORATION_ID));
    expect(isNotFoundError(e)).toBe(false);
    expect(e.code).toBe("AUTH");
  });
});

describe.each([
  ["deleteCollaboration()", deleteCollaboration, "delete"],
  ["removeParticipation()", removeParticipation, "removeParticipation"],
] as const)("%s", (_name, operation, action) => {
  const path = `${COLLAB_PATH}/${action}`;

  it(`POSTs .../collaborations/<id>/${action} with the token in the body`, async () => {
    const { agent, pool, session, calls } = portalSessionSetup();
    pool.intercept({ path, method: "POST" }).reply(200, SharingSuccessAnswer, json);
    await expect(operation(session, PORTAL_ID, COLLABORATION_ID)).resolves.toEqual(
      SharingSuccessAnswer,
    );
    expect(calls(path)[0]!.form).toEqual({ f: "json", token: TOKEN });
    expectNoTokenInAnyUrl(agent, [TOKEN]);
  });

  it("requires success: true", async () => {
    const { pool, session } = portalSessionSetup();
    pool.intercept({ path, method: "POST" }).reply(200, SharingNotConfirmedAnswer, json);
    pool.intercept({ path, method: "POST" }).reply(200, { status: "done" }, json);
    await expect(operation(session, PORTAL_ID, COLLABORATION_ID)).rejects.toMatchObject({
      code: "SERVER",
    });
    await expect(operation(session, PORTAL_ID, COLLABORATION_ID)).rejects.toMatchObject({
      code: "BAD_RESPONSE",
    });
  });

  it("reports the sharing error of a guest calling it", async () => {
    const { pool, session } = portalSessionSetup();
    pool.intercept({ path, method: "POST" }).reply(200, GuestCannotDeleteAnswer, json);
    await expect(operation(session, PORTAL_ID, COLLABORATION_ID)).rejects.toMatchObject({
      code: "AUTH",
      serverCode: 403,
    });
  });

  it("is never re-sent on 502", async () => {
    const { pool, session, calls } = portalSessionSetup();
    pool.intercept({ path, method: "POST" }).reply(502, "").times(3);
    await failure(operation(session, PORTAL_ID, COLLABORATION_ID));
    expect(calls(path)).toHaveLength(1);
  });
});
