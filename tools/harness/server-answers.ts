/**
 * Named server payloads, as real ArcGIS servers send them (see
 * shared/reference/arcgis-rest-behaviour.md). Errors arrive with HTTP 200 unless a test says
 * otherwise.
 */

export const ADMIN_ORIGIN = "https://gis.example.com:20443";
export const ADMIN_URL = `${ADMIN_ORIGIN}/arcgis/admin`;
export const PORTAL_ORIGIN = "https://portal.example.com";
export const SHARING_URL = `${PORTAL_ORIGIN}/portal/sharing/rest`;
export const PORTAL_ID = "0123456789ABCDEF";
export const COLLABORATION_ID = "c0ffee0000000000000000000000beef";

export const ADMIN_PASSWORD = "s3cr3t P@ss&word=1";
export const ADMIN_TOKEN = "tok_admin_AAAAAAAAAAAAAAAAAAAAAAAA.BBB";
export const FRESH_TOKEN = "tok_admin_fresh_CCCCCCCCCCCCCCCCCCCC.DDD";

// ---- admin API: success -------------------------------------------------------------------

export const SiteCreatedAnswer = { status: "success" };

export const ExportedToFolderAnswer = {
  status: "success",
  location: "/backups/20220823-140812-UTC.agssite",
};

export const ExportedForDownloadAnswer = {
  status: "success",
  location: `${ADMIN_URL}/uploads/i5a1c2f9e-a5b0-4b1e-8f6e-3d7e2e0c4a11`,
};

export const MachinesAnswer = {
  machines: [
    { machineName: "GIS1.EXAMPLE.COM", adminURL: "https://gis1.example.com:20443/arcgis/admin" },
    "GIS2.EXAMPLE.COM",
    { somethingElse: true },
  ],
};

export const LogSettingsAnswer = {
  settings: {
    logDir: "C:\\arcgismissionserver\\logs\\",
    logLevel: "WARNING",
    maxErrorReportsCount: 10,
    maxLogFileAge: 90,
  },
};

export const HealthyAnswer = { success: true };

/** Security off: the admin root lists resources without a token. */
export const AdminRootWithoutSecurityAnswer = {
  resources: ["machines", "clusters", "system", "services", "security", "data", "uploads", "logs"],
  currentVersion: 11.3,
};

export function tokenAnswer(token: string, expires: number): Record<string, unknown> {
  return { token, expires };
}

export function portalTokenAnswer(token: string, expires: number): Record<string, unknown> {
  return { token, expires, ssl: true };
}

// ---- admin API: errors ("status" format) -------------------------------------------------

export const SiteAlreadyExistsAnswer = {
  status: "error",
  messages: [
    "Failed to create the site. The site could not be created because another site already exists in the directory.",
  ],
  code: 500,
};

export const ConfigStoreNotAccessibleAnswer = {
  status: "error",
  messages: ["The specified configuration store location is not accessible."],
  code: 500,
};

export const TokenRequiredAnswer = {
  status: "error",
  messages: [
    "Unauthorized access. Token not found. You can generate a token using the 'generateToken' operation.",
  ],
  code: 499,
};

export const InvalidTokenAnswer = { status: "error", messages: ["Invalid token."], code: 498 };

export const PermissionDeniedAnswer = {
  status: "error",
  messages: ["You do not have permissions to access this resource or perform this operation."],
  code: 403,
};

export const NotParticipatingAnswer = {
  status: "error",
  messages: [
    "Local machine 'GIS1.EXAMPLE.COM' is not participating in any Site. Please create a new Site or join an existing Site.",
  ],
  code: 500,
};

/** Some docs say "failed" instead of "error", and the code may be missing. */
export const FailedWithoutCodeAnswer = {
  status: "failed",
  messages: ["Another administrative operation is currently accessing the store."],
};

export const FailureStatusAnswer = {
  status: "failure",
  messages: ["Upgrade in progress."],
  code: 403,
};

export const MalformedJsonParameterAnswer = {
  status: "error",
  messages: ["A JSONObject text must begin with '{' at character 1 of directories"],
  code: 500,
};

export const BadLoginAnswer = {
  status: "error",
  messages: ["Unable to generate token.", "Invalid username or password."],
  code: 400,
};

/** A server that echoes what it received into an error: redaction must catch it. */
export const EchoingErrorAnswer = {
  status: "error",
  messages: [`Bad request: password=${ADMIN_PASSWORD}&token=${ADMIN_TOKEN}`],
  code: 500,
};

// ---- sharing API: success and errors ("error" format) ------------------------------------

export const PortalSelfAnswer = { id: PORTAL_ID, name: "Example Portal", isPortal: true };

export const CommunitySelfAnswer = {
  username: "portaladmin",
  role: "org_admin",
  privileges: ["portal:admin:updateCollaborations", "portal:admin:deleteItems"],
  fullName: "Portal Admin",
};

export const CollaborationAnswer = {
  id: COLLABORATION_ID,
  name: "Field operations",
  description: "Shares mission content with the field portal",
  collaborationHostPortalId: PORTAL_ID,
  config: {},
  created: 1661263692000,
  modified: 1661263692000,
};

export const SharingSuccessAnswer = { success: true };

export const SharingNotConfirmedAnswer = { success: false };

export const SharingInvalidTokenAnswer = {
  error: { code: 498, message: "Invalid token.", details: [] },
};

export const SharingTokenRequiredAnswer = {
  error: { code: 499, message: "Token Required", messageCode: "GWM_0003", details: [] },
};

export const CollaborationDoesNotExistAnswer = {
  error: {
    code: 400,
    messageCode: "COLLAB_0001",
    message: `Unable to get collaboration.`,
    details: [`Collaboration with id '${COLLABORATION_ID}' does not exist.`],
  },
};

export const SharingNotFoundAnswer = {
  error: { code: 404, message: "Item does not exist or is inaccessible.", details: [] },
};

export const GuestCannotDeleteAnswer = {
  error: {
    code: 403,
    message: "You do not have permissions to access this resource or perform this operation.",
    details: [],
  },
};

// ---- not JSON ------------------------------------------------------------------------------

export const ProxyBadGatewayPage =
  "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";

export const WebAdaptorLoginPage =
  "<!DOCTYPE html><html><head><title>ArcGIS Web Adaptor - Sign In</title></head><body><form>...</form></body></html>";

export const TruncatedJson = '{"status":"success","location":"/backups/2022';
