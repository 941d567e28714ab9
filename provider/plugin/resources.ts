/**
 * The resources the provider plugin serves: for each, its type token's last part, its input rules
 * (the zod schema the dynamic resource checks with), its frame (secret and output-only keys) and
 * the implementation the dynamic-provider host loads from the released module path. The plugin
 * serves exactly these objects, so the two paths can never behave differently.
 */
import type { ResourceDefinition } from "../resources/common/inputs/definition";
import type { InputRules } from "../resources/common/pulumi/implementation";
import type { Importer } from "../resources/common/pulumi/importer";
import { collaborationImporter } from "../resources/collaboration/import";
import { federationImporter } from "../resources/federation/import";
import { logSettingsImporter } from "../resources/log-settings/import";
import { siteMachineImporter } from "../resources/site-machine/import";
import { siteImporter } from "../resources/site/import";
import type { ResourceImplementation } from "../resources/common/pulumi/lazy-provider";
import type { ResourceFrame } from "../resources/common/pulumi/registration";
import { COLLABORATION_DEFINITION } from "../resources/collaboration/definition";
import { COLLABORATION_INPUTS } from "../resources/collaboration/inputs";
import { COLLABORATION } from "../resources/collaboration/resource";
import { implementation as collaboration } from "../resources/collaboration";
import { FEDERATION_DEFINITION } from "../resources/federation/definition";
import { FEDERATION_INPUTS } from "../resources/federation/inputs";
import { FEDERATION } from "../resources/federation/resource";
import { implementation as federation } from "../resources/federation";
import { LOG_SETTINGS_DEFINITION } from "../resources/log-settings/definition";
import { LOG_SETTINGS_INPUTS } from "../resources/log-settings/inputs";
import { LOG_SETTINGS } from "../resources/log-settings/resource";
import { implementation as logSettings } from "../resources/log-settings";
import { SITE_EXPORT_DEFINITION } from "../resources/site-export/definition";
import { SITE_EXPORT_INPUTS } from "../resources/site-export/inputs";
import { SITE_EXPORT } from "../resources/site-export/resource";
import { implementation as siteExport } from "../resources/site-export";
import { SITE_IMPORT_DEFINITION } from "../resources/site-import/definition";
import { SITE_IMPORT_INPUTS } from "../resources/site-import/inputs";
import { SITE_IMPORT } from "../resources/site-import/resource";
import { implementation as siteImport } from "../resources/site-import";
import { SITE_MACHINE_DEFINITION } from "../resources/site-machine/definition";
import { SITE_MACHINE_INPUTS } from "../resources/site-machine/inputs";
import { SITE_MACHINE } from "../resources/site-machine/resource";
import { implementation as siteMachine } from "../resources/site-machine";
import { SITE_UPGRADE_DEFINITION } from "../resources/site-upgrade/definition";
import { SITE_UPGRADE_INPUTS } from "../resources/site-upgrade/inputs";
import { SITE_UPGRADE } from "../resources/site-upgrade/resource";
import { implementation as siteUpgrade } from "../resources/site-upgrade";
import { SYSTEM_PROPERTIES_DEFINITION } from "../resources/system-properties/definition";
import { SYSTEM_PROPERTIES_INPUTS } from "../resources/system-properties/inputs";
import { SYSTEM_PROPERTIES } from "../resources/system-properties/resource";
import { implementation as systemProperties } from "../resources/system-properties";
import { SERVER_CERTIFICATE_DEFINITION } from "../resources/server-certificate/definition";
import { SERVER_CERTIFICATE_INPUTS } from "../resources/server-certificate/inputs";
import { SERVER_CERTIFICATE } from "../resources/server-certificate/resource";
import { implementation as serverCertificate } from "../resources/server-certificate";
import { SITE_DEFINITION } from "../resources/site/definition";
import { SITE_INPUTS } from "../resources/site/inputs";
import { SITE } from "../resources/site/resource";
import { implementation as site } from "../resources/site";

/**
 * Where a resource's connection comes from when its inputs leave it out (the plugin's
 * configuration, then the environment): which input each default fills, by the default's name
 * in `CONNECTION_DEFAULTS` (provider/resources/common/connection/resolve.ts).
 */
export type ConnectionKind = "server" | "machine" | "portal";

/** One resource the plugin serves. */
export interface PluginResource {
  /** The class name: the type token is `arcgis-admin:index:<type>`. */
  type: string;
  /** Its inputs and outputs, defined once (the schema's properties and descriptions). */
  definition: ResourceDefinition;
  rules: InputRules;
  frame: ResourceFrame;
  implementation: ResourceImplementation;
  connection: ConnectionKind;
  /** How `pulumi import` reads it (docs/import.md); none: it cannot be imported. */
  importer?: Importer;
  /**
   * Inputs naming a server's administrator beside a portal connection (Federation's
   * `serverUsername`, `serverPassword`): filled from the server defaults (`arcgis-admin:username`,
   * `arcgis-admin:password`) for the default server, as a server resource's credentials are.
   */
  serverAccount?: { username: string; password: string };
}

/**
 * Every resource the plugin serves, in the order of the docs.
 *
 * @internal
 */
export const PLUGIN_RESOURCES: readonly PluginResource[] = [
  {
    type: "Site",
    definition: SITE_DEFINITION,
    rules: SITE_INPUTS,
    frame: SITE,
    implementation: site,
    connection: "server",
    importer: siteImporter,
  },
  {
    type: "SiteExport",
    definition: SITE_EXPORT_DEFINITION,
    rules: SITE_EXPORT_INPUTS,
    frame: SITE_EXPORT,
    implementation: siteExport,
    connection: "server",
  },
  {
    type: "SiteImport",
    definition: SITE_IMPORT_DEFINITION,
    rules: SITE_IMPORT_INPUTS,
    frame: SITE_IMPORT,
    implementation: siteImport,
    connection: "server",
  },
  {
    type: "SiteMachine",
    definition: SITE_MACHINE_DEFINITION,
    rules: SITE_MACHINE_INPUTS,
    frame: SITE_MACHINE,
    implementation: siteMachine,
    connection: "machine",
    importer: siteMachineImporter,
  },
  {
    type: "LogSettings",
    definition: LOG_SETTINGS_DEFINITION,
    rules: LOG_SETTINGS_INPUTS,
    frame: LOG_SETTINGS,
    implementation: logSettings,
    connection: "server",
    importer: logSettingsImporter,
  },
  {
    type: "SystemProperties",
    definition: SYSTEM_PROPERTIES_DEFINITION,
    rules: SYSTEM_PROPERTIES_INPUTS,
    frame: SYSTEM_PROPERTIES,
    implementation: systemProperties,
    connection: "server",
  },
  {
    type: "SiteUpgrade",
    definition: SITE_UPGRADE_DEFINITION,
    rules: SITE_UPGRADE_INPUTS,
    frame: SITE_UPGRADE,
    implementation: siteUpgrade,
    connection: "server",
  },
  {
    type: "ServerCertificate",
    definition: SERVER_CERTIFICATE_DEFINITION,
    rules: SERVER_CERTIFICATE_INPUTS,
    frame: SERVER_CERTIFICATE,
    implementation: serverCertificate,
    connection: "server",
  },
  {
    type: "Collaboration",
    definition: COLLABORATION_DEFINITION,
    rules: COLLABORATION_INPUTS,
    frame: COLLABORATION,
    implementation: collaboration,
    connection: "portal",
    importer: collaborationImporter,
  },
  {
    type: "Federation",
    definition: FEDERATION_DEFINITION,
    rules: FEDERATION_INPUTS,
    frame: FEDERATION,
    implementation: federation,
    connection: "portal",
    importer: federationImporter,
    serverAccount: { username: "serverUsername", password: "serverPassword" },
  },
];

/**
 * The resource of a type token (`arcgis-admin:index:Site`), or undefined.
 *
 * @internal
 */
export function pluginResource(token: string): PluginResource | undefined {
  return PLUGIN_RESOURCES.find((r) => `${PACKAGE}:index:${r.type}` === token);
}

/** The plugin's package name: the type tokens' first part and the config namespace. */
export const PACKAGE = "arcgis-admin";
