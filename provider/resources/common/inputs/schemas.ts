/**
 * Input schemas shared by the resources: the `tls` argument, server URLs, non-empty strings and
 * time limits.
 */
import { z } from "zod";
import { named } from "./definition";

/**
 * Input schema of the `tls` argument shared by every resource.
 *
 * @internal
 */
export function tlsSchema() {
  // The descriptions are TlsSettings' (common/connection/tls.ts), for the plugin schema.
  return named(
    z
      .strictObject({
        caCert: z
          .string()
          .refine((pem) => pem.includes("-----BEGIN CERTIFICATE-----"), {
            message: "must be a PEM certificate (-----BEGIN CERTIFICATE-----)",
          })
          .optional()
          .describe(
            "CA certificate(s) in PEM to trust in addition to the system store (and to the " +
              "certificates of `NODE_EXTRA_CA_CERTS`), e.g. the server's self-signed certificate " +
              "of port 6443/20443.",
          ),
        caCertConfig: z
          .string()
          .min(1, { message: "must not be empty" })
          .optional()
          .describe(
            "The stack config key (e.g. `arcgis-admin:caCert`; without a namespace, the " +
              "project's) whose value is the CA certificate to trust, instead of `caCert`: state " +
              "then records the key and `caCertSha256` rather than the certificate, about 2 KB " +
              "less per resource (Node.js package only).",
          ),
        caCertSha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/, { message: "must be a SHA-256 in hex (the provider sets it)" })
          .optional()
          .describe(
            "Set by the provider with `caCertConfig`: the SHA-256 (hex) of the certificate's " +
              "text, so that another certificate under the same key is a change.",
          ),
        insecureSkipVerify: z
          .boolean()
          .optional()
          .describe(
            "Switches certificate verification off (discouraged; warns on every run). Default false.",
          ),
      })
      .refine((tls) => tls.caCert === undefined || tls.caCertConfig === undefined, {
        message: "give the CA certificate as caCert or as caCertConfig, not both",
        path: ["caCertConfig"],
      }),
    { name: "TlsSettings", from: "../common/connection/tls" },
  ).optional();
}

/**
 * Input schema of a URL that must be http(s) and must not carry credentials in its user-info part
 * (`https://user:password@host/...`): they would end up in progress lines, error messages and
 * the resource's id. Credentials have their own inputs.
 *
 * @internal
 */
/**
 * An http(s) URL of a server's administrative root: also refuses a portal's URL, whose
 * generateToken would answer "Invalid username or password" to the server's administrator.
 *
 * @internal
 */
export function adminRootSchema() {
  return httpUrlSchema().refine(
    (value) => {
      try {
        const url = new URL(value);
        // Credentials in the URL are the one problem reported first (httpUrlSchema).
        if (url.username !== "" || url.password !== "") return true;
        return !/\/(sharing(\/rest)?|portaladmin)(\/|$)/i.test(url.pathname);
      } catch {
        return true;
      }
    },
    {
      message:
        "is a portal's URL (…/sharing/rest or …/portaladmin): give the server's administrative " +
        "root, e.g. https://gis.example.com:6443/arcgis/admin (sharingUrl is the Collaboration's)",
    },
  );
}

export function httpUrlSchema() {
  return z
    .string()
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === "https:" || url.protocol === "http:";
        } catch {
          return false;
        }
      },
      { message: "must be an http(s) URL, e.g. https://gis.example.com:20443/arcgis/admin" },
    )
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.username === "" && url.password === "";
        } catch {
          return true;
        }
      },
      {
        message:
          "must not contain credentials (user:password@ before the host): give them as " +
          "username and password (or token)",
      },
    );
}

/**
 * A string with something in it: not empty, and not only whitespace.
 *
 * @internal
 */
export function nonEmpty() {
  return z
    .string()
    .min(1, { message: "must not be empty" })
    .refine((value) => value === "" || value.trim() !== "", {
      message: "must not be only whitespace",
    });
}

/**
 * The smallest time limit accepted, 1 s. A limit must be a limit: the HTTP client reads 0 as "no
 * limit at all" (a silent server was waited for forever), and anything below a second cannot
 * even cover one round trip to a remote server.
 */
export const MIN_TIMEOUT_MS = 1000;

/**
 * Input schema of a time limit in milliseconds (at least {@link MIN_TIMEOUT_MS}).
 *
 * @internal
 */
export function timeoutMsSchema(defaultMs: number) {
  return z
    .number()
    .int()
    .min(MIN_TIMEOUT_MS, {
      message: `must be at least ${MIN_TIMEOUT_MS} ms (1 s); 0 does not mean "no limit"`,
    })
    .default(defaultMs);
}
