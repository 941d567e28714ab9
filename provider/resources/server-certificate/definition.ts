/**
 * Every input and output of a `ServerCertificate`, defined once: the Args, the class's outputs,
 * the public types, the zod schema, the diff's lists, the plugin schema and
 * docs/server-certificate.md's table are derived from it.
 */
import { z } from "zod";
import { adminTlsInput, inPlaceAdminInputs, timeoutsInput } from "../common/inputs/admin";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import { httpUrlSchema, nonEmpty } from "../common/inputs/schemas";
import { resourceFrame } from "../common/pulumi/frame";
import type { ServerCertificateInputs } from "./generated";

/** Default bound on the bind: the web server's restart and the check of what it presents. */
export const DEFAULT_BIND_MS = 10 * 60_000;

/** Default bound on finding the outcome of an import whose answer was lost. */
export const DEFAULT_IMPORT_MS = 2 * 60_000;

/** A keystore alias: what Java keystores and every product's examples accept. */
function aliasSchema() {
  return nonEmpty().regex(/^[A-Za-z0-9._-]+$/, {
    message: "must be letters, digits, '.', '_' or '-' (it names the keystore entry)",
  });
}

/** One PEM certificate. */
function pemSchema() {
  return z
    .string()
    .refine((v) => /^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/.test(v), {
      message:
        "must be one PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)",
    });
}

/**
 * The certificate a machine of a site presents on its HTTPS port: the CA's root and intermediate
 * certificates imported with `POST {admin_root}/machines/<m>/sslcertificates/importRootOrIntermediate`,
 * the server certificate with `…/importExistingServerCertificate`, bound with
 * `POST {admin_root}/machines/<m>/edit` (`webServerCertificateAlias`), then checked in a TLS
 * handshake. A renewal is an update in place; destroy leaves the server as it is unless
 * `rebindPreviousOnDestroy`.
 *
 * @example
 * ```ts
 * new ServerCertificate("https", {
 *   connection: server,
 *   machineName: "GIS1.EXAMPLE.COM",
 *   caCertificates: [{ alias: "orgroot", pem: orgRootPem }],
 *   pkcs12: fs.readFileSync("gis.pfx").toString("base64"),
 *   certPassword: config.requireSecret("pfxPassword"),
 *   alias: "gis",
 * });
 * ```
 *
 * @internal
 */
export const SERVER_CERTIFICATE_DEFINITION = defineResource({
  type: "ServerCertificate",
  folder: "server-certificate",
  doc:
    "The certificate a machine of a site presents on its HTTPS port: the CA's certificates and " +
    "the server certificate (PKCS #12) imported into the machine's keystore, then bound " +
    "(machines/<machine>/edit webServerCertificateAlias) and checked over TLS.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link ServerCertificate}: the server's connection " +
    "({@link ServerResourceArgs}), the machine, the CA's certificates and the server " +
    "certificate. Every field accepts a `pulumi.Input`.",
  inputs: {
    ...inPlaceAdminInputs(),
    machineName: {
      schema: nonEmpty,
      doc:
        "The machine whose web server presents the certificate, as the site lists it " +
        "(`machines`; a real server lists its fully qualified name).",
      outputDoc: "The machine, as declared.",
      replaces: true,
    },
    webServerUrl: {
      schema: () =>
        httpUrlSchema()
          // Not a URL at all (or one still unknown at preview) is said by httpUrlSchema.
          .refine((v) => !URL.canParse(v) || new URL(v).protocol === "https:", {
            message: "must be an https URL: the certificate is checked in a TLS handshake",
          })
          .optional(),
      doc:
        "Where the machine's web server is checked over TLS after the bind, e.g. " +
        "`https://gis1.example.com:6443` (its host and port; the host must be a name the " +
        "certificate holds). Default: `adminUrl`, which must then be that machine's own https " +
        "URL.",
      outputDoc: "Where the presented certificate is checked, when given.",
      defaultText: "`adminUrl`",
      stateOnly: true,
      url: true,
    },
    caCertificates: {
      schema: () =>
        z
          .array(
            named(
              z
                .strictObject({
                  alias: aliasSchema().describe(
                    "The alias it is kept under in the machine's keystore.",
                  ),
                  pem: pemSchema().describe(
                    "The certificate, PEM (`-----BEGIN CERTIFICATE-----`).",
                  ),
                })
                .describe("A root or intermediate certificate for the machine's keystore."),
              { name: "CaCertificate" },
            ),
          )
          .default([]),
      doc:
        "The root and intermediate certificates (PEM) of the CA that signed the server " +
        "certificate, each imported once under its alias (importRootOrIntermediate): an alias " +
        "the keystore holds with the same certificate is not imported again; one holding another " +
        "certificate is an error, never overwritten. The TLS check after the bind trusts only " +
        "these; without any it compares the fingerprint alone. Never removed on destroy.",
      outputDoc: "The CA's certificates, as declared.",
    },
    pkcs12: {
      schema: () =>
        z
          .string()
          .regex(/^[A-Za-z0-9+/=\s]+$/, {
            message: "must be the PKCS #12 file (.pfx, .p12) in base64",
          })
          .min(1, { message: "must not be empty" }),
      doc:
        "The server certificate with its private key (and optionally its chain): a PKCS #12 " +
        'file (`.pfx`, `.p12`) in base64, e.g. `fs.readFileSync("gis.pfx").toString("base64")`. ' +
        "Stored only as a secret, sent only in the import's body. A new certificate (a renewal) " +
        "is imported under a new alias and bound in place.",
      outputDoc: "The PKCS #12 file, base64 (secret).",
      secret: true,
    },
    certPassword: {
      schema: () => z.string(),
      doc:
        "The password that opens `pkcs12`. Stored only as a secret, sent only in the import's " +
        "body, never in a message.",
      outputDoc: "The password of `pkcs12` (secret).",
      secret: true,
    },
    alias: {
      schema: aliasSchema,
      doc:
        "The name of the server certificate in the keystore: it is imported under " +
        "`<alias>-<the first 8 hex digits of its SHA-256 fingerprint>` (lower case), so that a " +
        "renewal gets its own alias and the bound certificate is never overwritten.",
      outputDoc: "The name given; the keystore alias is `certificateAlias`.",
    },
    rebindPreviousOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "On destroy, bind the certificate the machine presented before this stack " +
        "(`previousAlias`) again, if the machine still presents this one. Default false: " +
        "destroy leaves the server as it is. No certificate is ever deleted.",
      outputDoc: "Whether destroy binds `previousAlias` again.",
      stateOnly: true,
    },
    tls: {
      ...adminTlsInput(),
      doc:
        "TLS to reach the server: a CA certificate (PEM) to trust, or (discouraged) no " +
        "verification at all. `caCertificates` are trusted too, since after the bind the " +
        "machine presents a certificate they signed.",
      own: true,
    },
    timeouts: timeoutsInput(
      {
        importMs: {
          ms: DEFAULT_IMPORT_MS,
          doc: "How long the keystore is read after an import whose answer was lost.",
        },
        bindMs: {
          ms: DEFAULT_BIND_MS,
          doc: "How long the bind may take: the web server's restart and the TLS check.",
        },
      },
      "How long to look for a lost import's outcome, and how long the bind may take (milliseconds).",
    ),
  },
  outputs: {
    certificateAlias: {
      type: "string",
      doc: "The keystore alias of the server certificate, `<alias>-<fingerprint prefix>`.",
    },
    sha256Fingerprint: {
      type: "string",
      doc: "The server certificate's SHA-256 fingerprint (lower-case hex), as the machine presents it.",
    },
    validUntil: { type: "string", doc: "When the server certificate expires (ISO 8601)." },
    previousAlias: {
      type: "string",
      doc: "The certificate the machine presented before this stack bound one: what `rebindPreviousOnDestroy` binds again.",
    },
    boundAlias: {
      type: "string",
      doc: "The certificate the machine's web server is bound to, as last read (after create, update or refresh).",
    },
    importedAliases: {
      type: "string[]",
      doc: "The keystore aliases this resource imported (the others it found there already).",
    },
  },
  operation: "`POST {admin_root}/machines/<machine>/edit` (`webServerCertificateAlias`)",
  summary:
    "Imports a CA-signed certificate into a machine's keystore, binds it and checks it over TLS.",
  connection: "server",
  crossChecks: serverCertificateCrossChecks,
});

/** Whether a URL is http (not https), for the rule on where the TLS check goes. */
function isPlainHttp(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    return new URL(value).protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * Rules across fields: the TLS check needs an https URL of the machine; each CA alias once.
 *
 * @internal
 */
export function serverCertificateCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (values.webServerUrl === undefined && isPlainHttp(values.adminUrl)) {
    failures.push({
      property: "webServerUrl",
      reason:
        "is required when adminUrl is http: the certificate the machine presents is checked in a " +
        "TLS handshake; give the machine's https URL, e.g. https://gis1.example.com:6443",
    });
  }
  const cas = Array.isArray(values.caCertificates) ? values.caCertificates : [];
  const seen = new Set<string>();
  for (const ca of cas as Array<{ alias?: unknown }>) {
    if (typeof ca?.alias !== "string") continue;
    const alias = ca.alias.toLowerCase();
    if (seen.has(alias)) {
      failures.push({
        property: "caCertificates",
        reason: `names the alias ${alias} twice (keystore aliases are case-insensitive)`,
      });
    }
    seen.add(alias);
  }
  return failures;
}

/**
 * The frame of a `ServerCertificate`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SERVER_CERTIFICATE = resourceFrame<ServerCertificateInputs>()(
  SERVER_CERTIFICATE_DEFINITION,
);
