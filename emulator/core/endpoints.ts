/** What a started emulator hands back: its addresses (the ready line) and its control surface. */
import type { ServerType } from "./products";
import type { EmulatorStats, RequestLogEntry } from "./runtime";

/** The addresses a running emulator prints on its ready line. */
export interface EmulatorEndpoints {
  /** `{scheme}://{host}:{port}/arcgis/admin`, the server's admin root. */
  readonly adminUrl: string;
  /** `{scheme}://{host}:{port}/portal/sharing/rest`, the portal's sharing root. */
  readonly sharingUrl: string;
  /**
   * The product's health check: `.../arcgis/rest/healthcheck` (Mission Server),
   * `.../arcgis/rest/info/healthCheck` (ArcGIS Server), `.../arcgis/rest/info/healthcheck`
   * (Notebook and Video Server).
   */
  readonly healthUrl: string;
  /** PEM file to trust (pass as `ca`), or null without TLS. */
  readonly caCertFile: string | null;
  /** Id of the emulated portal. */
  readonly portalId: string;
  /** The emulated product. */
  readonly serverType: ServerType;
  /** The version rest/info reports (`fullVersion`, e.g. `11.3.0`). */
  readonly serverVersion: string;
  /**
   * `{scheme}://{host}:{port}/{context}`, the Web Adaptor's URL, when one was started
   * (`--web-adaptor`); its configuration page is `{webAdaptorUrl}/webadaptor`.
   */
  readonly webAdaptorUrl?: string;
}

/** A running emulator: its addresses, and the control surface tests and CI use. */
export interface RunningEmulator extends EmulatorEndpoints {
  /** The data dir in use (absolute). */
  readonly dataDir: string;
  /** Root of the control endpoints (`{scheme}://{host}:{port}/__emulator`). */
  readonly controlUrl: string;
  /** Stops listening, ends pending delays and waits for state writes; idempotent. */
  close(): Promise<void>;
  /** Counters since start. */
  stats(): EmulatorStats;
  /** Request lines received since start (control endpoints excluded), oldest first. */
  requestLog(): RequestLogEntry[];
  /** Makes every token issued so far expired: presenting one answers 498. */
  expireTokens(): Promise<void>;
  /** The next site creation fails with `message` (machine left in no site). */
  failNextCreate(message: string): void;
}
