/**
 * The client against the conformance corpus: for every case, the client performs `case.client`
 * against a real local HTTP server that records the request and answers `case.answer`; the test
 * asserts that the client sent the case's request and read the answer as the case says.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import {
  DEFAULT_REFERER,
  TokenCache,
  closeDispatchers,
  createAdminSession,
  createNewSite,
  createPortalSite,
  portalSiteStatus,
  editLogSettings,
  exportSite,
  generateToken,
  importSite,
  listUploadedItems,
  uploadItem,
  getLogSettings,
  healthCheck,
  joinSite,
  listMachines,
  serverInfo,
  siteStatus,
  unregisterMachine,
  completeUpgrade,
  getSystemProperties,
  getUpgradeStatus,
  listSslCertificates,
  updateSystemProperties,
} from "../../provider/client";
import { closeServer, listen } from "../../tools/harness/servers";
import type { ConformanceCase, Json } from "./corpus";
import { CASES } from "./index";
import { conformingValue, requestDifferences, type ReceivedRequest } from "./match";
import { runTempDir } from "../../tools/harness/temp";

const TOKEN = "conformance-token-0123456789";

interface Recorded extends ReceivedRequest {
  tokenSent: boolean;
  /** File parts of a multipart request: name and size of each. */
  files: Record<string, { fileName: string; size: number }>;
}

/** The answer body: the case's expected body with conforming values, and the values `expect` names. */
function answerBody(c: ConformanceCase): Json | undefined {
  if (c.answer.body === undefined) return undefined;
  const body = conformingValue(c.answer.body) as Record<string, Json>;
  if (c.client.operation === "serverInfo") Object.assign(body, c.client.expect);
  if (c.client.operation === "getLogSettings") {
    const holder = (typeof body["settings"] === "object" ? body["settings"] : body) as Record<
      string,
      Json
    >;
    holder["logLevel"] = c.client.expect.logLevel;
  }
  return body;
}

async function replay(c: ConformanceCase, exportFolder: string) {
  const recorded: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => void answer(req, res, Buffer.concat(chunks)));
  });
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const contentType = req.headers["content-type"] ?? "";
    const files: Recorded["files"] = {};
    let params: Record<string, string>;
    if (req.method === "POST" && /^multipart\/form-data/i.test(contentType)) {
      const form = await new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": contentType },
        body: new Uint8Array(raw),
      }).formData();
      params = {};
      for (const [name, value] of form) {
        if (typeof value === "string") params[name] = value;
        else files[name] = { fileName: value.name, size: value.size };
      }
    } else {
      params = Object.fromEntries(
        req.method === "POST" ? new URLSearchParams(raw.toString()) : url.searchParams,
      );
    }
    const apiPath = url.pathname.replace(/^\/arcgis/, "");
    if (apiPath === "/admin/generateToken" && c.client.operation !== "generateToken") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ token: TOKEN, expires: Date.now() + 3_600_000 }));
      return;
    }
    const tokenSent =
      params["token"] === TOKEN || req.headers["x-esri-authorization"] === `Bearer ${TOKEN}`;
    recorded.push({ method: req.method ?? "", path: apiPath, params, tokenSent, files });
    const status = typeof c.answer.httpStatus === "number" ? c.answer.httpStatus : 503;
    const body = answerBody(c);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body === undefined ? "" : JSON.stringify(body));
  };
  const { origin } = await listen(server);
  const adminUrl = `${origin}/arcgis/admin`;
  const sharingUrl = `${origin}/arcgis/sharing/rest`;
  const session = () =>
    createAdminSession({
      adminUrl,
      username: "siteadmin",
      password: "Example-passw0rd",
      tokenCache: new TokenCache(),
    });
  try {
    const call = c.client;
    let outcome: unknown;
    switch (call.operation) {
      case "createNewSite":
        outcome = await createNewSite(adminUrl, { serverType: c.serverType, ...call.input });
        break;
      case "siteStatus":
        outcome = (await siteStatus(adminUrl)).state;
        break;
      case "createPortalSite":
        outcome = await createPortalSite(sharingUrl, call.input);
        break;
      case "portalSiteStatus":
        outcome = (await portalSiteStatus(sharingUrl)).state;
        break;
      case "healthCheck": {
        const token = c.request.token ? await session().token() : undefined;
        outcome = (await healthCheck(adminUrl, { serverType: c.serverType, token })).state;
        break;
      }
      case "serverInfo":
        outcome = await serverInfo(adminUrl);
        break;
      case "generateToken":
        outcome = await generateToken({
          tokenUrl: `${adminUrl}/generateToken`,
          ...call.input,
          referer: DEFAULT_REFERER,
        });
        break;
      case "getLogSettings":
        outcome = await getLogSettings(session());
        break;
      case "editLogSettings":
        outcome = await editLogSettings(session(), call.input);
        break;
      case "exportSite":
        outcome = await exportSite(session(), {
          location: call.input.location?.replace("{exportFolder}", exportFolder),
        });
        break;
      case "importSite":
        outcome = await importSite(session(), {
          location: call.input.location,
          serverType: c.serverType,
        });
        break;
      case "uploadItem": {
        // The case names its file by a placeholder: a real local file stands for it.
        const file = path.join(exportFolder, "20250101-120000-UTC.agssite");
        fs.writeFileSync(file, "PK archive bytes");
        outcome = await uploadItem(session(), {
          file,
          ...(call.input.description === undefined ? {} : { description: call.input.description }),
        });
        break;
      }
      case "listUploadedItems":
        outcome = await listUploadedItems(session());
        break;
      case "joinSite":
        outcome = await joinSite(adminUrl, { serverType: c.serverType, ...call.input });
        break;
      case "listMachines":
        outcome = await listMachines(session());
        break;
      case "unregisterMachine":
        outcome = await unregisterMachine(session(), call.input.machineName);
        break;
      case "getUpgradeStatus":
        outcome = await getUpgradeStatus(adminUrl);
        break;
      case "completeUpgrade":
        outcome = await completeUpgrade(adminUrl, { serverType: c.serverType });
        break;
      case "getSystemProperties":
        outcome = await getSystemProperties(session());
        break;
      case "updateSystemProperties":
        outcome = await updateSystemProperties(session(), call.input.properties);
        break;
      case "listSslCertificates":
        outcome = await listSslCertificates(session(), call.input.machineName);
        break;
    }
    return { recorded, outcome };
  } finally {
    await closeServer(server);
  }
}

/** The case with its placeholders replaced: the folder of this run, a site URL, a machine name. */
function resolved(c: ConformanceCase, exportFolder: string): ConformanceCase {
  return JSON.parse(
    JSON.stringify(c)
      .replaceAll("{exportFolder}", exportFolder.replaceAll("\\", "\\\\"))
      .replaceAll("{archive}", "/opt/backups/20250101-120000-UTC.agssite")
      .replaceAll("{uploadId}", "i5fad5582-80bc-4155-a21c-62f326354aba")
      .replaceAll("{siteAdminUrl}", "https://site.example.com:20443/arcgis/admin")
      .replaceAll("{joinedMachine}", "MACHINE2.EXAMPLE.COM")
      .replaceAll("{siteMachine}", "MACHINE1.EXAMPLE.COM"),
  ) as ConformanceCase;
}

afterAll(() => closeDispatchers());

describe("the client against the conformance corpus", () => {
  const exportFolder = runTempDir("conformance-export-");
  afterAll(() => fs.rmSync(exportFolder, { recursive: true, force: true }));

  it.each(CASES.filter((c) => c.client.operation !== "none").map((c) => [c.name, c] as const))(
    "%s: sends the case's request and reads its answer",
    async (_name, raw) => {
      const c = resolved(raw, exportFolder);
      const { recorded, outcome } = await replay(c, exportFolder);
      expect(recorded).toHaveLength(1);
      const [request] = recorded;
      expect(requestDifferences(c, request!)).toEqual([]);
      expect(request!.tokenSent).toBe(c.request.token === true);
      // File parts: exactly the case's, each with a file name and content.
      expect(Object.keys(request!.files).sort()).toEqual(Object.keys(c.request.files ?? {}).sort());
      for (const part of Object.values(request!.files)) {
        expect(part.fileName).toMatch(/\.agssite$/);
        expect(part.size).toBeGreaterThan(0);
      }

      const call = c.client;
      switch (call.operation) {
        case "createNewSite":
        case "createPortalSite":
        case "editLogSettings":
        case "importSite":
          expect(outcome).toMatchObject({ status: "success" });
          break;
        case "siteStatus":
        case "portalSiteStatus":
        case "healthCheck":
          expect(outcome).toBe(call.expect);
          break;
        case "serverInfo":
          expect(outcome).toEqual(expect.objectContaining(call.expect));
          break;
        case "getLogSettings":
          expect(outcome).toMatchObject(call.expect);
          break;
        case "generateToken":
          expect(outcome).toEqual({ token: "text", expires: 1 });
          break;
        case "exportSite":
          expect(outcome).toEqual({ location: "text" });
          break;
        case "uploadItem":
          expect(outcome).toEqual({ itemID: "text" });
          break;
        case "listUploadedItems":
          expect(outcome).toEqual([]);
          break;
        case "joinSite":
          expect(outcome).toMatchObject({ status: "success" });
          break;
        case "listMachines":
          expect(outcome).toHaveLength(call.expect.count);
          break;
        case "unregisterMachine":
        case "updateSystemProperties":
          expect(outcome).toBeUndefined();
          break;
        case "getUpgradeStatus":
          expect(outcome).toMatchObject(call.expect);
          break;
        case "completeUpgrade":
          expect(outcome).toEqual({ mode: "sync" });
          break;
        case "getSystemProperties":
          expect(outcome).toEqual(c.answer.body);
          break;
        case "listSslCertificates":
          expect(outcome).toEqual(call.expect);
          break;
      }
    },
  );
});
