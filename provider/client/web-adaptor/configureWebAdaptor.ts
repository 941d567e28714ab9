import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { arcgisRequest } from "../request";
import { withoutTrailingSlash } from "../../url";

/** Parameters of {@link configureWebAdaptor}: the configure tool's flags. */
export interface ConfigureWebAdaptorParams {
  /** What it fronts (`-m`): `server` or `portal`. */
  mode: "server" | "portal";
  /** The server's or portal's `scheme://host:port` (`-g`). */
  serverUrl: string;
  /** The primary site administrator, or a portal administrator (`-u`). */
  username: string;
  /** Its password (`-p`); a secret. */
  password: string;
  /** Administrative access through the Web Adaptor (`-a`). */
  adminAccess: boolean;
}

/**
 * Configures a Web Adaptor through its own page, as Esri's configure tool does: it signs in to
 * the server or portal and registers the Web Adaptor in its `system/webadaptors`. No token: the
 * credentials go in the POST body, to the Web Adaptor only. Never retried: a lost answer must be
 * settled by reading the list ({@link listWebAdaptors}), not by a second configuration.
 *
 * Evidence: Esri/arcgis-cookbook `cookbooks/arcgis-enterprise/providers/webadaptor.rb`
 * (`:configure_with_server`, `:configure_with_portal`: `-m <mode> -w {wa}/webadaptor -g <url>
 * -u -p -a`); Esri/arcgis-powershell-dsc `ArcGIS_WebAdaptor.psm1`
 * (`Start-ConfigureWebAdaptorCMDLineTool`). The form's field names are this project's reading of
 * those flags (docs/emulator.md, "Web Adaptor").
 *
 * @param webAdaptorUrl - the Web Adaptor's URL, e.g. `https://gis.example.com/server`.
 * @param params - mode, server URL, credentials, admin access.
 * @param transport - TLS options, timeouts, signal.
 * @example
 * ```ts
 * await configureWebAdaptor("https://gis.example.com/server", { mode: "server", serverUrl: "https://gis.example.com:6443", username, password, adminAccess: true });
 * ```
 * Maps to: `POST {webAdaptorUrl}/webadaptor`.
 */
export async function configureWebAdaptor(
  webAdaptorUrl: string,
  params: ConfigureWebAdaptorParams,
  transport: TransportOptions = {},
): Promise<void> {
  await arcgisRequest({
    ...transport,
    url: `${withoutTrailingSlash(webAdaptorUrl)}/webadaptor`,
    operation: "configure web adaptor",
    params: {
      mode: params.mode,
      serverUrl: params.serverUrl,
      username: params.username,
      password: params.password,
      adminAccess: params.adminAccess,
    },
    referer: DEFAULT_REFERER,
    secrets: [params.password],
    retry: false,
  });
}
