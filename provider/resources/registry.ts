/**
 * Every resource of the package, listed once, in the order of the docs: a row is its definition
 * (`<name>/definition.ts`). The code generator (tools/codegen/definitions.cjs), the plugin's
 * resources and schema, the connection defaults' wording (common/inputs/sources.ts) and the
 * docs' tables read this list; tests/package/registry.test.ts checks each row against the
 * package's exports, the plugin's served schema and the docs folder.
 *
 * @internal
 */
import type { ResourceDefinition } from "./common/inputs/definition";
import { COLLABORATION_DEFINITION } from "./collaboration/definition";
import { FEDERATION_DEFINITION } from "./federation/definition";
import { LOG_SETTINGS_DEFINITION } from "./log-settings/definition";
import { SECURITY_SETTINGS_DEFINITION } from "./security-settings/definition";
import { PORTAL_SITE_DEFINITION } from "./portal-site/definition";
import { SERVER_CERTIFICATE_DEFINITION } from "./server-certificate/definition";
import { SITE_DEFINITION } from "./site/definition";
import { SITE_EXPORT_DEFINITION } from "./site-export/definition";
import { SITE_IMPORT_DEFINITION } from "./site-import/definition";
import { SITE_MACHINE_DEFINITION } from "./site-machine/definition";
import { SITE_UPGRADE_DEFINITION } from "./site-upgrade/definition";
import { SYSTEM_PROPERTIES_DEFINITION } from "./system-properties/definition";
import { WEB_ADAPTOR_DEFINITION } from "./web-adaptor/definition";

/**
 * The resources, in the order of the docs.
 *
 * @internal
 */
export const RESOURCES: readonly ResourceDefinition[] = [
  SITE_DEFINITION,
  SITE_EXPORT_DEFINITION,
  SITE_IMPORT_DEFINITION,
  SITE_MACHINE_DEFINITION,
  LOG_SETTINGS_DEFINITION,
  SYSTEM_PROPERTIES_DEFINITION,
  SITE_UPGRADE_DEFINITION,
  SERVER_CERTIFICATE_DEFINITION,
  SECURITY_SETTINGS_DEFINITION,
  PORTAL_SITE_DEFINITION,
  COLLABORATION_DEFINITION,
  FEDERATION_DEFINITION,
  WEB_ADAPTOR_DEFINITION,
];
