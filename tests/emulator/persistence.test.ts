import { X509Certificate } from "node:crypto";
import { promises as fs } from "node:fs";
import https from "node:https";
import path from "node:path";
import { startEmulator } from "../../emulator";
import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";
import { runTempDir } from "../../tools/harness/temp";

const seed = (collaborationIds: string[], portalId = "PERSISTPORTAL") => ({
  portal: {
    id: portalId,
    users: [{ username: "gisadmin", password: "Portal-Admin-Pass-1", role: "org_admin" as const }],
    collaborations: collaborationIds.map((id) => ({
      id,
      name: id,
      description: "",
      hostPortalId: portalId,
      guestPortalIds: ["GUEST"],
    })),
  },
});

async function collaborationIds(h: Harness): Promise<string[]> {
  const token = await h.portalToken("gisadmin", "Portal-Admin-Pass-1");
  const list = await h.sharingGet(
    `/portals/${h.emu.portalId}/collaborations?f=json&num=100&token=${token}`,
  );
  return list.json.collaborations.map((c: { id: string }) => c.id);
}

describe("state across restarts", () => {
  it("keeps the site, its administrator, log settings, the portal, deleted collaborations and issued tokens", async () => {
    let h = await Harness.start({ createDelayMs: 0, seed: seed(["keep", "drop"]) });
    const { dataDir } = h;
    await h.createSite({ settings: JSON.stringify({ logLevel: "DEBUG" }) });
    const token = await h.adminToken();
    const portalToken = await h.portalToken("gisadmin", "Portal-Admin-Pass-1");
    await h.sharing(`portals/PERSISTPORTAL/collaborations/drop/delete`, { token: portalToken });
    const portalId = h.emu.portalId;
    await h.close({ keepDataDir: true });

    h = await Harness.start({ dataDir, seed: seed(["keep", "drop"]) });
    try {
      expect(h.emu.portalId).toBe(portalId);
      expect((await h.adminGet("/?f=json")).json.code).toBe(499);
      expect(
        (await h.adminGet(`/logs/settings?f=json&token=${token}`)).json.settings.logLevel,
      ).toBe("DEBUG");
      expect(typeof (await h.adminToken())).toBe("string");
      expect(await collaborationIds(h)).toEqual(["keep"]);
    } finally {
      await h.close();
    }
  });

  it("replaces state.json by rename on every change (a new file each time), never rewriting it in place", async () => {
    const h = await Harness.start({ createDelayMs: 0 });
    try {
      const stateFile = path.join(h.dataDir, "state.json");
      // Holding the old file open keeps its inode from being reused by the new one.
      const old = await fs.open(stateFile, "r");
      try {
        const before = await old.stat();
        await h.createSite();
        expect((await fs.stat(stateFile)).ino).not.toBe(before.ino);
        expect(JSON.parse(await old.readFile("utf8")).site).toBeNull();
        expect(JSON.parse(await fs.readFile(stateFile, "utf8")).site.status).toBe("ready");
      } finally {
        await old.close();
      }
    } finally {
      await h.close();
    }
  });

  it("resumes a site creation that close() interrupted", async () => {
    let h = await Harness.start({ createDelayMs: 600 });
    const { dataDir } = h;
    expect((await h.admin("createNewSite", { ...SITE_ADMIN, runAsync: "true" })).json.status).toBe(
      "success",
    );
    await h.close({ keepDataDir: true });
    h = await Harness.start({ dataDir });
    try {
      expect((await h.adminGet("/?f=json")).json.messages.join(" ")).toContain("in progress");
      await h.waitForSite();
      expect((await h.adminGet("/?f=json")).json.code).toBe(499);
      expect(typeof (await h.adminToken())).toBe("string");
    } finally {
      await h.close();
    }
  });

  it("rebuilds the portal from another seed, and keeps it with the same seed or none", async () => {
    let h = await Harness.start({ seed: seed(["a", "b"]) });
    const { dataDir } = h;
    let token = await h.portalToken("gisadmin", "Portal-Admin-Pass-1");
    await h.sharing("portals/PERSISTPORTAL/collaborations/a/delete", { token });
    await h.close({ keepDataDir: true });

    h = await Harness.start({ dataDir, seed: seed(["a", "b"]) });
    expect(await collaborationIds(h)).toEqual(["b"]);
    await h.close({ keepDataDir: true });
    h = await Harness.start({ dataDir });
    expect(await collaborationIds(h)).toEqual(["b"]);
    await h.close({ keepDataDir: true });

    h = await Harness.start({ dataDir, seed: seed(["c"], "NEWPORTAL") });
    try {
      expect(h.emu.portalId).toBe("NEWPORTAL");
      token = await h.portalToken("gisadmin", "Portal-Admin-Pass-1");
      expect(await collaborationIds(h)).toEqual(["c"]);
    } finally {
      await h.close();
    }
  });

  it("removes unfinished archives recorded in the state, and stale temporary state files, at start-up", async () => {
    let h = await Harness.start();
    const { dataDir } = h;
    await h.close({ keepDataDir: true });
    const partial = path.join(dataDir, ".20250101-000000-UTC-abcdef.partial");
    await fs.writeFile(partial, "half an archive");
    const stateFile = path.join(dataDir, "state.json");
    const state = JSON.parse(await fs.readFile(stateFile, "utf8"));
    state.pendingArchives = [partial];
    await fs.writeFile(stateFile, JSON.stringify(state));
    await fs.writeFile(path.join(dataDir, "state.json.123456"), "{");

    h = await Harness.start({ dataDir });
    try {
      const names = await fs.readdir(dataDir);
      expect(names).not.toContain(path.basename(partial));
      expect(names).not.toContain("state.json.123456");
      expect(JSON.parse(await fs.readFile(stateFile, "utf8")).pendingArchives).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("refuses a second emulator on a data dir in use, and a state file that is not valid", async () => {
    const h = await Harness.start();
    try {
      await expect(startEmulator({ dataDir: h.dataDir, quiet: true })).rejects.toThrow(/in use/);
    } finally {
      await h.close({ keepDataDir: true });
    }
    await fs.writeFile(path.join(h.dataDir, "state.json"), '{"formatVersion": 1');
    await expect(startEmulator({ dataDir: h.dataDir, quiet: true })).rejects.toThrow(
      /not valid JSON/,
    );
    await fs.rm(h.dataDir, { recursive: true });
  });
});

function getWithNodeTls(url: string, ca: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(url, ca === undefined ? {} : { ca }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on("error", reject);
  });
}

describe("TLS", () => {
  it("generates a certificate into the data dir that Node's TLS accepts as the CA for 127.0.0.1 and localhost, and reuses it", async () => {
    let h = await Harness.start();
    const { dataDir } = h;
    try {
      expect(h.emu.adminUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin$/);
      expect(h.emu.caCertFile).toBe(path.join(dataDir, "tls", "cert.pem"));
      expect(await getWithNodeTls(restInfo(h), h.ca)).toBe(200);
      expect(await getWithNodeTls(restInfo(h).replace("127.0.0.1", "localhost"), h.ca)).toBe(200);
      await expect(getWithNodeTls(restInfo(h), undefined)).rejects.toThrow(/self[- ]signed/i);
    } finally {
      await h.close({ keepDataDir: true });
    }
    const firstCert = h.ca;
    h = await Harness.start({ dataDir });
    expect(h.ca).toBe(firstCert);
    await h.close();
  });

  it("names 127.0.0.1, localhost and a DNS-like machine name in the certificate, and leaves out a machine name that is not one", async () => {
    const named = await Harness.start({ machineName: "gis-node-7.example.com" });
    const spaced = await Harness.start({ machineName: "GIS Server #1" });
    try {
      const namedSan = new X509Certificate(named.ca!).subjectAltName ?? "";
      expect(namedSan).toContain("DNS:localhost");
      expect(namedSan).toContain("IP Address:127.0.0.1");
      expect(namedSan).toContain("DNS:gis-node-7.example.com");
      const spacedSan = new X509Certificate(spaced.ca!).subjectAltName ?? "";
      expect(spacedSan).toContain("DNS:localhost");
      expect(spacedSan).not.toContain("GIS Server");
      expect((await spaced.adminGet("/?f=json")).json.messages[0]).toContain("'GIS Server #1'");
    } finally {
      await named.close();
      await spaced.close();
    }
  });

  it("serves a certificate brought with tls.certFile/keyFile and reports it as caCertFile", async () => {
    const donor = await Harness.start();
    await donor.close({ keepDataDir: true });
    const certFile = path.join(donor.dataDir, "tls", "cert.pem");
    const h = await Harness.start({
      tls: { certFile, keyFile: path.join(donor.dataDir, "tls", "key.pem") },
    });
    try {
      expect(h.emu.caCertFile).toBe(certFile);
      expect(await getWithNodeTls(restInfo(h), h.ca)).toBe(200);
      await expect(fs.access(path.join(h.dataDir, "tls"))).rejects.toThrow();
    } finally {
      await h.close();
      await fs.rm(donor.dataDir, { recursive: true });
    }
  });

  it("is off with tls: false: plain HTTP URLs and caCertFile null", async () => {
    const h = await Harness.start({ tls: false });
    try {
      expect(h.emu.caCertFile).toBeNull();
      expect(h.emu.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin$/);
      expect(h.emu.sharingUrl).toMatch(/^http:\/\/.*\/portal\/sharing\/rest$/);
      expect((await send(h.agent, "GET", `${h.emu.adminUrl}/?f=json`)).json.status).toBe("error");
      expect(
        (
          await h.sharing("generateToken", {
            username: "portaladmin",
            password: "emulator-Admin-1",
          })
        ).json.ssl,
      ).toBe(false);
    } finally {
      await h.close();
    }
  });
});

describe("start-up options", () => {
  it("are validated", async () => {
    const dataDir = runTempDir("arcgis-emu-test-");
    await expect(startEmulator({ dataDir, port: 70000, quiet: true })).rejects.toThrow(/port/);
    await expect(startEmulator({ dataDir, createDelayMs: -1, quiet: true })).rejects.toThrow(
      /createDelayMs/,
    );
    await expect(
      startEmulator({ dataDir, seed: path.join(dataDir, "missing.json"), quiet: true }),
    ).rejects.toThrow(/Cannot read the seed file/);
    await fs.rm(dataDir, { recursive: true });
  });
});

/** `rest/info` of an emulator: answers 200 without a token, with or without a site. */
function restInfo(h: Harness): string {
  return `${new URL(h.emu.adminUrl).origin}/arcgis/rest/info?f=json`;
}
