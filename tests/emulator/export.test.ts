import { promises as fs } from "node:fs";
import path from "node:path";
import { Agent, request } from "undici";
import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";
import { runTempDir } from "../../tools/harness/temp";
import { readZip } from "../../tools/harness/zip";

const ARCHIVE_NAME = /^\d{8}-\d{6}-UTC(-\d+)?\.agssite$/;

const SPEC_INCLUDED = [
  "Service configurations and service properties",
  "Server object extensions",
  "Server object interceptors",
  "Registered data store item locations",
  "Registered relational data store types",
  "User and role information",
  "List of machines in the site",
  "Log settings",
  "Statistics reports",
  "Scene tile cache configuration files under the hosted folder of the cache directory",
];

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function stampOf(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10).replaceAll("-", "")}-${iso.slice(11, 19).replaceAll(":", "")}-UTC`;
}

async function started(
  options: Parameters<typeof Harness.start>[0] = {},
): Promise<{ h: Harness; token: string }> {
  const h = await Harness.start({
    createDelayMs: 0,
    exportDelayMs: 50,
    machineName: "mission-x",
    ...options,
  });
  await h.createSite({ settings: JSON.stringify({ logLevel: "FINE" }) });
  return { h, token: await h.adminToken() };
}

describe("exportSite with a location", () => {
  let h: Harness;
  let token: string;
  let folder: string;
  beforeEach(async () => {
    ({ h, token } = await started());
    folder = path.join(h.dataDir, "backups");
    await fs.mkdir(folder);
  });
  afterEach(async () => {
    await h.close();
  });

  it("needs an admin token", async () => {
    const answer = await h.admin("exportSite", { location: folder });
    expect(answer.json.code).toBe(499);
    expect(await fs.readdir(folder)).toEqual([]);
  });

  it("writes YYYYMMDD-HHMMSS-UTC.agssite into the folder and answers its path", async () => {
    const before = new Date();
    const answer = await h.admin("exportSite", { location: folder, token });
    expect(answer.json.status).toBe("success");
    const name = path.basename(answer.json.location as string);
    expect(name).toMatch(ARCHIVE_NAME);
    expect(path.dirname(answer.json.location as string)).toBe(folder);
    expect([stampOf(before), stampOf(new Date())]).toContain(name.slice(0, 19));
    expect(await fs.readdir(folder)).toEqual([name]);
  });

  it("writes a real zip: a manifest listing what is included and excluded, and one JSON document per included item", async () => {
    const answer = await h.admin("exportSite", { location: folder, token });
    const entries = await readZip(answer.json.location as string);
    const manifestEntry = entries.find((e) => e.name === "manifest.json");
    expect(manifestEntry).toBeDefined();
    const manifest = JSON.parse(manifestEntry!.data.toString("utf8"));
    expect(manifest).toMatchObject({ formatVersion: 1, machine: "mission-x" });
    expect(Date.parse(manifest.exportedAt)).not.toBeNaN();
    expect(manifest.included.map((i: { item: string }) => i.item)).toEqual(SPEC_INCLUDED);
    expect(manifest.excluded).toHaveLength(7);
    expect(manifest.excluded).toContain("Primary site administrator name and password");
    for (const { file } of manifest.included as Array<{ file: string }>) {
      const entry = entries.find((e) => e.name === file);
      expect(entry).toBeDefined();
      expect(() => JSON.parse(entry!.data.toString("utf8"))).not.toThrow();
    }
    const logSettings = JSON.parse(
      entries.find((e) => e.name === "log-settings.json")!.data.toString("utf8"),
    );
    expect(logSettings.settings.logLevel).toBe("FINE");
    const machines = JSON.parse(
      entries.find((e) => e.name === "machines.json")!.data.toString("utf8"),
    );
    expect(machines.machines[0].machineName).toBe("mission-x");
  });

  it("never contains the primary administrator's name or password", async () => {
    const answer = await h.admin("exportSite", { location: folder, token });
    const raw = await fs.readFile(answer.json.location as string);
    expect(raw.includes(SITE_ADMIN.username)).toBe(false);
    expect(raw.includes(SITE_ADMIN.password)).toBe(false);
    for (const entry of await readZip(answer.json.location as string)) {
      expect(entry.data.includes(SITE_ADMIN.username)).toBe(false);
      expect(entry.data.includes(SITE_ADMIN.password)).toBe(false);
      expect(entry.data.includes("scrypt$")).toBe(false);
    }
  });

  it("refuses folders outside the export roots, '..' tricks, symbolic links that escape, relative and missing folders", async () => {
    const outside = runTempDir("arcgis-emu-outside-");
    const link = path.join(folder, "escape");
    await fs.symlink(outside, link);
    const attempts = [
      outside,
      `${folder}/../backups`,
      `${folder}/../../${path.basename(outside)}`,
      link,
      "backups",
      path.join(folder, "missing"),
    ];
    for (const location of attempts) {
      const answer = await h.admin("exportSite", { location, token });
      expect({ location, status: answer.json.status, code: answer.json.code }).toEqual({
        location,
        status: "error",
        code: 400,
      });
    }
    expect(await fs.readdir(outside)).toEqual([]);
    expect((await fs.readdir(folder)).filter((n) => n.endsWith(".agssite"))).toEqual([]);
    await fs.rm(outside, { recursive: true });
  });

  it("never overwrites an archive of the same second: the next name gets a suffix", async () => {
    const now = Date.now();
    const taken = new Set<string>();
    for (let s = -1; s <= 5; s++) {
      const name = `${stampOf(new Date(now + s * 1000))}.agssite`;
      taken.add(name);
      await fs.writeFile(path.join(folder, name), "keep me");
    }
    const answer = await h.admin("exportSite", { location: folder, token });
    const name = path.basename(answer.json.location as string);
    expect(taken.has(name)).toBe(false);
    expect(name).toMatch(/-UTC-1\.agssite$/);
    for (const kept of taken)
      expect(await fs.readFile(path.join(folder, kept), "utf8")).toBe("keep me");
  });

  it("five exports started at once (retried on 409) yield five distinct archives", async () => {
    let refused = 0;
    const exportOnce = async (): Promise<string> => {
      for (;;) {
        const answer = await h.admin("exportSite", { location: folder, token });
        if (answer.json.status === "success") return answer.json.location as string;
        expect(answer.json.code).toBe(409);
        refused++;
      }
    };
    const locations = await Promise.all([1, 2, 3, 4, 5].map(exportOnce));
    expect(new Set(locations).size).toBe(5);
    expect(refused).toBeGreaterThan(0);
    const archives = (await fs.readdir(folder)).filter((n) => ARCHIVE_NAME.test(n));
    expect(archives.sort()).toEqual(locations.map((l) => path.basename(l)).sort());
  });
});

describe("exportSite export roots", () => {
  it("accepts every --export-root and nothing else, the data dir included", async () => {
    const rootA = runTempDir("arcgis-emu-root-a-");
    const rootB = runTempDir("arcgis-emu-root-b-");
    const { h, token } = await started({ exportRoots: [rootA, rootB] });
    try {
      expect((await h.admin("exportSite", { location: rootA, token })).json.status).toBe("success");
      expect((await h.admin("exportSite", { location: rootB, token })).json.status).toBe("success");
      expect((await h.admin("exportSite", { location: h.dataDir, token })).json.code).toBe(400);
    } finally {
      await h.close();
      await fs.rm(rootA, { recursive: true });
      await fs.rm(rootB, { recursive: true });
    }
  });
});

describe("exportSite without a location, file form (--export-url-form file)", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    ({ h, token } = await started({ exportUrlForm: "file", machineName: "127.0.0.1" }));
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers an uploads URL under the admin root, downloadable with an admin token in a header or the query", async () => {
    const answer = await h.admin("exportSite", { token, location: "" });
    expect(answer.json.status).toBe("success");
    const url = answer.json.location as string;
    expect(url).toMatch(new RegExp(`^${h.emu.adminUrl}/uploads/[0-9a-f]{32}$`));

    const download = await send(h.agent, "GET", url, {
      headers: { "X-Esri-Authorization": `Bearer ${token}` },
    });
    expect(download.status).toBe(200);
    const disposition = download.headers["content-disposition"] as string;
    expect(disposition).toMatch(/^attachment; filename="\d{8}-\d{6}-UTC\.agssite"$/);
    const viaQuery = await send(h.agent, "GET", `${url}?token=${encodeURIComponent(token)}`);
    expect(viaQuery.status).toBe(200);

    const id = url.split("/").at(-1)!;
    const name = /filename="([^"]+)"/.exec(disposition)![1]!;
    const onDisk = await fs.readFile(path.join(h.dataDir, "uploads", id, name));
    const raw = await request(url, {
      headers: { authorization: `Bearer ${token}` },
      dispatcher: h.agent,
    });
    expect(Buffer.from(await raw.body.arrayBuffer()).equals(onDisk)).toBe(true);
    expect(raw.headers["content-length"]).toBe(String(onDisk.length));
    // The item form's download resource does not exist in this form.
    const item = await send(h.agent, "GET", `${url}/download?f=json&token=${token}`);
    expect(item.json).toMatchObject({ status: "error", code: 404 });
  });

  it("refuses a download without a token (499) and ids that are not generated ids (404, no file served)", async () => {
    const answer = await h.admin("exportSite", { token });
    const url = answer.json.location as string;
    expect((await send(h.agent, "GET", `${url}?f=json`)).json.code).toBe(499);
    for (const id of [
      "..%2F..%2Fstate.json",
      "..%2Fstate.json",
      "ZZZZ",
      `${url.split("/").at(-1)!}x`,
    ]) {
      const bad = await send(
        h.agent,
        "GET",
        `${h.emu.adminUrl}/uploads/${id}?f=json&token=${token}`,
      );
      expect(bad.status).toBe(200);
      expect(bad.json).toMatchObject({ status: "error", code: 404 });
      expect(bad.text).not.toContain("tokenSecret");
    }
  });
});

describe("exportSite without a location, item form (ArcGIS Server's default)", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    ({ h, token } = await started({ machineName: "127.0.0.1" }));
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers uploads/<itemID>, which describes the uploaded item; its archive is at .../download", async () => {
    const answer = await h.admin("exportSite", { token });
    const url = answer.json.location as string;
    expect(url).toMatch(new RegExp(`^${h.emu.adminUrl}/uploads/[0-9a-f]{32}$`));
    const id = url.split("/").at(-1)!;

    const item = await send(h.agent, "GET", `${url}?f=json&token=${token}`);
    expect(item.headers["content-type"]).toMatch(/^application\/json/);
    expect(item.json).toMatchObject({
      itemID: id,
      itemName: expect.stringMatching(/^\d{8}-\d{6}-UTC\.agssite$/),
      committed: true,
      pathOnServer: expect.stringContaining(`/arcgisuploads/${id}/`),
    });

    const download = await send(h.agent, "GET", `${url}/download`, {
      headers: { "X-Esri-Authorization": `Bearer ${token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers["content-disposition"]).toBe(
      `attachment; filename="${item.json.itemName as string}"`,
    );
    const onDisk = await fs.readFile(path.join(h.dataDir, "uploads", id, item.json.itemName));
    const raw = await request(`${url}/download`, {
      headers: { authorization: `Bearer ${token}` },
      dispatcher: h.agent,
    });
    expect(Buffer.from(await raw.body.arrayBuffer()).equals(onDisk)).toBe(true);
    expect((await send(h.agent, "GET", `${url}/download?f=json`)).json.code).toBe(499);
  });
});

describe("the download URL's host", () => {
  // A Host header other than the address connected to: undici would check the certificate
  // against it, so this agent leaves the name check out (TLS itself is tested elsewhere).
  const forgingHost = (h: Harness): Agent =>
    new Agent({ connect: { ca: h.ca, checkServerIdentity: () => undefined } });

  it("is the machine name when one is given, never the request's Host header", async () => {
    const { h, token } = await started({ exportUrlForm: "file" });
    const agent = forgingHost(h);
    try {
      const answer = await send(agent, "POST", `${h.emu.adminUrl}/exportSite`, {
        form: { f: "json", token },
        headers: { host: "attacker.example:8443" },
      });
      const port = new URL(h.emu.adminUrl).port;
      expect(answer.json.location).toMatch(
        new RegExp(`^https://mission-x:${port}/arcgis/admin/uploads/[0-9a-f]{32}$`),
      );
    } finally {
      await agent.close();
      await h.close();
    }
  });

  it("is the listen address without a machine name, whatever the Host header says", async () => {
    const h = await Harness.start({ createDelayMs: 0, exportDelayMs: 10, exportUrlForm: "file" });
    const agent = forgingHost(h);
    try {
      await h.createSite();
      const token = await h.adminToken();
      const answer = await send(agent, "POST", `${h.emu.adminUrl}/exportSite`, {
        form: { f: "json", token },
        headers: { host: "attacker.example:8443" },
      });
      expect(answer.json.location).toMatch(new RegExp(`^${h.emu.adminUrl}/uploads/[0-9a-f]{32}$`));
      const info = await send(
        agent,
        "GET",
        `${new URL(h.emu.adminUrl).origin}/arcgis/rest/info?f=json`,
        {
          headers: { host: "attacker.example:8443" },
        },
      );
      expect(info.json.authInfo.tokenServicesUrl).toBe(
        `${new URL(h.emu.adminUrl).origin}/arcgis/tokens/generateToken`,
      );
    } finally {
      await agent.close();
      await h.close();
    }
  });
});

describe("a running export", () => {
  let h: Harness;
  let token: string;
  let folder: string;
  beforeEach(async () => {
    ({ h, token } = await started({ exportDelayMs: 800 }));
    folder = path.join(h.dataDir, "backups");
    await fs.mkdir(folder);
  });
  afterEach(async () => {
    await h.close();
  });

  it("refuses logs/settings/edit, deleteSite and another exportSite with code 409 until it ends", async () => {
    const running = h.admin("exportSite", { location: folder, token });
    await until(() => h.emu.stats().exportsStarted === 1);
    const refusals = await Promise.all([
      h.admin("logs/settings/edit", { token, logLevel: "SEVERE" }),
      h.admin("deleteSite", { token }),
      h.admin("exportSite", { token }),
    ]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(200);
      expect(refusal.json).toEqual({
        status: "error",
        code: 409,
        messages: [
          expect.stringMatching(/configuration cannot be changed while the site is being exported/),
        ],
      });
    }
    // Reading is still fine.
    expect((await h.adminGet(`/logs/settings?f=json&token=${token}`)).json.settings.logLevel).toBe(
      "FINE",
    );
    expect((await running).json.status).toBe("success");
    expect((await h.admin("logs/settings/edit", { token, logLevel: "SEVERE" })).json.status).toBe(
      "success",
    );
    expect(h.emu.stats()).toMatchObject({ exportsStarted: 1, exportsCompleted: 1 });
  });

  it("is not visible under its final name until complete", async () => {
    const running = h.admin("exportSite", { location: folder, token });
    await until(() => h.emu.stats().exportsStarted === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await fs.readdir(folder);
    expect(during.filter((n) => n.endsWith(".agssite"))).toEqual([]);
    expect(during.filter((n) => n.endsWith(".partial"))).toHaveLength(1);
    const location = (await running).json.location as string;
    expect(await fs.readdir(folder)).toEqual([path.basename(location)]);
  });

  it("ended by close() leaves no archive and no temporary file, and the next start exports fine", async () => {
    const running = h.admin("exportSite", { location: folder, token }).catch(() => null);
    await until(() => h.emu.stats().exportsStarted === 1);
    await h.close({ keepDataDir: true });
    await running;
    expect(await fs.readdir(folder)).toEqual([]);
    h = await Harness.start({ dataDir: h.dataDir, exportDelayMs: 10 });
    const token2 = await h.adminToken();
    expect((await h.admin("exportSite", { location: folder, token: token2 })).json.status).toBe(
      "success",
    );
  });
});

describe("export padding", () => {
  it("adds an incompressible, stored entry of exactly --export-padding-bytes", async () => {
    const { h, token } = await started({ exportPaddingBytes: 3_000_000 });
    try {
      const answer = await h.admin("exportSite", { location: h.dataDir, token });
      const file = answer.json.location as string;
      expect((await fs.stat(file)).size).toBeGreaterThan(3_000_000);
      const padding = (await readZip(file)).find((e) => e.name === "padding.bin");
      expect(padding).toMatchObject({ compressionMethod: 0, uncompressedSize: 3_000_000 });
      expect(padding!.data.length).toBe(3_000_000);
    } finally {
      await h.close();
    }
  });
});
