/**
 * A server's security settings changed behind a stack's back, as an operator's tool does it
 * (Chef's `update_security_configuration`, DSC's `ArcGIS_Server_TLS`): every field sent, the
 * others as read, then a wait until the web server answers again after its restart.
 */
import {
  type AdminSession,
  getSecurityConfig,
  securityConfigAsRead,
  updateSecurityConfig,
  waitForServer,
} from "../../provider/client";

/** What an operator changes, by SecuritySettings' input names, and one field it never declares. */
export interface OperatorChange {
  hstsEnabled?: boolean;
  tlsProtocols?: string[];
  cipherSuites?: string[];
  allowedAdminAccessIPs?: string;
}

/** Writes `change` over the configuration as read, and waits for the web server's restart. */
export async function setSecurityConfig(
  session: AdminSession,
  change: OperatorChange,
): Promise<void> {
  const read = securityConfigAsRead(await getSecurityConfig(session));
  await updateSecurityConfig(session, {
    ...read,
    ...(change.hstsEnabled === undefined ? {} : { HSTSEnabled: change.hstsEnabled }),
    ...(change.tlsProtocols === undefined ? {} : { httpsProtocols: change.tlsProtocols.join(",") }),
    ...(change.cipherSuites === undefined ? {} : { cipherSuites: change.cipherSuites.join(",") }),
    ...(change.allowedAdminAccessIPs === undefined
      ? {}
      : { allowedAdminAccessIPs: change.allowedAdminAccessIPs }),
  });
  await waitForServer(session.rootUrl, session.transport, {
    deadline: Date.now() + 60_000,
    pollIntervalMs: 50,
  });
}
