/**
 * Federation's lifecycle (`implementation` called directly) against emulated servers and the
 * emulated portal, in every federable product: check, create (federate once, then role and
 * function), diff, read (drift, out-of-band unfederate), update in place, delete, delete again;
 * ownership (adoption, destroy of an adopted server); a lost federate answer resolved from the
 * portal's list without a second federate; the server's certificate imported into the portal
 * once, before federating.
 */
import {
  closeDispatchers,
  createNewSite,
  createPortalSession,
  federatedServers,
  unfederateServer,
  updateFederatedServer,
  type ServerType,
} from "../../provider/client";
import { implementation as federation } from "../../provider/resources/federation/lifecycle";
import type { FederationOutputs } from "../../provider/resources/federation/generated";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { generate } from "selfsigned";

const SITE = { username: "siteadmin", password: "fed-Res-Pass-5" };
const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };
const PRODUCTS: ServerType[] = ["mission-server", "notebook-server", "video-server"];

afterAll(() => closeDispatchers());

let emu: TestEmulator;
let proxy: FaultProxy | undefined;

async function start(serverType: ServerType = "mission-server"): Promise<void> {
  emu = await startTestEmulator({ serverType, tls: false, createDelayMs: 0 });
  await createNewSite(emu.adminUrl, { serverType, ...SITE, runAsync: false });
}

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await emu?.close();
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const portal = () => createPortalSession({ sharingUrl: emu.sharingUrl, ...PORTAL });
const federateRequests = () =>
  emu.requestLog().filter((r) => r.url.endsWith("/federation/servers/federate"));

async function checked(extra: Record<string, unknown> = {}, sharingUrl = emu.sharingUrl) {
  const result = await federation.check(
    {},
    {
      sharingUrl,
      ...PORTAL,
      serverType: emu.serverType,
      adminUrl: emu.adminUrl,
      serverUsername: SITE.username,
      serverPassword: SITE.password,
      ...extra,
    },
  );
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

describe("Federation check()", () => {
  it("names every bad field at once: a sharing URL that is no sharing root, an admin URL without /admin, a hosting Mission Server", async () => {
    const result = await federation.check(
      {},
      {
        sharingUrl: "https://portal.example.com/portal/portaladmin",
        ...PORTAL,
        serverType: "mission-server",
        adminUrl: "https://gis.example.com:20443/arcgis",
        serverUsername: "siteadmin",
        serverPassword: "x",
        serverRole: "HOSTING_SERVER",
      },
    );
    expect(result.failures?.map((f) => f.property).sort()).toEqual([
      "adminUrl",
      "serverRole",
      "sharingUrl",
    ]);
  });
});

describe.each(PRODUCTS)("Federation of a %s", (serverType) => {
  it("federates once with the product's function, then reads, updates in place, and unfederates", async () => {
    await start(serverType);
    const inputs = await checked();
    const { id, outs } = await federation.create(inputs);
    const created = outs as FederationOutputs;
    expect(created).toMatchObject({ state: "federated", serverRole: "FEDERATED_SERVER" });
    expect(federateRequests()).toHaveLength(1);
    const expectedFunction = {
      "mission-server": "MissionServer",
      "notebook-server": "NotebookServer",
      "video-server": "VideoServer",
    }[serverType as "mission-server"];
    expect(await federatedServers(portal())).toEqual([
      expect.objectContaining({
        id,
        url: emu.adminUrl.replace(/\/admin$/, ""),
        serverRole: "FEDERATED_SERVER",
        serverFunction: expectedFunction,
      }),
    ]);

    // Nothing changed: no diff. Another spelling of the URLs: no replacement.
    expect(await federation.diff(id, created, inputs)).toEqual({ changes: false });
    const spelled = await checked({
      adminUrl: `${emu.adminUrl.replace("127.0.0.1", "LOCALHOST")}/`,
    });
    expect((await federation.diff(id, created, spelled)).replaces ?? []).toEqual([]);

    // Drift: the function changed on the portal; refresh records it; update writes it back.
    await updateFederatedServer(portal(), id, "FEDERATED_SERVER", "");
    const refreshed = await federation.read(id, created);
    expect(refreshed.props).toMatchObject({ serverFunction: "" });
    const back = await federation.update(id, refreshed.props as FederationOutputs, inputs);
    expect((await federatedServers(portal()))[0]).toMatchObject({
      serverFunction: expectedFunction,
    });
    expect(back.outs).not.toHaveProperty("serverFunction");

    await federation.delete(id, created);
    expect(await federatedServers(portal())).toEqual([]);
    // Destroy again: already gone, nothing sent.
    await federation.delete(id, created);
    expect(emu.requestLog().filter((r) => r.url.endsWith("/unfederate"))).toHaveLength(1);
    expect(federateRequests()).toHaveLength(1);
  });
});

describe("Federation ownership", () => {
  it("refuses a server the portal has federated already unless adoptExisting, and leaves an adopted one federated on destroy", async () => {
    await start();
    const first = await federation.create(await checked());
    await expect(federation.create(await checked())).rejects.toThrow(/adoptExisting: true/);
    const adopted = await federation.create(await checked({ adoptExisting: true }));
    expect(adopted.outs).toMatchObject({ state: "adopted" });
    expect(adopted.id).toBe(first.id);
    await federation.delete(adopted.id, adopted.outs as FederationOutputs);
    expect(await federatedServers(portal())).toHaveLength(1);
    const optedIn = await federation.create(
      await checked({ adoptExisting: true, unfederateAdoptedOnDestroy: true }),
    );
    await federation.delete(optedIn.id, optedIn.outs as FederationOutputs);
    expect(await federatedServers(portal())).toHaveLength(0);
    expect(federateRequests()).toHaveLength(1);
  });

  it("an adopted federation stays adopted after a refresh: destroy leaves it federated", async () => {
    await start();
    const first = await federation.create(await checked());
    const adopted = await federation.create(await checked({ adoptExisting: true }));
    // A refresh reads the portal: the federation is there, as someone else's it stays.
    const refreshed = await federation.read(adopted.id, adopted.outs as FederationOutputs);
    expect(refreshed.props).toMatchObject({ state: "adopted" });
    expect(refreshed.inputs).not.toHaveProperty("state");
    await federation.delete(adopted.id, refreshed.props as FederationOutputs);
    expect((await federatedServers(portal())).map((s) => s.id)).toEqual([first.id]);
    expect(emu.requestLog().filter((r) => r.url.endsWith("/unfederate"))).toHaveLength(0);
  });

  // A server is federated with one portal at a time; the second portal refuses, and the server
  // keeps honouring only the first portal's tokens.
  it("reports a server another portal has federated: refused, nothing federated here", async () => {
    await start();
    const first = await startTestEmulator({ tls: false, createDelayMs: 0 });
    try {
      await federation.create(await checked({}, first.sharingUrl));
      const before = federateRequests().length;
      const failure = federation.create(await checked());
      await expect(failure).rejects.toThrow(
        new RegExp(
          `^The portal ${escape(emu.sharingUrl)} refused to federate ${escape(emu.adminUrl.replace(/\/admin$/, ""))}: ` +
            "the server is federated with another portal already \\(the portal said: .*" +
            `${escape(first.sharingUrl.replace(/\/sharing\/rest$/, ""))}.*\\)\\. A server is federated with one ` +
            "portal at a time: unfederate it from the other portal first, or declare this " +
            "Federation against that portal\\. Nothing was federated\\.$",
        ),
      );
      expect(federateRequests()).toHaveLength(before + 1);
      expect(await federatedServers(portal())).toEqual([]);
    } finally {
      await first.close();
    }
  });

  it("refresh drops a server unfederated out of band; the next create federates it again", async () => {
    await start();
    const inputs = await checked();
    const { id, outs } = await federation.create(inputs);
    await unfederateServer(portal(), id, true);
    expect(await federation.read(id, outs as FederationOutputs)).toEqual({});
    await federation.create(inputs);
    expect(federateRequests()).toHaveLength(2);
  });

  it("replaces for another portal or server, deleting first; role and function are in place", async () => {
    await start();
    const inputs = await checked();
    const { id, outs } = await federation.create(inputs);
    const olds = outs as FederationOutputs;
    expect(
      await federation.diff(id, olds, {
        ...inputs,
        adminUrl: "https://other.example.com:20443/arcgis/admin",
      }),
    ).toEqual({ changes: true, replaces: ["adminUrl"], deleteBeforeReplace: true });
    expect(
      await federation.diff(id, olds, { ...inputs, serverFunction: "MissionServer,Other" }),
    ).toEqual({ changes: true });
  });
});

describe("Federation and a lost federate answer", () => {
  it("finds the outcome in the portal's list and never sends federate twice", async () => {
    await start();
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    proxy.setRule(({ path }) =>
      path.endsWith("/federation/servers/federate")
        ? { kind: "drop-answer", replaceWith: { status: 502 } }
        : undefined,
    );
    const sharingUrl = proxy.url + new URL(emu.sharingUrl).pathname;
    const { outs } = await federation.create(
      await checked({ timeouts: { federateMs: 10_000 } }, sharingUrl),
    );
    expect(outs).toMatchObject({ state: "federated" });
    expect(proxy.seen.filter((s) => s.path.endsWith("/federate"))).toHaveLength(1);
    expect(federateRequests()).toHaveLength(1);
  });

  it("fails without a second federate when the portal never lists the server", async () => {
    await start();
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    proxy.setRule(({ path }) =>
      path.endsWith("/federation/servers/federate") ? { kind: "status", status: 504 } : undefined,
    );
    const sharingUrl = proxy.url + new URL(emu.sharingUrl).pathname;
    await expect(
      federation.create(await checked({ timeouts: { federateMs: 1_500 } }, sharingUrl)),
    ).rejects.toThrow(/federate was not sent again/);
    expect(proxy.seen.filter((s) => s.path.endsWith("/federate"))).toHaveLength(1);
  });
});

/** A CA certificate (PEM) as a server's signer would be. */
async function caPem(name: string): Promise<string> {
  const pems = await generate([{ name: "commonName", value: name }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [{ name: "basicConstraints", cA: true }],
  });
  return pems.cert;
}

describe("Federation and the server's certificate", () => {
  const imports = () =>
    emu.requestLog().filter((r) => r.url.includes("/sslCertificates/importRootOrIntermediate"));

  it("imports it once, before federating; a portal that has it under the alias gets no second import", async () => {
    await start();
    const pem = await caPem("Server CA");
    const serverCertificate = { alias: "serverca", pem, restartWaitMs: 0 };
    const inputs = await checked({ serverCertificate });
    const { id, outs } = await federation.create(inputs);
    expect(imports()).toHaveLength(1);
    const log = emu.requestLog().map((r) => r.url);
    const imported = log.findIndex((u) => u.includes("importRootOrIntermediate"));
    const federated = log.findIndex((u) => u.endsWith("/federation/servers/federate"));
    expect(imported).toBeGreaterThan(-1);
    expect(imported).toBeLessThan(federated);
    // Another federation (after an out-of-band unfederate) with the same alias and certificate.
    await unfederateServer(portal(), id, true);
    await federation.create(inputs);
    expect(imports()).toHaveLength(1);
    expect(federateRequests()).toHaveLength(2);
    // The same certificate written with other line breaks is no change.
    const olds = outs as FederationOutputs;
    expect(
      await federation.diff(id, olds, {
        ...inputs,
        serverCertificate: { ...serverCertificate, pem: pem.replace(/\n/g, "\r\n") },
      }),
    ).toEqual({ changes: false });
  });

  it("never overwrites another certificate under the alias, and federates nothing then", async () => {
    await start();
    const first = await federation.create(
      await checked({
        serverCertificate: { alias: "serverca", pem: await caPem("Old CA"), restartWaitMs: 0 },
      }),
    );
    await federation.delete(first.id, first.outs as FederationOutputs);
    const inputs = await checked({
      serverCertificate: { alias: "serverca", pem: await caPem("New CA"), restartWaitMs: 0 },
    });
    await expect(federation.create(inputs)).rejects.toThrow(
      /keeps another certificate under the alias serverca .* It is not replaced/,
    );
    expect(imports()).toHaveLength(1);
    expect(federateRequests()).toHaveLength(1);
  });

  it("a renewed CA under a new alias is imported by an update in place, without federating again", async () => {
    await start();
    const inputs = await checked({
      serverCertificate: { alias: "ca2025", pem: await caPem("CA 2025"), restartWaitMs: 0 },
    });
    const { id, outs } = await federation.create(inputs);
    const news = await checked({
      serverCertificate: { alias: "ca2026", pem: await caPem("CA 2026"), restartWaitMs: 0 },
    });
    expect(await federation.diff(id, outs as FederationOutputs, news)).toEqual({ changes: true });
    const updated = await federation.update(id, outs as FederationOutputs, news);
    expect(updated.outs).toMatchObject({ serverCertificate: { alias: "ca2026" } });
    expect(imports()).toHaveLength(2);
    expect(federateRequests()).toHaveLength(1);
  });

  it("names a bad certificate field", async () => {
    await start();
    const result = await federation.check(
      {},
      {
        sharingUrl: emu.sharingUrl,
        ...PORTAL,
        serverType: emu.serverType,
        adminUrl: emu.adminUrl,
        serverUsername: SITE.username,
        serverPassword: SITE.password,
        serverCertificate: { alias: "bad alias", pem: "not a certificate" },
      },
    );
    expect(result.failures?.map((f) => f.property)).toEqual(
      expect.arrayContaining(["serverCertificate.alias", "serverCertificate.pem"]),
    );
  });
});
