/**
 * The inputs of a `ServerCertificate` as the lifecycle reads them: the schema and lists derived
 * from its definition (definition.ts), and the rules across fields.
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { SERVER_CERTIFICATE_DEFINITION } from "./definition";
import type { ServerCertificateInputs } from "./generated";
import { SERVER_CERTIFICATE } from "./resource";

export type { CaCertificate, ServerCertificateInputs, ServerCertificateOutputs } from "./generated";
export { DEFAULT_BIND_MS, DEFAULT_IMPORT_MS } from "./definition";

/**
 * The zod schema of the ServerCertificate inputs.
 *
 * @internal
 */
export function serverCertificateInputsSchema() {
  return inputsSchema(SERVER_CERTIFICATE_DEFINITION);
}

/**
 * The generated {@link ServerCertificateInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type ServerCertificateInputsMatch = Assert<
  ParsesTo<ReturnType<typeof serverCertificateInputsSchema>, ServerCertificateInputs>
>;

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
 * The ServerCertificate's input rules.
 *
 * @internal
 */
export const SERVER_CERTIFICATE_INPUTS: InputRules = {
  frame: SERVER_CERTIFICATE,
  schema: serverCertificateInputsSchema,
  crossChecks: serverCertificateCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseServerCertificateInputs =
  inputReader<ServerCertificateInputs>(SERVER_CERTIFICATE_INPUTS);

/**
 * Inputs whose change means another machine (a replacement), when the URL reaches another place:
 * another spelling of the same URL only updates state.
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(SERVER_CERTIFICATE_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(SERVER_CERTIFICATE_DEFINITION, "stateOnly");
