import { promises as fs } from "node:fs";
import path from "node:path";
import { MAX_BODY_BYTES } from "../../emulator";
import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";

describe("the request size limit", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
  });
  afterAll(async () => {
    await h.close();
  });

  it("is 1 MiB", () => {
    expect(MAX_BODY_BYTES).toBe(1024 * 1024);
  });

  it("answers a larger body with a JSON error in the admin format, and keeps serving", async () => {
    const big = "x".repeat(MAX_BODY_BYTES);
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, directories: big });
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe("error");
    expect(answer.json.code).toBe(413);
    expect(answer.json.messages.join(" ")).toContain(String(MAX_BODY_BYTES));
    expect((await h.adminGet("/?f=json")).json.messages.join(" ")).toContain("not participating");
    expect(h.emu.stats().createNewSiteRequests).toBe(0);
  });

  it("answers a larger body with a JSON error in the sharing format", async () => {
    const answer = await h.sharing("generateToken", {
      username: "a",
      password: "y".repeat(MAX_BODY_BYTES),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.error.code).toBe(413);
  });

  it("accepts a body just under the limit", async () => {
    const filler = "z".repeat(MAX_BODY_BYTES - 200);
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, description: filler });
    expect(answer.json.status).toBe("success");
  });
});

describe("request decoding and formats", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ createDelayMs: 0 });
  });
  afterAll(async () => {
    await h.close();
  });

  it("accepts multipart/form-data bodies", async () => {
    const boundary = "----emulatorboundary";
    const part = (name: string, value: string): string =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = `${part("username", SITE_ADMIN.username)}${part("password", SITE_ADMIN.password)}${part("f", "json")}--${boundary}--\r\n`;
    const answer = await send(h.agent, "POST", `${h.emu.adminUrl}/createNewSite`, {
      body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(answer.json).toEqual({ status: "success" });
  });

  it("refuses an unsupported f in the API's error format", async () => {
    expect((await h.adminGet("/?f=xml")).json).toMatchObject({ status: "error", code: 400 });
    expect((await h.sharingGet("/portals/self?f=xml")).json.error.code).toBe(400);
  });

  it("answers HTTP 404 outside the emulated APIs", async () => {
    const answer = await send(h.agent, "GET", h.emu.adminUrl.replace("/arcgis/admin", "/nowhere"));
    expect(answer.status).toBe(404);
  });

  it("serves /arcgis/rest/info without a token", async () => {
    const answer = await send(
      h.agent,
      "GET",
      h.emu.adminUrl.replace("/admin", "/rest/info?f=json"),
    );
    expect(answer.json.currentVersion).toBeGreaterThan(10.8);
    expect(answer.json.authInfo.isTokenBasedSecurity).toBe(true);
  });
});

describe("an internal error", () => {
  it("answers a JSON error in the API's format, without a stack trace", async () => {
    const lines: string[] = [];
    const h = await Harness.start({
      createDelayMs: 0,
      quiet: false,
      log: (line) => lines.push(line),
    });
    try {
      await h.createSite();
      const token = await h.adminToken();
      // Without its data dir the emulator cannot write its state.
      await fs.rm(h.dataDir, { recursive: true, force: true });
      const answer = await h.admin("logs/settings/edit", { token, logLevel: "SEVERE" });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        status: "error",
        code: 500,
        messages: ["Internal error in the emulator; see its log for details."],
      });
      expect(answer.text).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
      expect(lines.some((line) => line.includes("internal error"))).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe("the request log and the control endpoints", () => {
  let h: Harness;
  const lines: string[] = [];
  beforeAll(async () => {
    h = await Harness.start({
      createDelayMs: 0,
      exportDelayMs: 0,
      quiet: false,
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it("records each request line (method, path and query as received), never a body, in memory and in requests.log", async () => {
    await h.createSite();
    const token = await h.adminToken();
    await h.adminGet(`/machines?f=json&token=${token}`);
    const log = h.emu.requestLog();
    expect(log.map((e) => `${e.method} ${e.url}`)).toEqual([
      "POST /arcgis/admin/createNewSite",
      "POST /arcgis/admin/generateToken",
      `GET /arcgis/admin/machines?f=json&token=${token}`,
    ]);
    expect(Date.parse(log[0]!.at)).not.toBeNaN();
    // The file is appended through a stream: give the last line a moment to land.
    let file = "";
    for (let i = 0; i < 50 && file.trim().split("\n").length < log.length; i++) {
      file = await fs.readFile(path.join(h.dataDir, "requests.log"), "utf8");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const entries = file
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entries).toEqual(log);
    expect(file).not.toContain(SITE_ADMIN.password);
  });

  it("never writes a password or token to the log lines", () => {
    const token = h.emu
      .requestLog()
      .find((e) => e.url.includes("token="))!
      .url.split("token=")[1]!;
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain(SITE_ADMIN.password);
      expect(line).not.toContain(token);
    }
  });

  it("serves stats() and requestLog() at /__emulator/stats and /__emulator/requests, which are not logged themselves", async () => {
    const token = await h.adminToken();
    await h.admin("exportSite", { token });
    const stats = await send(h.agent, "GET", `${h.emu.controlUrl}/stats`);
    expect(stats.json).toEqual(h.emu.stats());
    expect(stats.json).toMatchObject({
      createNewSiteRequests: 1,
      sitesCreated: 1,
      exportsStarted: 1,
      exportsCompleted: 1,
    });
    const requests = await send(h.agent, "GET", `${h.emu.controlUrl}/requests`);
    expect(requests.json).toEqual(h.emu.requestLog());
    expect(requests.json.some((e: { url: string }) => e.url.startsWith("/__emulator"))).toBe(false);
  });

  it("POST /__emulator/fail-next-create makes the next creation fail with the message", async () => {
    const token = await h.adminToken();
    await h.admin("deleteSite", { token });
    const set = await send(h.agent, "POST", `${h.emu.controlUrl}/fail-next-create`, {
      form: { message: "Failed to create the site. Disk full." },
    });
    expect(set.json).toEqual({ success: true });
    const answer = await h.admin("createNewSite", SITE_ADMIN);
    expect(answer.json.messages).toEqual(["Failed to create the site. Disk full."]);
    expect((await h.adminGet("/?f=json")).json.messages.join(" ")).toContain("Disk full.");
  });
});
