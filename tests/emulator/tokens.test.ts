import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";

/**
 * The test process's CPU (emulators and client), in µs, for one generateToken of SITE_ADMIN with
 * `password` on each harness in turn.
 */
async function tokenRequestsCpu(harnesses: readonly Harness[], password: string): Promise<number> {
  const before = process.cpuUsage();
  for (const h of harnesses) {
    await h.admin("generateToken", { username: SITE_ADMIN.username, password });
  }
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const SEED = {
  portal: {
    id: "TOKENPORTAL01",
    users: [
      { username: "gisadmin", password: "Portal-Admin-Pass-1", role: "org_admin" as const },
      { username: "viewer", password: "Viewer-Pass-1", role: "org_user" as const },
    ],
    collaborations: [],
  },
};

describe("tokens", () => {
  let h: Harness;
  let adminToken: string;
  let portalToken: string;
  beforeAll(async () => {
    h = await Harness.start({ createDelayMs: 0, seed: SEED });
    await h.createSite();
  });
  beforeEach(async () => {
    adminToken = await h.adminToken();
    portalToken = await h.portalToken("gisadmin", "Portal-Admin-Pass-1");
  });
  afterAll(async () => {
    await h.close();
  });

  describe("on the admin API", () => {
    it("are required: 499 without one", async () => {
      expect((await h.adminGet("/machines?f=json")).json.code).toBe(499);
    });

    it("are accepted as a form field", async () => {
      const answer = await h.admin("machines", { token: adminToken });
      expect(answer.json.machines).toBeDefined();
    });

    it("are accepted as a query parameter", async () => {
      const answer = await h.adminGet(`/machines?f=json&token=${encodeURIComponent(adminToken)}`);
      expect(answer.json.machines).toBeDefined();
    });

    it("are accepted in the X-Esri-Authorization header", async () => {
      const answer = await h.adminGet("/machines?f=json", {
        "X-Esri-Authorization": `Bearer ${adminToken}`,
      });
      expect(answer.json.machines).toBeDefined();
    });

    it("are accepted in the Authorization bearer header", async () => {
      const answer = await h.adminGet("/machines?f=json", {
        Authorization: `Bearer ${adminToken}`,
      });
      expect(answer.json.machines).toBeDefined();
    });

    it("answer 498 'Invalid token.' for a forged or portal token", async () => {
      const forged = await h.adminGet("/machines?f=json", { Authorization: "Bearer not.a-token" });
      expect(forged.json).toEqual({ status: "error", code: 498, messages: ["Invalid token."] });
      const portal = await h.adminGet("/machines?f=json", {
        Authorization: `Bearer ${portalToken}`,
      });
      expect(portal.json.code).toBe(498);
    });

    it("cost one password check per password: a repeated generateToken runs no second scrypt, a wrong password still does", async () => {
      const cpuOf = (n: number, password: string) =>
        tokenRequestsCpu(
          Array.from({ length: n }, () => h),
          password,
        );
      // A wrong password is refused every time, each refusal paying a full scrypt run.
      const wrong = await h.admin("generateToken", {
        username: SITE_ADMIN.username,
        password: "not-the-password",
      });
      expect(wrong.json.messages).toEqual([
        "Unable to generate token. Invalid username or password.",
      ]);
      const refusals = await cpuOf(5, "not-the-password");
      const repeats = await cpuOf(20, SITE_ADMIN.password);
      // Twenty accepted calls cost less than five refused ones: without the kept proof each of
      // them would pay the scrypt too, four times the refusals' cost.
      expect(repeats).toBeLessThan(refusals * 1.5);
    });
  });

  describe("on the sharing API", () => {
    it("are required for community/self: 499 without one", async () => {
      const answer = await h.sharingGet("/community/self?f=json");
      expect(answer.json.error.code).toBe(499);
    });

    it("are accepted as a form field", async () => {
      const answer = await h.sharing("community/self", { token: portalToken });
      expect(answer.json.username).toBe("gisadmin");
    });

    it("are accepted as a query parameter", async () => {
      const answer = await h.sharingGet(
        `/community/self?f=json&token=${encodeURIComponent(portalToken)}`,
      );
      expect(answer.json.username).toBe("gisadmin");
    });

    it("are accepted in the X-Esri-Authorization header", async () => {
      const answer = await h.sharingGet("/community/self?f=json", {
        "X-Esri-Authorization": `Bearer ${portalToken}`,
      });
      expect(answer.json.username).toBe("gisadmin");
    });

    it("are accepted in the Authorization bearer header", async () => {
      const answer = await h.sharingGet("/community/self?f=json", {
        Authorization: `Bearer ${portalToken}`,
      });
      expect(answer.json.username).toBe("gisadmin");
    });

    it("answer 498 in the sharing format for an admin token", async () => {
      const answer = await h.sharingGet("/community/self?f=json", {
        Authorization: `Bearer ${adminToken}`,
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ error: { code: 498, message: "Invalid token.", details: [] } });
    });

    it("are issued with expires and ssl, and refused for bad credentials in the sharing format", async () => {
      const good = await h.sharing("generateToken", {
        username: "viewer",
        password: "Viewer-Pass-1",
      });
      expect(good.json).toMatchObject({ ssl: true });
      expect(good.json.expires).toBeGreaterThan(Date.now());
      const bad = await h.sharing("generateToken", { username: "viewer", password: "nope" });
      expect(bad.status).toBe(200);
      expect(bad.json.error).toMatchObject({ code: 400, message: "Unable to generate token." });
    });
  });

  describe("bound to a referer", () => {
    it("work with the same Referer and are rejected (498) with another Referer or none, on the admin API", async () => {
      const bound = await h.adminToken({
        client: "referer",
        referer: "https://deploy.example.com",
      });
      const call = (headers: Record<string, string>) =>
        h.adminGet("/machines?f=json", { "X-Esri-Authorization": `Bearer ${bound}`, ...headers });
      expect((await call({ Referer: "https://deploy.example.com" })).json.machines).toBeDefined();
      expect(
        (await call({ Referer: "https://deploy.example.com/app/page" })).json.machines,
      ).toBeDefined();
      expect((await call({ Referer: "https://evil.example.com" })).json.code).toBe(498);
      expect((await call({ Referer: "https://deploy.example.com.evil.net" })).json.code).toBe(498);
      expect((await call({})).json.code).toBe(498);
    });

    it("are rejected with another Referer on the sharing API", async () => {
      const bound = await h.portalToken("gisadmin", "Portal-Admin-Pass-1", {
        client: "referer",
        referer: "https://deploy.example.com",
      });
      const good = await h.sharingGet("/community/self?f=json", {
        Authorization: `Bearer ${bound}`,
        Referer: "https://deploy.example.com",
      });
      expect(good.json.username).toBe("gisadmin");
      const bad = await h.sharingGet("/community/self?f=json", {
        Authorization: `Bearer ${bound}`,
        Referer: "https://elsewhere.example.com",
      });
      expect(bad.json.error.code).toBe(498);
    });
  });

  it("bound to another client IP are rejected (498)", async () => {
    const bound = await h.adminToken({ client: "ip", ip: "10.20.30.40" });
    const answer = await h.adminGet("/machines?f=json", { Authorization: `Bearer ${bound}` });
    expect(answer.json.code).toBe(498);
    const own = await h.adminToken({ client: "requestip" });
    expect(
      (await h.adminGet("/machines?f=json", { Authorization: `Bearer ${own}` })).json.machines,
    ).toBeDefined();
  });

  it("all become expired (498) on both APIs after expireTokens(), and new ones work", async () => {
    await h.emu.expireTokens();
    expect(
      (await h.adminGet("/machines?f=json", { Authorization: `Bearer ${adminToken}` })).json.code,
    ).toBe(498);
    expect(
      (await h.sharingGet("/community/self?f=json", { Authorization: `Bearer ${portalToken}` }))
        .json.error.code,
    ).toBe(498);
    const fresh = await h.adminToken();
    expect(
      (await h.adminGet("/machines?f=json", { Authorization: `Bearer ${fresh}` })).json.machines,
    ).toBeDefined();
  });

  it("all become expired through POST /__emulator/expire-tokens", async () => {
    const answer = await send(h.agent, "POST", `${h.emu.controlUrl}/expire-tokens`);
    expect(answer.json).toEqual({ success: true });
    expect(
      (await h.adminGet("/machines?f=json", { Authorization: `Bearer ${adminToken}` })).json.code,
    ).toBe(498);
  });
});

describe("token lifetime", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("ends: a token past its expiry answers 498", async () => {
    h = await Harness.start({ createDelayMs: 0, tokenLifetimeMinutes: 0.005 });
    await h.createSite();
    const answer = await h.admin("generateToken", { ...SITE_ADMIN, expiration: "60" });
    expect(answer.json.expires - Date.now()).toBeLessThan(400);
    const token = answer.json.token as string;
    expect(
      (await h.adminGet("/machines?f=json", { Authorization: `Bearer ${token}` })).json.machines,
    ).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      (await h.adminGet("/machines?f=json", { Authorization: `Bearer ${token}` })).json.code,
    ).toBe(498);
  });
});

describe("password checks", () => {
  const started: Harness[] = [];
  afterAll(async () => {
    await Promise.all(started.map((h) => h.close()));
  });

  it("cost no scrypt for the first generateToken after createNewSite: the password was proven as it was hashed", async () => {
    for (let i = 0; i < 4; i++) {
      const h = await Harness.start({ createDelayMs: 0 });
      started.push(h);
      await h.createSite();
    }
    const cpuOf = (password: string) => tokenRequestsCpu(started, password);
    const firsts = await cpuOf(SITE_ADMIN.password);
    const refusals = await cpuOf("not-the-password");
    // Each refusal runs scrypt; each first token would too if createNewSite had not kept the proof.
    expect(firsts).toBeLessThan(refusals * 0.6);
  });
});
