/**
 * The inputs every portal resource (PortalSite, Collaboration, Federation) has: the portal's
 * sharing URL, its credentials and `tls`, declared by `PortalConnectionArgs` and `PortalResource`.
 *
 * @internal
 */
import { httpUrlSchema, nonEmpty, tlsSchema } from "./schemas";

/**
 * The portal connection's inputs, in the order the resources declare them; a change of the
 * credentials or `tls` only updates state (proved by the next call that needs them).
 *
 * @internal
 */
export function portalInputs() {
  return {
    sharingUrl: {
      schema: httpUrlSchema,
      doc:
        "The portal's sharing API root, e.g. `https://portal.example.com/portal/sharing/rest`. " +
        "Default: `connection.sharingUrl`, stack config `arcgis-admin:sharingUrl`, " +
        "`ARCGIS_ADMIN_SHARING_URL`.",
      outputDoc: "The portal's sharing API root.",
      defaultText: "`connection`, config, env",
      inherited: "connection",
      replaces: true,
      url: true,
    },
    username: {
      schema: () => nonEmpty().optional(),
      doc: "A portal administrator (with password), unless a token is given.",
      outputDoc: "The portal administrator's name, when one was given.",
      defaultText: "`connection`, config, env",
      inherited: "connection",
      stateOnly: true,
    },
    password: {
      schema: () => nonEmpty().optional(),
      doc: "The portal administrator's password. Stored only as a secret.",
      outputDoc: "The portal administrator's password (secret), when one was given.",
      defaultText: "`connection`, config, env",
      inherited: "connection",
      secret: true,
      stateOnly: true,
    },
    token: {
      schema: () => nonEmpty().optional(),
      doc: "A portal token instead of username and password. Stored only as a secret.",
      outputDoc: "The portal token (secret), when one was given.",
      defaultText: "`connection`, config, env",
      inherited: "connection",
      secret: true,
      stateOnly: true,
    },
  } as const;
}

/**
 * The portal's `tls` input (declared after a resource's own inputs).
 *
 * @internal
 */
export function portalTlsInput() {
  return {
    schema: tlsSchema,
    doc:
      "TLS to reach the portal: a CA certificate (PEM) to trust, or (discouraged) no " +
      "verification at all.",
    outputDoc: "The TLS settings used to reach the portal.",
    defaultText: "`connection`, config, env",
    inherited: "connection",
    stateOnly: true,
  } as const;
}
