/**
 * Chef's and DSC's federation exchanges, rebuilt from their files and replayed with plain undici
 * against the emulator's portal and a Mission Server site, each checked for what that tool reads:
 *
 * - Chef, Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb`: `generate_token` (POST
 *   sharing/rest/generateToken: username, password, client=referer, referer=referer,
 *   expiration=600, f=json; reads `token`), `servers` (GET sharing/rest/portals/self/servers/ with
 *   token and f in the query, Referer `referer`; reads `servers`, each server's `url` in
 *   `providers/portal.rb`), `federate_server` (POST portaladmin/federation/servers/federate: token,
 *   url, adminUrl, username, password, f; reads `serverId`), `update_server` (POST
 *   …/<id>/update: token, serverRole, serverFunction, f; reads `serverId`), `unfederate_server`
 *   (POST …/<id>/unfederate: token, forceUnfederate, f); `validate_response` fails on an `error`
 *   member of a 200 answer.
 * - Chef's server side, `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb` at the same
 *   commit: `generate_token` (POST admin/generateToken: username, password, client=referer,
 *   referer=referer, expiration=600, f=json) and `security_configuration` (POST
 *   admin/security/config: token, f; reads authenticationMode, authenticationTier,
 *   portalProperties); its `federate` writes the values a federated server shows.
 * - DSC, Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1`: `Get-FederatedServers`
 *   (GET portaladmin/federation/servers/ with f and token; finds the server by `url` and
 *   `adminUrl`, case-insensitively), `Invoke-FederateServer` (f, url, adminUrl, username,
 *   password, token; fails on `error`), `Update-FederatedServer` (f, token, serverRole,
 *   serverFunction), `Invoke-UnFederateServer` (f, token); `Get-PortalToken` in
 *   `Modules/ArcGIS/Modules/ArcGIS.Common/ArcGIS.Common.psm1` (username, password, referer, f);
 *   after unfederating, `Get-ServerToken` (same file: POST admin/generateToken with username,
 *   password, client=referer, referer, expiration=1000, f) and `Get-SecurityConfig` (POST
 *   admin/security/config/ with f and token; reads `authenticationTier`, resetting it to
 *   GIS_SERVER when it still says ARCGIS_PORTAL).
 * - Chef's `:import_root_cert` (`providers/portal.rb`; `ssl_certificate_exist?` and
 *   `add_root_cert` in portal_admin_client.rb): GET `<sslCertificates>/<alias>` (present when
 *   `entryType` is `PrivateKeyEntry` or `trustedCertEntry`; any failure: absent), then a multipart
 *   POST of `file`, `alias`, `norestart=false`, token, f to `<sslCertificates>/importRootOrIntermediate`
 *   (an `error` member is a failure). `<sslCertificates>` is `portaladmin/security/sslCertificates`
 *   when the per-machine resource does not answer (`ssl_certificates_url`'s rescue).
 */
import { Agent, FormData, request } from "undici";
import { generate } from "selfsigned";
import { closeDispatchers, createNewSite } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const SITE = { username: "siteadmin", password: "conf-Fed-Pass-2" };
const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;
let agent: Agent;

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 0 });
  await createNewSite(emu.adminUrl, { ...SITE, runAsync: false }, { tls: { caCert: emu.caCert! } });
  agent = new Agent({ connect: { ca: emu.caCert! } });
});
afterAll(async () => {
  await agent?.close();
  await emu?.close();
  await closeDispatchers();
});

const portalRoot = () => emu.sharingUrl.replace(/\/sharing\/rest$/, "");
/** The server's site root, which both tools send as `adminUrl` (Chef: the server's private_url). */
const siteRoot = () => emu.adminUrl.replace(/\/admin$/, "");

async function send(
  method: "GET" | "POST",
  path: string,
  form: Record<string, string>,
  referer: string,
  root: string = portalRoot(),
): Promise<Record<string, unknown>> {
  const url = new URL(`${root}${path}`);
  let body: string | undefined;
  if (method === "GET") for (const [k, v] of Object.entries(form)) url.searchParams.set(k, v);
  else body = new URLSearchParams(form).toString();
  const answer = await request(url, {
    method,
    dispatcher: agent,
    headers: {
      referer,
      ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
    },
    ...(body === undefined ? {} : { body }),
  });
  expect(answer.statusCode).toBe(200);
  const parsed = (await answer.body.json()) as Record<string, unknown>;
  // Both tools treat an `error` member as a failure.
  expect(parsed).not.toHaveProperty("error");
  return parsed;
}

it("answers Chef's federation as arcgis_enterprise_portal reads it", async () => {
  const referer = "referer";
  const { token } = (await send(
    "POST",
    "/sharing/rest/generateToken",
    {
      ...PORTAL,
      client: "referer",
      referer,
      expiration: "600",
      f: "json",
    },
    referer,
  )) as { token: string };
  expect(token).toEqual(expect.any(String));
  const list = async () =>
    (await send("GET", "/sharing/rest/portals/self/servers/", { token, f: "json" }, referer))
      .servers as Array<Record<string, unknown>>;
  expect((await list()).find((s) => s.url === siteRoot())).toBeUndefined();
  const federated = await send(
    "POST",
    "/portaladmin/federation/servers/federate",
    { token, url: siteRoot(), adminUrl: siteRoot(), ...SITE, f: "json" },
    referer,
  );
  expect(federated.serverId).toEqual(expect.any(String));
  const id = federated.serverId as string;
  expect((await list()).find((s) => s.url === siteRoot())).toMatchObject({ id });
  const updated = await send(
    "POST",
    `/portaladmin/federation/servers/${id}/update`,
    { token, serverRole: "FEDERATED_SERVER", serverFunction: "MissionServer", f: "json" },
    referer,
  );
  expect(updated.serverId).toBe(id);
  // The server's side: server_admin_client.rb `generate_token`, then `security_configuration`.
  const server = await send(
    "POST",
    "/admin/generateToken",
    { ...SITE, client: "referer", referer, expiration: "600", f: "json" },
    referer,
    siteRoot(),
  );
  const config = await send(
    "POST",
    "/admin/security/config",
    { token: server.token as string, f: "json" },
    referer,
    siteRoot(),
  );
  expect(config).toMatchObject({
    authenticationMode: "ARCGIS_PORTAL_TOKEN",
    authenticationTier: "ARCGIS_PORTAL",
    portalProperties: {
      portalUrl: portalRoot(),
      portalMode: "ARCGIS_PORTAL_FEDERATION",
      serverId: id,
      serverUrl: siteRoot(),
    },
  });
  await send(
    "POST",
    `/portaladmin/federation/servers/${id}/unfederate`,
    { token, forceUnfederate: "true", f: "json" },
    referer,
  );
  expect(await list()).toEqual([]);
});

it("answers DSC's ArcGIS_Federation as it reads it", async () => {
  const referer = `${portalRoot()}`;
  const { token } = (await send(
    "POST",
    "/sharing/rest/generateToken",
    { ...PORTAL, referer, f: "json" },
    referer,
  )) as { token: string };
  const find = async () =>
    (
      (await send("GET", "/portaladmin/federation/servers/", { f: "json", token }, referer))
        .servers as Array<Record<string, string>>
    ).find(
      (s) =>
        s.url?.toLowerCase() === siteRoot().toLowerCase() &&
        s.adminUrl?.toLowerCase() === siteRoot().toLowerCase(),
    );
  expect(await find()).toBeUndefined();
  await send(
    "POST",
    "/portaladmin/federation/servers/federate",
    { f: "json", url: siteRoot(), adminUrl: siteRoot(), ...SITE, token },
    referer,
  );
  const server = await find();
  expect(server).toMatchObject({ serverRole: "FEDERATED_SERVER" });
  await send(
    "POST",
    `/portaladmin/federation/servers/${server!.id}/update`,
    { f: "json", token, serverRole: "FEDERATED_SERVER", serverFunction: "MissionServer" },
    referer,
  );
  // DSC splits serverFunction on commas and compares the parts.
  expect((await find())?.serverFunction?.split(",")).toEqual(["MissionServer"]);
  await send(
    "POST",
    `/portaladmin/federation/servers/${server!.id}/unfederate`,
    { f: "json", token },
    referer,
  );
  expect(await find()).toBeUndefined();
  // Get-ServerToken, then Get-SecurityConfig: the server no longer says ARCGIS_PORTAL.
  const serverToken = await send(
    "POST",
    "/admin/generateToken",
    { ...SITE, client: "referer", referer, expiration: "1000", f: "json" },
    referer,
    siteRoot(),
  );
  const config = await send(
    "POST",
    "/admin/security/config/",
    { f: "json", token: serverToken.token as string },
    referer,
    siteRoot(),
  );
  expect(config.authenticationTier).toBe("GIS_SERVER");
});

it("answers Chef's :import_root_cert as ssl_certificate_exist? and add_root_cert read it", async () => {
  const referer = "referer";
  const { token } = (await send(
    "POST",
    "/sharing/rest/generateToken",
    { ...PORTAL, client: "referer", referer, expiration: "600", f: "json" },
    referer,
  )) as { token: string };
  const keystore = `${portalRoot()}/portaladmin/security/sslCertificates`;
  const exists = async (alias: string) => {
    const url = new URL(`${keystore}/${alias}`);
    url.searchParams.set("token", token);
    url.searchParams.set("f", "json");
    const answer = await request(url, { dispatcher: agent, headers: { referer } });
    const parsed = (await answer.body.json()) as Record<string, unknown>;
    return ["PrivateKeyEntry", "trustedCertEntry"].includes(String(parsed.entryType));
  };
  expect(await exists("serverca")).toBe(false);
  const { cert } = await generate([{ name: "commonName", value: "Conformance CA" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [{ name: "basicConstraints", cA: true }],
  });
  const form = new FormData();
  form.set("file", new Blob([cert], { type: "application/x-x509-ca-cert" }), "serverca.cer");
  form.set("alias", "serverca");
  form.set("norestart", "false");
  form.set("token", token);
  form.set("f", "json");
  const imported = await request(`${keystore}/importRootOrIntermediate`, {
    method: "POST",
    dispatcher: agent,
    headers: { referer },
    body: form,
  });
  expect(imported.statusCode).toBe(200);
  const answer = (await imported.body.json()) as Record<string, unknown>;
  expect(answer).not.toHaveProperty("error");
  expect(answer).toEqual({ status: "success" });
  expect(await exists("serverca")).toBe(true);
});
