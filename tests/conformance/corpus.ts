/**
 * The conformance corpus: exchanges that Esri's own tools perform against real servers, or that
 * Esri's documentation shows, each with the source it is taken from. The emulator is tested by
 * replaying each request and checking the answer (tests/conformance/emulator.test.ts); the client
 * is tested by making it send the same request, key order aside, and parse the recorded answer
 * (tests/conformance/client.test.ts). A case states only what its source shows; what the source
 * leaves open is listed in the case's `assumptions` and in docs/emulator.md.
 */
import type { CreatePortalSiteParams } from "../../provider/client";

/** The server products the project speaks to. */
export type ServerType = "mission-server" | "arcgis-server" | "notebook-server" | "video-server";

/** JSON values as they travel in a form parameter or an answer. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where an exchange is taken from: a file in an Esri repository, or a documentation page. */
export type Source =
  | {
      /** e.g. "Esri/arcgis-cookbook". */
      repository: string;
      /** Path in the repository. */
      path: string;
      /** Commit the file was read at. */
      commit: string;
      /** Function or block that performs the exchange. */
      symbol: string;
    }
  | {
      /** Documentation page. */
      url: string;
      /** What the page states that the case relies on. */
      states: string;
    }
  | {
      /** An Esri client library as published, e.g. "arcgis" (the ArcGIS API for Python). */
      package: string;
      /** Where it is published, e.g. "PyPI". */
      registry: string;
      /** The version read. */
      version: string;
      /** File in the package (not `path`: readers tell repository sources by that key). */
      file: string;
      /** Function or block that performs the exchange. */
      symbol: string;
      /** Never set: declared so that code reading `url` of a non-repository source still types. */
      url?: undefined;
    };

/** The request as the source sends it. */
export interface CaseRequest {
  method: "GET" | "POST";
  /** Path below the server's context root (`/arcgis`), e.g. `/admin/createNewSite`. */
  path: string;
  /** `portal`: the path is below the portal's context root (`/portal`) instead. */
  root?: "portal";
  /**
   * Form fields (POST) or query parameters (GET), as the source sends them. Parameters whose value
   * is JSON text are given here as the parsed value and listed in `jsonParams`.
   */
  params: Record<string, Json>;
  /** Names of the parameters whose value is JSON text. */
  jsonParams?: string[];
  /**
   * Whether the source sends an admin token with it (the value is never part of a case); `portal`:
   * a token of the portal's administrator instead, as Chef sends to a server its portal federated.
   */
  token?: boolean | "portal";
  /**
   * File parts: the request is `multipart/form-data`, with these parameters carrying a file
   * (parameter name to the placeholder of the file sent, e.g. `{archive}`).
   */
  files?: Record<string, string>;
  /**
   * How a multipart request carries the token: as a form field (`form`, the default: Chef), or in
   * the `X-Esri-Authorization` header (`header`: DSC to Mission, Notebook and Video Server).
   */
  multipartToken?: "form" | "header";
}

/** The answer the source shows, or reads. */
export interface CaseAnswer {
  /** HTTP status; `{ not: 200 }` where the source states only that it is not 200. */
  httpStatus: number | { not: number };
  /**
   * Fields the answer must have, with these values (a partial match at every level: other fields
   * may exist). Where a source reads a value without fixing it, the value is a {@link Matcher}.
   */
  body?: { [key: string]: Expected };
}

/** A value the source reads without fixing it (keys start with `$` so no real field clashes). */
export type Matcher =
  { $anyOf: Json[] } | { $type: "string" | "number" | "boolean" | "array" } | { $not: Json };

/** An expected value: exact JSON, a matcher, or an object/array of expected values. */
export type Expected = Json | Matcher | { [key: string]: Expected } | Expected[];

/** What the client is asked to do for a case, in the user's vocabulary (Site's input names). */
export type ClientCall =
  | {
      operation: "createNewSite";
      input: {
        username: string;
        password: string;
        configStoreConnection?: {
          type: "FILESYSTEM" | "AZURE" | "AMAZON";
          connectionString: string;
          username?: string;
          connectionSecret?: string;
        };
        directories?: Array<{
          name: string;
          physicalPath: string;
          directoryType: string;
          cleanupMode?: string;
          maxFileAge?: number;
          description?: string;
        }>;
        logSettings?: {
          logLevel: string;
          logDir?: string;
          maxErrorReportsCount: number;
          maxLogFileAge: number;
          usageMeteringEnabled?: boolean;
        };
        runAsync: boolean;
      };
    }
  | { operation: "siteStatus"; expect: "in-site" | "no-site" }
  | { operation: "healthCheck"; expect: "healthy" | "unhealthy" }
  | { operation: "serverInfo"; expect: { currentVersion: number; fullVersion?: string } }
  | { operation: "generateToken"; input: { username: string; password: string } }
  | { operation: "getLogSettings"; expect: { logLevel: string } }
  | {
      operation: "editLogSettings";
      input: {
        logLevel: string;
        logDir: string;
        maxErrorReportsCount: number;
        maxLogFileAge: number;
        usageMeteringEnabled?: boolean;
      };
    }
  | { operation: "exportSite"; input: { location?: string } }
  | { operation: "importSite"; input: { location: string } }
  | { operation: "uploadItem"; input: { file: string; description?: string } }
  | { operation: "listUploadedItems" }
  /** `{siteAdminUrl}` stands for the admin URL of the site's machine. */
  | { operation: "joinSite"; input: { siteAdminUrl: string; username: string; password: string } }
  | { operation: "listMachines"; expect: { count: number } }
  /** `{joinedMachine}` stands for the name of the site's second machine. */
  | { operation: "unregisterMachine"; input: { machineName: string } }
  /** `getUpgradeStatus`: the state the answer means (no token). */
  | {
      operation: "getUpgradeStatus";
      expect: { state: "required" | "in-progress" | "not-required"; required: boolean };
    }
  /** `completeUpgrade`, synchronously (no token). */
  | { operation: "completeUpgrade" }
  | { operation: "getSystemProperties" }
  | { operation: "updateSystemProperties"; input: { properties: { [key: string]: Json } } }
  /** `{siteMachine}` stands for the name of the site's machine. */
  | { operation: "listSslCertificates"; input: { machineName: string }; expect: string[] }
  /** PortalSite's createNewSite on a portal, in the client's vocabulary. */
  | { operation: "createPortalSite"; input: CreatePortalSiteParams }
  /** PortalSite's token-less read of the portal's administrative root. */
  | { operation: "portalSiteStatus"; expect: "in-site" | "no-site" }
  /** The client performs no such exchange: the case is the emulator's evidence only. */
  | { operation: "none"; why: string };

/** One exchange. */
export interface ConformanceCase {
  /** Unique, kebab-case; also the file name. */
  name: string;
  /** The product the exchange is performed against. */
  serverType: ServerType;
  /** Product version the source targets, where it matters (e.g. "10.8"). */
  version?: string;
  /** The evidence. At least one. */
  sources: Source[];
  /** The machine's state before the exchange. */
  /**
   * `joining-machine`: a site exists on a first machine, and the request goes to a second machine
   * of the product that is in no site (`{siteAdminUrl}` in a parameter is the first machine's
   * admin URL). `two-machine-site`: the second machine has joined the first one's site, and the
   * request goes to the first (`{joinedMachine}` in the path is the second machine's name).
   */
  /**
   * `site-with-web-adaptor`: a site with one Web Adaptor registered (`{webAdaptorId}` in the path is
   * its id), and the portal with another (`{portalWebAdaptorId}`). `upgrade-required`: a site whose emulator was restarted with the case's version as
   * the server version and `upgradeFrom` as the site's former version (the software upgraded, the
   * site not yet). `federated-site`: a site the emulator's own portal has federated.
   * `federated-with-another-portal`: a site another emulator's portal has federated (the request
   * goes to the first emulator's own portal).
   * `portal-no-site`: no server site, and the emulator's portal started in no site (`portalNoSite`);
   * in every other state the portal has its site.
   * `site-with-certificates`: a site whose machine imported a test CA as the root `rootca` and a
   * server certificate it signed as `gisserver.example.com` (`{rootCertificate}`, `{serverPfx}` and
   * `{pfxPassword}` name the same files and password).
   */
  given:
    | "no-site"
    | "portal-no-site"
    | "site"
    | "site-being-created"
    | "joining-machine"
    | "two-machine-site"
    | "site-with-web-adaptor"
    | "upgrade-required"
    | "federated-site"
    | "federated-with-another-portal"
    | "site-with-certificates";
  /** For `upgrade-required`: the version the site was at before the software was upgraded. */
  upgradeFrom?: string;
  request: CaseRequest;
  answer: CaseAnswer;
  /** How the client is made to perform the same exchange, and what it must conclude. */
  client: ClientCall;
  /**
   * What the source reads next, to see the exchange's effect (e.g. the properties an update
   * wrote), sent with the same token.
   */
  followUp?: { request: CaseRequest; answer: CaseAnswer };
  /**
   * Parameters where the client's request may differ from the source's, each with the reason
   * (e.g. a random id one tool adds, or `f=pjson` where the client asks for `json`).
   */
  clientMayDiffer?: Record<string, string>;
  /** What the case assumes beyond its sources (each also listed in docs/emulator.md). */
  assumptions?: string[];
}
