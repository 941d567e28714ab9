import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { arcgisRequest } from "../request";
import { portalAdminUrlOf } from "./paths";

/** A portal's content store, as createNewSite's `contentStore` JSON carries it. */
export interface PortalContentStoreSpec {
  /** `fileStore` or `cloudStore`. */
  type: string;
  /** `FileSystem`, `Amazon` or `Azure`. */
  provider: string;
  /** A file store's directory, or a cloud store's settings (its secrets merged in). */
  connectionString: string | Record<string, string>;
  /** A cloud store's bucket or container. */
  objectStore?: string | undefined;
  /** A cloud store's secret settings, sent inside `connectionString`; secrets. */
  connectionSecrets?: Record<string, string> | undefined;
}

/** What {@link createPortalSite} sends, in the user's vocabulary. */
export interface CreatePortalSiteParams {
  /** The initial administrator's name. */
  username: string;
  /** Its password; a secret. */
  password: string;
  /** Its full name (`fullname`). */
  fullName: string;
  /** Its email address. */
  email: string;
  /** A description of the account. */
  description?: string | undefined;
  /** The security question's index in the portal's list. */
  securityQuestionIdx?: number | undefined;
  /** Its answer; a secret. */
  securityAnswer?: string | undefined;
  /** Where the portal keeps its content. */
  contentStore: PortalContentStoreSpec;
  /** The administrator's user type, e.g. `creatorUT`. */
  userLicenseTypeId?: string | undefined;
}

/**
 * The form of the portal's createNewSite as Esri's tools send it: Chef's `create_site`
 * (`portal_admin_client.rb`) and DSC's `Invoke-CreatePortalSite` (`ArcGIS_Portal.psm1`) send
 * `fullname`, `securityQuestionIdx` (DSC; the ArcGIS API for Python too) and
 * `securityQuestionAns`, and `contentStore` as JSON text of `type`, `provider`,
 * `connectionString` (and a cloud store's `objectStore`). The password, the answer and a cloud
 * store's secrets are among the values: never log the result.
 *
 * @param params - the request in the user's vocabulary.
 * @returns the form parameters (objects are JSON-encoded when sent).
 * @example
 * ```ts
 * createPortalSiteForm({ username, password, fullName, email, contentStore }).fullname
 * ```
 * Maps to: `POST {portaladmin}/createNewSite`.
 *
 * @internal
 */
export function createPortalSiteForm(params: CreatePortalSiteParams): Record<string, unknown> {
  const store = params.contentStore;
  const connectionString =
    typeof store.connectionString === "string"
      ? store.connectionString
      : { ...store.connectionString, ...store.connectionSecrets };
  return {
    username: params.username,
    password: params.password,
    fullname: params.fullName,
    email: params.email,
    description: params.description,
    securityQuestionIdx: params.securityQuestionIdx,
    securityQuestionAns: params.securityAnswer,
    contentStore: {
      type: store.type,
      provider: store.provider,
      connectionString,
      objectStore: store.objectStore,
    },
    userLicenseTypeId: params.userLicenseTypeId,
  };
}

/** The secret values of a createNewSite request, redacted from every message. */
function secretsOf(params: CreatePortalSiteParams): string[] {
  return [
    params.password,
    ...(params.securityAnswer === undefined ? [] : [params.securityAnswer]),
    ...Object.values(params.contentStore.connectionSecrets ?? {}),
  ];
}

/**
 * Creates the site of a portal that is in no site: its content store and its initial
 * administrator. No token: on such a portal the call itself makes the administrator. Never
 * retried: a lost answer must be followed by reading the portal (its admin root, a sign-in), not
 * by a second createNewSite.
 *
 * @param sharingUrl - the portal's sharing root; the call goes to `…/portaladmin` beside it.
 * @param params - administrator, content store, user type.
 * @param transport - TLS options, timeouts (the creation holds the request: give headersMs the
 *   creation's whole bound), signal.
 * @returns the portal's answer, e.g. `{ status: "success" }`.
 * @example
 * ```ts
 * await createPortalSite(sharingUrl, { username, password, fullName, email, contentStore }, { timeouts: { headersMs: 3_600_000 } });
 * ```
 * Maps to: `POST {portaladmin}/createNewSite`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/create-site
 */
export async function createPortalSite(
  sharingUrl: string,
  params: CreatePortalSiteParams,
  transport: TransportOptions = {},
): Promise<Record<string, unknown>> {
  return arcgisRequest({
    ...transport,
    url: `${portalAdminUrlOf(sharingUrl)}/createNewSite`,
    operation: "createNewSite",
    params: createPortalSiteForm(params),
    referer: DEFAULT_REFERER,
    secrets: secretsOf(params),
    retry: false,
  });
}
