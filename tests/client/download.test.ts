import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import {
  TokenCache,
  closeDispatchers,
  createAdminSession,
  downloadExport,
  fileNameFromDisposition,
  verifyArchive,
  type AdminSession,
  exportDownloadUrl,
} from "../../provider/client";
import {
  ADMIN_PASSWORD,
  InvalidTokenAnswer,
  ProxyBadGatewayPage,
  tokenAnswer,
} from "../../tools/harness/server-answers";
import { closeServer, listen } from "../../tools/harness/servers";
import { failure } from "../../tools/harness/mock-agent";
import { makeZip } from "../../tools/harness/zip";
import { runTempDir } from "../../tools/harness/temp";

let zip: Buffer;
let origin: string;
let server: ReturnType<typeof createServer>;
let releaseSlow: () => void = () => undefined;
let slowGate: Promise<void> = Promise.resolve();
let tokenCount = 0;
let flakyHits = 0;
const seen: { url: string; headers: IncomingMessage["headers"] }[] = [];

function sendZip(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/octet-stream", ...headers });
  res.end(zip);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  seen.push({ url: req.url ?? "", headers: req.headers });
  const path = new URL(req.url ?? "/", "http://x").pathname;
  const token = req.headers["x-esri-authorization"];
  switch (path) {
    case "/arcgis/admin/generateToken":
      tokenCount++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(tokenAnswer(`token-${tokenCount}`, Date.now() + 3_600_000)));
      return;
    case "/arcgis/admin/uploads/i5a1c2f9e":
      return sendZip(res);
    case "/arcgis/admin/uploads/named":
      return sendZip(res, {
        "content-disposition": 'attachment; filename="20220823-140812-UTC.agssite"',
      });
    case "/arcgis/admin/uploads/evil":
      return sendZip(res, { "content-disposition": 'attachment; filename="../../etc/passwd"' });
    case "/arcgis/admin/uploads/site.zip":
      return sendZip(res);
    case "/arcgis/admin/uploads/slow":
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(zip.subarray(0, 10));
      await slowGate;
      res.end(zip.subarray(10));
      return;
    case "/arcgis/admin/uploads/notzip":
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end("this is certainly not a zip archive");
      return;
    case "/arcgis/admin/uploads/expired":
      if (token === "Bearer token-1") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(InvalidTokenAnswer));
        return;
      }
      return sendZip(res);
    case "/arcgis/admin/uploads/flaky":
      if (++flakyHits === 1) {
        res.writeHead(502, { "content-type": "text/html" });
        res.end(ProxyBadGatewayPage);
        return;
      }
      return sendZip(res);
    case "/arcgis/admin/uploads/json":
    case "/arcgis/admin/uploads/json/download":
    case "/arcgis/admin/uploads/item":
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"itemID":"i5a1c2f9e"}');
      return;
    case "/arcgis/admin/uploads/item/download":
      return sendZip(res, {
        "content-disposition": 'attachment; filename="20220823-140812-UTC.agssite"',
      });
    default:
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html><head><title>Not Found</title></head></html>");
  }
}

function session(): AdminSession {
  return createAdminSession({
    adminUrl: `${origin}/arcgis/admin`,
    username: "siteadmin",
    password: ADMIN_PASSWORD,
    tokenCache: new TokenCache(),
    retry: { maxAttempts: 3, baseDelayMs: 1 },
  });
}

function tempDir(): string {
  return runTempDir("arcgis-download-");
}

const dirs: string[] = [];
function newDir(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

beforeAll(async () => {
  zip = await makeZip({ "manifest.json": '{"version":"11.3"}', "config/site.json": "{}" });
  server = createServer((req, res) => void handle(req, res));
  ({ origin } = await listen(server));
});

afterAll(async () => {
  releaseSlow();
  await closeDispatchers();
  await closeServer(server);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("downloadExport()", () => {
  it("streams the archive to a file named after the URL plus .agssite, with correct size and sha256", async () => {
    const dir = newDir();
    const result = await downloadExport(session(), `${origin}/arcgis/admin/uploads/i5a1c2f9e`, {
      dir,
    });
    expect(result).toEqual({
      path: join(dir, "i5a1c2f9e.agssite"),
      fileName: "i5a1c2f9e.agssite",
      sizeBytes: zip.length,
      sha256: createHash("sha256").update(zip).digest("hex"),
    });
    expect(readFileSync(result.path).equals(zip)).toBe(true);
    expect(readdirSync(dir)).toEqual(["i5a1c2f9e.agssite"]);
  });

  it("sends the token in the X-Esri-Authorization header, never in the URL, with the Referer", async () => {
    seen.length = 0;
    await downloadExport(session(), `${origin}/arcgis/admin/uploads/i5a1c2f9e`, newDir());
    const download = seen.find((s) => s.url.includes("/uploads/"))!;
    expect(download.headers["x-esri-authorization"]).toMatch(/^Bearer token-\d+$/);
    expect(download.headers["referer"]).toBe("pulumi-arcgis-admin");
    for (const s of seen) {
      expect(s.url).not.toContain("?");
      expect(s.url).not.toMatch(/token-\d/);
    }
    // No f=json: on an upload item it would describe the item instead of sending the file.
    expect(download.url).toBe("/arcgis/admin/uploads/i5a1c2f9e");
  });

  it("takes the file name from Content-Disposition when present", async () => {
    const dir = newDir();
    const result = await downloadExport(session(), `${origin}/arcgis/admin/uploads/named`, dir);
    expect(result.fileName).toBe("20220823-140812-UTC.agssite");
    expect(existsSync(join(dir, "20220823-140812-UTC.agssite"))).toBe(true);
  });

  it("never overwrites an archive of the same name in the folder", async () => {
    const dir = newDir();
    writeFileSync(join(dir, "20220823-140812-UTC.agssite"), "an older backup");
    const url = `${origin}/arcgis/admin/uploads/named`;
    const [a, b] = await Promise.all([
      downloadExport(session(), url, dir),
      downloadExport(session(), url, dir),
    ]);
    expect([a.fileName, b.fileName].sort()).toEqual([
      "20220823-140812-UTC-1.agssite",
      "20220823-140812-UTC-2.agssite",
    ]);
    expect(readFileSync(join(dir, "20220823-140812-UTC.agssite"), "utf8")).toBe("an older backup");
    expect(readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  it("keeps only the last segment of a Content-Disposition name (no path traversal)", async () => {
    const dir = newDir();
    const result = await downloadExport(session(), `${origin}/arcgis/admin/uploads/evil`, { dir });
    expect(result.path).toBe(join(dir, "passwd"));
  });

  it("keeps an extension the URL already has", async () => {
    const result = await downloadExport(session(), `${origin}/arcgis/admin/uploads/site.zip`, {
      dir: newDir(),
    });
    expect(result.fileName).toBe("site.zip");
  });

  it("writes to an exact file path when given { file }", async () => {
    const file = join(newDir(), "nested", "backup.agssite");
    const result = await downloadExport(session(), `${origin}/arcgis/admin/uploads/named`, {
      file,
    });
    expect(result.path).toBe(file);
    expect(statSync(file).size).toBe(zip.length);
  });

  it("writes to a temporary file and gives it the final name only when complete", async () => {
    const dir = newDir();
    slowGate = new Promise((resolve) => (releaseSlow = resolve));
    const pending = downloadExport(session(), `${origin}/arcgis/admin/uploads/slow`, { dir });

    let names: string[] = [];
    for (let i = 0; i < 200 && !names.some((n) => n.endsWith(".part")); i++) {
      await new Promise((r) => setTimeout(r, 10));
      names = readdirSync(dir);
    }
    const part = names.find((n) => n.endsWith(".part"));
    expect(part).toBeDefined();
    expect(names).not.toContain("slow.agssite");
    // Bytes are already on disk before the body ends: the archive is streamed, not buffered.
    for (let i = 0; i < 200 && statSync(join(dir, part!)).size === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(statSync(join(dir, part!)).size).toBe(10);

    releaseSlow();
    const result = await pending;
    expect(readdirSync(dir)).toEqual(["slow.agssite"]);
    expect(result.sizeBytes).toBe(zip.length);
  });

  it("rejects a file that is not a zip as BAD_RESPONSE and leaves nothing behind", async () => {
    const dir = newDir();
    const e = await failure(
      downloadExport(session(), `${origin}/arcgis/admin/uploads/notzip`, dir),
    );
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("not a zip archive");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("follows an uploaded item's description to its file at .../download", async () => {
    seen.length = 0;
    const dir = newDir();
    const result = await downloadExport(session(), `${origin}/arcgis/admin/uploads/item`, dir);
    expect(readFileSync(result.path).equals(zip)).toBe(true);
    expect(result.fileName).toBe("20220823-140812-UTC.agssite");
    expect(seen.map((x) => x.url).filter((u) => u.includes("/uploads/"))).toEqual([
      "/arcgis/admin/uploads/item",
      "/arcgis/admin/uploads/item/download",
    ]);
  });

  it("reports JSON where the item's file should be as BAD_RESPONSE", async () => {
    const dir = newDir();
    const e = await failure(downloadExport(session(), `${origin}/arcgis/admin/uploads/json`, dir));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("expected a file");
    expect(e.message).toContain("/uploads/json/download");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("downloads from the admin URL's origin when the server answers another host or scheme, never sending the token there", async () => {
    // A real second server: whatever reaches it is recorded.
    const elsewhere: IncomingMessage["headers"][] = [];
    const other = createServer((req, res) => {
      elsewhere.push(req.headers);
      sendZip(res);
    });
    const { origin: otherOrigin } = await listen(other);
    try {
      seen.length = 0;
      for (const answered of [
        `${otherOrigin}/arcgis/admin/uploads/i5a1c2f9e`,
        `${otherOrigin}/server/admin/uploads/i5a1c2f9e?x=1`,
      ]) {
        const result = await downloadExport(session(), answered, newDir());
        expect(readFileSync(result.path).equals(zip)).toBe(true);
      }
      expect(elsewhere).toEqual([]);
      expect(seen.filter((x) => x.url.includes("/uploads/")).map((x) => x.url)).toEqual([
        "/arcgis/admin/uploads/i5a1c2f9e",
        "/arcgis/admin/uploads/i5a1c2f9e",
      ]);
    } finally {
      await closeServer(other);
    }
  });

  it("maps the answered URL onto the admin URL's origin and root: another scheme, host or context", () => {
    expect(
      exportDownloadUrl(
        "https://gis.example.com/arcgis/admin",
        "http://gis.example.com/arcgis/admin/uploads/i1",
      ),
    ).toBe("https://gis.example.com/arcgis/admin/uploads/i1");
    expect(
      exportDownloadUrl(
        "https://gis.example.com/server/admin/",
        "https://MACHINE1:6443/arcgis/admin/uploads/i1/download",
      ),
    ).toBe("https://gis.example.com/server/admin/uploads/i1/download");
  });

  it("refuses a download URL outside the administrative root, sending nothing", async () => {
    seen.length = 0;
    for (const answered of [
      `${origin}/arcgis/rest/services`,
      "https://evil.example.com/steal",
      "ftp://gis.example.com/arcgis/admin/uploads/x",
    ]) {
      const e = await failure(downloadExport(session(), answered, newDir()));
      expect(e.code).toBe("BAD_RESPONSE");
      expect(e.message).toMatch(/the admin token is not sent there/);
    }
    expect(seen).toEqual([]);
  });

  it("reports a missing download (HTTP 404 page) as HTTP", async () => {
    const e = await failure(
      downloadExport(session(), `${origin}/arcgis/admin/uploads/gone`, newDir()),
    );
    expect(e.code).toBe("HTTP");
    expect(e.message).toContain('an HTML page (HTTP 404): "Not Found"');
  });

  it("renews the token once when the server answers 498 and then downloads", async () => {
    tokenCount = 0;
    const result = await downloadExport(
      session(),
      `${origin}/arcgis/admin/uploads/expired`,
      newDir(),
    );
    expect(tokenCount).toBe(2);
    expect(result.sizeBytes).toBe(zip.length);
  });

  it("retries a transient 502 (a download is a read)", async () => {
    flakyHits = 0;
    const result = await downloadExport(
      session(),
      `${origin}/arcgis/admin/uploads/flaky`,
      newDir(),
    );
    expect(flakyHits).toBe(2);
    expect(result.fileName).toBe("flaky.agssite");
  });
});

describe("verifyArchive()", () => {
  it("re-hashes a downloaded archive and rejects a file that is not a zip", async () => {
    const dir = newDir();
    const downloaded = await downloadExport(session(), `${origin}/arcgis/admin/uploads/named`, dir);
    await expect(verifyArchive(downloaded.path)).resolves.toEqual(downloaded);
    const bogus = join(dir, "bogus.agssite");
    writeFileSync(bogus, "nope");
    await expect(verifyArchive(bogus)).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });
});

describe("fileNameFromDisposition()", () => {
  it.each([
    ['attachment; filename="a b.agssite"', "a b.agssite"],
    ["attachment; filename=plain.agssite", "plain.agssite"],
    ["attachment; filename*=UTF-8''caf%C3%A9.agssite; filename=\"cafe.agssite\"", "café.agssite"],
    ['attachment; filename="..\\\\..\\\\win.ini"', "win.ini"],
    ['attachment; filename=".."', undefined],
    ["inline", undefined],
  ])("reads %j as %j", (header, expected) => {
    expect(fileNameFromDisposition(header)).toBe(expected);
  });
});
