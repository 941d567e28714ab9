/**
 * `pulumi import` of a Federation (through the provider plugin): the id is the portal's id of the
 * server (the Federation's own id), or the server's administrative or services URL. What the
 * portal lists gives the inputs (the server's URLs, product, role and function); the result is
 * recorded as `adopted`, so destroy leaves the server federated unless
 * `unfederateAdoptedOnDestroy` is set. Nothing is sent but the list.
 */
import {
  type FederatedServer,
  federatedServers,
  SERVER_TYPES,
  type ServerType,
} from "../../client";
import { type ImportId, type Importer, type Values } from "../common/pulumi/importer";
import { explained, messageOf } from "../common/messages/failures";
import { portalSessionFor, type PortalAccess } from "../common/connection/portal";
import { sameUrl } from "../common/connection/urls";
import { serverTypeOfId } from "../site/import";
import { DEFAULT_SERVER_FUNCTION, siteRootOf } from "./server";
import { FEDERATION } from "./definition";
import type { FederationOutputs } from "./generated";

/** The product of the portal's `serverType` (Esri's names; the emulator's evidence). */
const PORTAL_SERVER_TYPES: Record<string, ServerType> = {
  ARCGIS_MISSION_SERVER: "mission-server",
  ARCGIS_NOTEBOOK_SERVER: "notebook-server",
  ARCGIS_VIDEO_SERVER: "video-server",
  ArcGIS: "arcgis-server",
};

/** The server the id names in the portal's list: its id, or one of its URLs in any spelling. */
function serverOfId(servers: FederatedServer[], id: ImportId): FederatedServer | undefined {
  const byId = servers.find((s) => s.id === id.main);
  if (byId !== undefined || !/^https?:\/\//i.test(id.main)) return byId;
  const root = siteRootOf(id.main);
  return servers.find(
    (s) =>
      sameUrl(s.url, id.main) ||
      sameUrl(s.url, root) ||
      (s.adminUrl !== undefined && sameUrl(s.adminUrl, root)),
  );
}

async function listed(id: ImportId, connection: Values): Promise<FederatedServer> {
  const access = connection as unknown as PortalAccess;
  const servers = await explained(
    () => federatedServers(portalSessionFor(access)),
    (error) =>
      `Cannot import the Federation "${id.text}": the servers of the portal ${access.sharingUrl} ` +
      `cannot be read (${messageOf(error)}).`,
  );
  const server = serverOfId(servers, id);
  if (server === undefined) {
    throw new Error(
      `Cannot import the Federation "${id.text}": the portal ${access.sharingUrl} lists no ` +
        `federated server with that id or URL (it lists ${servers.length === 0 ? "none" : servers.map((s) => `${s.id} ${s.url}`).join(", ")}).`,
    );
  }
  return server;
}

/** @internal */
export const importer: Importer = {
  idFormat: "<serverId | the server's adminUrl or services URL>[,serverType=<type>]",
  options: ["serverType"],
  fromId: () => ({}),
  async declared(id, connection) {
    const server = await listed(id, connection);
    const serverType =
      serverTypeOfId("Federation", id.options.serverType) ??
      PORTAL_SERVER_TYPES[server.serverType ?? ""];
    if (serverType === undefined) {
      throw new Error(
        `Cannot import the Federation "${id.text}": serverType: the portal reports the server's ` +
          `type as "${server.serverType ?? ""}"; add ,serverType=<${SERVER_TYPES.join("|")}> to ` +
          "the import id.",
      );
    }
    const root = siteRootOf(server.adminUrl ?? server.url);
    const declared: Values = {
      serverType,
      adminUrl: `${root}/admin`,
      serverRole: server.serverRole ?? "FEDERATED_SERVER",
    };
    // Only what differs from the defaults a program would leave out.
    if (!sameUrl(server.url, root)) declared.serverUrl = server.url;
    const serverFunction = server.serverFunction ?? "";
    if (serverFunction !== DEFAULT_SERVER_FUNCTION[serverType]) {
      declared.serverFunction = serverFunction;
    }
    return declared;
  },
  async adopt(id, raw) {
    const inputs = FEDERATION.parse(raw);
    const server = await listed(id, inputs as unknown as Values);
    const outs: FederationOutputs = {
      ...inputs,
      serverId: server.id,
      state: "adopted",
      serverName: server.name ?? "",
      portalServerType: server.serverType ?? "",
    };
    return { id: server.id, outs: outs as unknown as Values };
  },
};
