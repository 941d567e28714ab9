/**
 * Each product's dialect beyond what the conformance corpus replays: the other dialect's form
 * refused with a clear error in the product's own format, directory types per product and
 * version, booleans in any letter case, asynchronous creation, health checks, rest/info,
 * log settings and cloud config stores whose secrets are never kept.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { ServerType } from "../../emulator";
import { Harness, send, SITE_ADMIN, type Answer } from "../../tools/harness/emulator-http";

const CARBON_FS = {
  configPersistenceType: "FILESYSTEM",
  connectionString: "/gis/config-store",
  className: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
};
const CLASSIC_FS = { type: "FILESYSTEM", connectionString: "/gis/config-store" };

function carbonDirs(...types: string[]): string {
  return JSON.stringify(
    types.map((type) => ({ name: `arcgis${type.toLowerCase()}`, path: `/gis/${type}`, type })),
  );
}

function classicDirs(...types: string[]): string {
  return JSON.stringify({
    directories: types.map((directoryType, i) => ({
      name: `dir${i}`,
      physicalPath: `/gis/${i}`,
      directoryType,
    })),
  });
}

/** The error of a Mission, Notebook or Video Server answer: `error.code` and `error.message`. */
function carbonError(answer: Answer): { code: number; message: string } {
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.json as object)).toEqual(["error"]);
  return answer.json.error as { code: number; message: string };
}

async function withEmulator(
  serverType: ServerType,
  run: (h: Harness) => Promise<void>,
  extra: Parameters<typeof Harness.start>[0] = {},
): Promise<void> {
  const h = await Harness.start({ serverType, createDelayMs: 0, ...extra });
  try {
    await run(h);
  } finally {
    await h.close();
  }
}

describe("Mission, Notebook and Video Server refuse ArcGIS Server's form", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ serverType: "mission-server", createDelayMs: 0 });
  });
  afterAll(async () => {
    await h.close();
  });

  it.each([
    ["configStoreConnection", JSON.stringify(CLASSIC_FS), /"configPersistenceType"/],
    ["directories", classicDirs("SYSTEM"), /JSON array \[\{"name", "path", "type"\}/],
  ])(
    "%s in ArcGIS Server's form: code 400 in the error format, naming the form",
    async (name, value, says) => {
      const error = carbonError(await h.admin("createNewSite", { ...SITE_ADMIN, [name]: value }));
      expect(error.code).toBe(400);
      expect(error.message).toContain(name);
      expect(error.message).toMatch(says);
      expect(error.message).toContain("ArcGIS Server");
      expect(carbonError(await h.adminGet("/?f=json")).code).not.toBe(499);
    },
  );

  it("names a class that does not belong to the store type", async () => {
    const store = { ...CARBON_FS, configPersistenceType: "AZURE" };
    const error = carbonError(
      await h.admin("createNewSite", {
        ...SITE_ADMIN,
        configStoreConnection: JSON.stringify(store),
      }),
    );
    expect(error).toEqual({
      code: 400,
      message: expect.stringContaining(
        "'configStoreConnection.className': a AZURE store takes the class 'com.esri.arcgis.carbon.persistence.impl.azure.AzureConfigPersistence'",
      ),
    });
  });

  it("takes async in any letter case and refuses anything but true or false", async () => {
    const error = carbonError(await h.admin("createNewSite", { ...SITE_ADMIN, async: "maybe" }));
    expect(error).toEqual({ code: 400, message: expect.stringContaining("'async'") });
  });
});

describe("ArcGIS Server refuses the form of Mission, Notebook and Video Server", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ serverType: "arcgis-server", createDelayMs: 0 });
  });
  afterAll(async () => {
    await h.close();
  });

  it("a Carbon config store: code 400 naming its fields", async () => {
    const answer = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      configStoreConnection: JSON.stringify(CARBON_FS),
    });
    expect(answer.json).toMatchObject({ status: "error", code: 400 });
    expect(answer.json.messages.join(" ")).toMatch(/takes \{"type", "connectionString"\}/);
  });

  it("a bare directory array: the JSONObject parser's error, saying which form is expected", async () => {
    const answer = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      directories: carbonDirs("SYSTEM"),
    });
    expect(answer.json).toMatchObject({ status: "error", code: 500 });
    expect(answer.json.messages[0]).toMatch(/^A JSONObject text must begin with '\{'/);
    expect(answer.json.messages[0]).toContain('takes {"directories": [...]}');
  });

  it("async instead of runAsync", async () => {
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, async: "false" });
    expect(answer.json).toMatchObject({ status: "error", code: 400 });
    expect(answer.json.messages.join(" ")).toContain("takes 'runAsync'");
  });

  it("takes JOBS, OUTPUT, CACHE and exactly one SYSTEM", async () => {
    for (const dirs of [
      ["JOBS", "OUTPUT"],
      ["SYSTEM", "SYSTEM"],
      ["SYSTEM", "UPLOADS"],
    ]) {
      const answer = await h.admin("createNewSite", {
        ...SITE_ADMIN,
        directories: classicDirs(...dirs),
      });
      expect(answer.json).toMatchObject({ status: "error", code: 400 });
    }
    const ok = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      directories: classicDirs("CACHE", "JOBS", "OUTPUT", "SYSTEM"),
    });
    expect(ok.json).toEqual({ status: "success" });
  });
});

describe("directory types per product and version", () => {
  const cases: Array<[ServerType, string | undefined, string[], string[]]> = [
    ["mission-server", "11.3", ["OUTPUT", "SYSTEM", "JOBS"], ["WORKSPACE", "CACHE", "UPLOADS"]],
    ["mission-server", "10.8", ["WORKSPACE", "OUTPUT", "SYSTEM", "JOBS"], ["CACHE"]],
    ["notebook-server", undefined, ["OUTPUT", "WORKSPACE", "SYSTEM", "JOBS"], ["CACHE", "DATA"]],
    ["video-server", undefined, ["UPLOADS", "DATA"], ["OUTPUT", "SYSTEM", "WORKSPACE"]],
  ];
  it.each(cases)("%s %s takes %j and refuses %j", async (type, version, takes, refuses) => {
    await withEmulator(
      type,
      async (h) => {
        for (const refused of refuses) {
          const error = carbonError(
            await h.admin("createNewSite", {
              ...SITE_ADMIN,
              directories: carbonDirs(...takes.slice(1), refused),
            }),
          );
          expect(error.code).toBe(400);
          expect(error.message).toContain(`'directories[${takes.length - 1}].type'`);
          expect(error.message).toContain(takes.join(", "));
        }
        const ok = await h.admin("createNewSite", {
          ...SITE_ADMIN,
          directories: carbonDirs(...takes),
          async: "False",
        });
        expect(ok.json).toEqual({ status: "success" });
      },
      version === undefined ? {} : { serverVersion: version },
    );
  });

  it("a site created without directories gets the product's own", async () => {
    await withEmulator("video-server", async (h) => {
      await h.createSite();
      const token = await h.adminToken();
      const dirs = await h.adminGet(`/system/directories?f=json&token=${token}`);
      expect(dirs.json.directories.map((d: { type: string }) => d.type)).toEqual([
        "UPLOADS",
        "DATA",
      ]);
    });
  });
});

describe("asynchronous creation on Mission Server (async=true; no Esri tool asks for it)", () => {
  it("answers at once, then the admin root says code 503 in the error format until ready", async () => {
    await withEmulator(
      "mission-server",
      async (h) => {
        const answer = await h.admin("createNewSite", { ...SITE_ADMIN, async: "TRUE" });
        expect(answer.json).toMatchObject({ status: "success", async: true });
        const during = carbonError(await h.adminGet("/?f=json"));
        expect(during.code).toBe(503);
        expect(during.message).toMatch(/Site creation is in progress/);
        await h.emu.close();
      },
      { createDelayMs: 30_000 },
    );
  });
});

describe("health checks", () => {
  async function get(h: Harness, rest: string, headers: Record<string, string> = {}) {
    const origin = new URL(h.emu.adminUrl).origin;
    return send(h.agent, "GET", `${origin}/arcgis/rest/${rest}`, { headers });
  }

  it("Mission Server: rest/healthcheck and rest/info/healthcheck, HTTP 200, success false then true", async () => {
    await withEmulator("mission-server", async (h) => {
      expect(h.emu.healthUrl).toMatch(/\/arcgis\/rest\/healthcheck$/);
      for (const where of ["healthcheck?f=json", "info/healthcheck/?f=json"]) {
        const before = await get(h, where);
        expect([before.status, before.json]).toEqual([200, { success: false }]);
      }
      await h.createSite();
      for (const where of ["healthcheck?f=json", "info/healthcheck/?f=json"]) {
        const after = await get(h, where);
        expect([after.status, after.json]).toEqual([200, { success: true }]);
      }
      // ArcGIS Server's spelling is not Mission Server's.
      expect(carbonError(await get(h, "info/healthCheck?f=json")).code).toBe(404);
    });
  });

  it("Notebook Server: rest/info/healthcheck answers success as a string, from 10.9", async () => {
    await withEmulator("notebook-server", async (h) => {
      expect((await get(h, "info/healthcheck?f=json")).json).toEqual({ success: "false" });
      await h.createSite();
      expect((await get(h, "info/healthcheck?f=json")).json).toEqual({ success: "true" });
      expect(carbonError(await get(h, "healthcheck?f=json")).code).toBe(404);
    });
    await withEmulator(
      "notebook-server",
      async (h) => {
        expect(carbonError(await get(h, "info/healthcheck?f=json")).code).toBe(404);
      },
      { serverVersion: "10.8" },
    );
  });

  it("Video Server: rest/info/healthcheck needs a token once a site exists", async () => {
    await withEmulator("video-server", async (h) => {
      expect((await get(h, "info/healthcheck?f=json")).json).toEqual({ success: "false" });
      await h.createSite();
      expect(carbonError(await get(h, "info/healthcheck?f=json")).code).toBe(499);
      const token = await h.adminToken();
      const healthy = await get(h, "info/healthcheck?f=json", {
        "X-Esri-Authorization": `Bearer ${token}`,
      });
      expect(healthy.json).toEqual({ success: "true" });
    });
  });

  it("ArcGIS Server: rest/info/healthCheck answers 503 until the site is ready", async () => {
    await withEmulator("arcgis-server", async (h) => {
      const before = await get(h, "info/healthCheck?f=json");
      expect([before.status, before.json]).toEqual([503, { success: false }]);
      const html = await get(h, "info/healthCheck");
      expect(html.status).toBe(503);
      await h.createSite();
      const after = await get(h, "info/healthCheck?f=json");
      expect([after.status, after.json]).toEqual([200, { success: true }]);
      expect((await get(h, "info/healthcheck?f=json")).json).toEqual({ success: true });
    });
  });
});

describe("rest/info", () => {
  it.each([
    ["mission-server", "11.3", 11.3, "11.3.0"],
    ["arcgis-server", "11.3", 11.3, "11.3.0"],
    ["notebook-server", "11.3", 11.3, "11.3.0"],
    ["video-server", "12.0", 12, "12.0.0"],
  ] as const)("%s reports its default version %s", async (type, _v, current, full) => {
    await withEmulator(type, async (h) => {
      const origin = new URL(h.emu.adminUrl).origin;
      const info = await send(h.agent, "GET", `${origin}/arcgis/rest/info?f=json`);
      expect(info.json).toMatchObject({ currentVersion: current, fullVersion: full });
      expect(h.emu.serverVersion).toBe(full);
    });
  });

  it("reports the version it is told, 10.8.1 as 10.81", async () => {
    await withEmulator(
      "mission-server",
      async (h) => {
        const origin = new URL(h.emu.adminUrl).origin;
        const info = await send(h.agent, "GET", `${origin}/arcgis/rest/info?f=json`);
        expect(info.json).toMatchObject({ currentVersion: 10.81, fullVersion: "10.8.1" });
      },
      { serverVersion: "10.8.1" },
    );
  });

  it("needs a token on Video Server once a site exists", async () => {
    await withEmulator("video-server", async (h) => {
      const url = `${new URL(h.emu.adminUrl).origin}/arcgis/rest/info?f=json`;
      expect((await send(h.agent, "GET", url)).json.currentVersion).toBe(12);
      await h.createSite();
      expect(carbonError(await send(h.agent, "GET", url)).code).toBe(499);
      const token = await h.adminToken();
      const info = await send(h.agent, "GET", url, {
        headers: { "X-Esri-Authorization": `Bearer ${token}` },
      });
      expect(info.json.currentVersion).toBe(12);
    });
  });

  it("refuses a version that is not one", async () => {
    await expect(Harness.start({ serverVersion: "11" })).rejects.toThrow(/serverVersion/);
    await expect(Harness.start({ serverType: "portal" as unknown as ServerType })).rejects.toThrow(
      /serverType must be one of mission-server, arcgis-server/,
    );
  });
});

describe("log settings on Mission Server", () => {
  it("are flat, keep usageMeteringEnabled, and are edited with flat fields in any letter case", async () => {
    await withEmulator("mission-server", async (h) => {
      await h.createSite({
        logsSettings: JSON.stringify({
          logLevel: "INFO",
          logDir: "C:\\logs",
          maxErrorReportsCount: 5,
          maxLogFileAge: 30,
          usageMeteringEnabled: false,
        }),
      });
      const token = await h.adminToken();
      const read = await h.adminGet(`/logs/settings?f=json&token=${token}`);
      expect(read.json).toEqual({
        logLevel: "INFO",
        logDir: "C:\\logs",
        maxErrorReportsCount: 5,
        maxLogFileAge: 30,
        usageMeteringEnabled: false,
      });
      const edit = await h.admin("logs/settings/edit", {
        token,
        logLevel: "DEBUG",
        usageMeteringEnabled: "True",
      });
      expect(edit.json).toEqual({ status: "success" });
      const after = await h.adminGet(`/logs/settings?f=json&token=${token}`);
      expect(after.json).toMatchObject({ logLevel: "DEBUG", usageMeteringEnabled: true });
      const bad = carbonError(await h.admin("logs/settings/edit", { token, logLevel: "LOUD" }));
      expect(bad.message).toContain("logLevel");
    });
  });
});

describe("cloud config stores", () => {
  it("keep the account name, never the password, on Mission Server", async () => {
    const secret = "Storage-Account-Key-8d1f==";
    await withEmulator("mission-server", async (h) => {
      await h.createSite({
        configStoreConnection: JSON.stringify({
          configPersistenceType: "AZURE",
          connectionString: "NAMESPACE=site;DefaultEndpointsProtocol=https;",
          username: "account1",
          password: secret,
          className: "com.esri.arcgis.carbon.persistence.impl.azure.AzureConfigPersistence",
        }),
      });
      const token = await h.adminToken();
      const store = await h.adminGet(`/system/configstore?f=json&token=${token}`);
      expect(store.json).toMatchObject({ configPersistenceType: "AZURE", username: "account1" });
      expect(store.text).not.toContain(secret);
      const state = await fs.readFile(path.join(h.dataDir, "state.json"), "utf8");
      expect(state).not.toContain(secret);
    });
  });

  it("accept an Amazon store without credentials (IAM role, as DSC sends it)", async () => {
    await withEmulator("mission-server", async (h) => {
      const answer = await h.admin("createNewSite", {
        ...SITE_ADMIN,
        configStoreConnection: JSON.stringify({
          configPersistenceType: "AMAZON",
          connectionString: "NAMESPACE=site;REGION=us-east-1;",
          className: "com.esri.arcgis.carbon.persistence.impl.amazon.AmazonConfigPersistence",
        }),
      });
      expect(answer.json).toEqual({ status: "success" });
    });
  });
});

it("takes Mission Server's documented runAsync and settings as the other names of async and logsSettings", async () => {
  const h = await Harness.start({ serverType: "mission-server", createDelayMs: 0 });
  try {
    const conflicting = carbonError(
      await h.admin("createNewSite", { ...SITE_ADMIN, async: "false", runAsync: "true" }),
    );
    expect(conflicting.code).toBe(400);
    expect(conflicting.message).toMatch(/'async' and 'runAsync'/);
    await h.createSite({ runAsync: "false", settings: JSON.stringify({ logLevel: "INFO" }) });
    const token = await h.adminToken();
    const logs = await h.adminGet("/logs/settings?f=json", {
      "X-Esri-Authorization": `Bearer ${token}`,
    });
    expect(logs.json).toMatchObject({ logLevel: "INFO" });
  } finally {
    await h.close();
  }
});

it.each(["arcgis-server", "mission-server"] as const)(
  "%s answers system/directories/<name> with that directory, in the list's form; another name is 404",
  async (serverType) => {
    const h = await Harness.start({ serverType, createDelayMs: 0 });
    try {
      await h.createSite();
      const auth = { "X-Esri-Authorization": `Bearer ${await h.adminToken()}` };
      const list = await h.adminGet("/system/directories?f=json", auth);
      const first = (list.json?.directories as Array<Record<string, unknown>>)[0]!;
      const one = await h.adminGet(
        `/system/directories/${String(first.name).toUpperCase()}?f=json`,
        auth,
      );
      expect(one.json).toEqual(first);
      const missing = await h.adminGet("/system/directories/nosuchdir?f=json", auth);
      expect(JSON.stringify(missing.json)).toMatch(/404/);
    } finally {
      await h.close();
    }
  },
);
