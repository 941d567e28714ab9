/**
 * The `ServerCertificate` resource as a Pulumi program declares it: its arguments and its class.
 * The lifecycle is in `lifecycle.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { lazyProvider } from "../common/pulumi/lazy-provider";
import { registration } from "../common/pulumi/registration";
import {
  SERVER_CERTIFICATE_KEYS,
  type ServerCertificateArgs,
  type ServerCertificateInputs,
  type ServerCertificateOutputProperties,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";

/**
 * The serialized provider of `ServerCertificate`: a small stub that loads `implementation` from
 * the released module path `dist/provider/resources/server-certificate.js` when the engine calls it.
 */
export const serverCertificateProvider = lazyProvider("server-certificate");

/**
 * What a ServerCertificate registers with beyond what every server resource does: its own
 * outputs and secrets (its input rules read them too).
 *
 * @internal
 */
export const SERVER_CERTIFICATE = serverResourceFrame(
  "ServerCertificate",
  serverCertificateProvider,
  SERVER_CERTIFICATE_KEYS,
);

export type { ServerCertificateArgs } from "./generated";

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
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class ServerCertificate extends ServerResource<ServerCertificateInputs["timeouts"]> {
  /**
   * @param name - the resource's name in the stack.
   * @param args - which server and machine, and the certificates; see {@link ServerCertificateArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: ServerCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("ServerCertificate", name, args);
    super(
      ...registration(
        SERVER_CERTIFICATE,
        name,
        args,
        {
          ...connection,
          pkcs12: pulumi.secret(args.pkcs12),
          certPassword: pulumi.secret(args.certPassword),
        },
        opts,
      ),
    );
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface ServerCertificate extends ServerCertificateOutputProperties {}
