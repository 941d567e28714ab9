/**
 * The inputs of a `Federation` as the lifecycle reads them: the schema and lists derived from its
 * definition (definition.ts), the rules across fields and the defaults per product.
 */
import { type ServerType } from "../../client";
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { collaborationCrossChecks } from "../collaboration/inputs";
import { FEDERATION_DEFINITION } from "./definition";
import type { FederationInputs } from "./generated";
import { FEDERATION } from "./resource";
import { withoutTrailingSlash } from "../../url";

export type { FederationInputs, FederationOutputs, ServerCertificate } from "./generated";
export { DEFAULT_FEDERATE_MS, DEFAULT_RESTART_WAIT_MS } from "./definition";

/**
 * The server function each product is given by default: Chef's `federation.rb` of
 * arcgis-mission, arcgis-notebooks and arcgis-video (`MissionServer`, `NotebookServer`,
 * `VideoServer`); ArcGIS Server none.
 */
export const DEFAULT_SERVER_FUNCTION: Record<ServerType, string> = {
  "mission-server": "MissionServer",
  "notebook-server": "NotebookServer",
  "video-server": "VideoServer",
  "arcgis-server": "",
};

/**
 * The zod schema of the Federation inputs.
 *
 * @internal
 */
export function federationInputsSchema() {
  return inputsSchema(FEDERATION_DEFINITION);
}

/**
 * The generated {@link FederationInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type FederationInputsMatch = Assert<
  ParsesTo<ReturnType<typeof federationInputsSchema>, FederationInputs>
>;

/**
 * Rules across fields: the portal's credentials (username and password, or a token, as for a
 * Collaboration); a hosting server must be an ArcGIS Server.
 *
 * @internal
 */
export function federationCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures = collaborationCrossChecks(values);
  if (
    values.serverRole === "HOSTING_SERVER" &&
    values.serverType !== undefined &&
    values.serverType !== "arcgis-server"
  ) {
    failures.push({
      property: "serverRole",
      reason:
        "HOSTING_SERVER is for an ArcGIS Server site; a Mission, Notebook or Video Server is " +
        "federated as FEDERATED_SERVER",
    });
  }
  return failures;
}

/**
 * The site root the portal is given as `adminUrl`: the administrative root without `/admin`
 * (Chef sends the server's `private_url`, e.g. `https://host:20443/arcgis`).
 *
 * @internal
 */
export function siteRootOf(adminUrl: string): string {
  return withoutTrailingSlash(adminUrl).replace(/\/admin$/i, "");
}

/**
 * The services URL: the given one, else the site root.
 *
 * @internal
 */
export function serverUrlOf(inputs: FederationInputs): string {
  return withoutTrailingSlash(inputs.serverUrl ?? siteRootOf(inputs.adminUrl));
}

/**
 * The function the server is given: the input, else the product's default.
 *
 * @internal
 */
export function serverFunctionOf(inputs: FederationInputs): string {
  return inputs.serverFunction ?? DEFAULT_SERVER_FUNCTION[inputs.serverType];
}

/**
 * Inputs whose change means another portal or another server: unfederate, then federate anew.
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(FEDERATION_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state (credentials are proven by the next call that needs them).
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(FEDERATION_DEFINITION, "stateOnly");

/**
 * The Federation's input rules.
 *
 * @internal
 */
export const FEDERATION_INPUTS: InputRules = {
  frame: FEDERATION,
  schema: federationInputsSchema,
  crossChecks: federationCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseFederationInputs = inputReader<FederationInputs>(FEDERATION_INPUTS);
