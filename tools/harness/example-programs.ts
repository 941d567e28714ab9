/**
 * Example programs under Pulumi's mocks: run one as `pulumi up` would (see
 * mock-program-runner.cjs), name its resources as the engine does, and replay them through the
 * dynamic-provider host.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  DYNAMIC_RESOURCE_TYPE,
  type PropertyMap,
  secret,
  type SecretValue,
} from "./property-values";
import { REPO_ROOT } from "./project";
import { runMockProgram, type Registration } from "./consumer";
import type { Host } from "./host-types";

/** What a program run produced. */
export interface ProgramRun {
  registrations: Registration[];
  /** The program's exports, resolved (unknown values are null). */
  outputs: Record<string, unknown>;
  /** The project name read from the Pulumi.yaml that runs the program. */
  project: string;
  /** Finds a registration by resource name. */
  byName(name: string): Registration;
  /** The URN the engine gives a resource of this program. */
  urn(name: string): string;
  /**
   * The stack's config as the engine gives it to the default provider's Configure (keys with
   * their namespace, secrets marked): what `host.configure(...)` takes.
   */
  stackConfig: Record<string, string | SecretValue<string>>;
}

/** The project name of a Pulumi.yaml. */
export function projectName(pulumiYaml: string): string {
  const name = /^name:\s*(\S+)/m.exec(fs.readFileSync(pulumiYaml, "utf8"))?.[1];
  if (name === undefined) throw new Error(`no name in ${pulumiYaml}`);
  return name;
}

/**
 * Runs a program as `pulumi up` would: in `programDir`, TypeScript set up like the language
 * host, stack config given as `key: value` (the project's namespace is added to a key without one,
 * e.g. `release`; `arcgis-admin:adminUrl` stays as it is) with `secrets` marked secret.
 *
 * @param options.typeCheck - false sets PULUMI_NODEJS_TRANSPILE_ONLY (faster; tsc checks anyway).
 */
export async function runProgram(options: {
  programDir: string;
  entry: string;
  pulumiYaml: string;
  stack: string;
  config: Record<string, string>;
  secrets?: Record<string, string>;
  typeCheck?: boolean;
}): Promise<ProgramRun> {
  const project = projectName(options.pulumiYaml);
  const all = { ...options.config, ...options.secrets };
  const key = (k: string) => (k.includes(":") ? k : `${project}:${k}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_CONFIG: JSON.stringify(
      Object.fromEntries(Object.entries(all).map(([k, v]) => [key(k), v])),
    ),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(Object.keys(options.secrets ?? {}).map(key)),
  };
  if (options.typeCheck === false) env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
  const parsed = await runMockProgram({
    program: options.entry,
    cwd: options.programDir,
    project,
    stack: options.stack,
    label: path.relative(REPO_ROOT, options.programDir),
    env,
  });
  const urn = (name: string) => {
    const type = parsed.registrations.find((r) => r.name === name)?.type ?? DYNAMIC_RESOURCE_TYPE;
    return `urn:pulumi:${options.stack}::${project}::${type}::${name}`;
  };
  const stackConfig = Object.fromEntries([
    ...Object.entries(options.config).map(([k, v]) => [key(k), v] as const),
    ...Object.entries(options.secrets ?? {}).map(([k, v]) => [key(k), secret(v)] as const),
  ]);
  return {
    ...parsed,
    project,
    urn,
    stackConfig,
    byName(name) {
      const found = parsed.registrations.find((r) => r.name === name);
      if (found === undefined) throw new Error(`no resource named ${name}`);
      return found;
    },
  };
}

/** A resource as created through the host: its id and outputs (as the engine stores them). */
export interface Created {
  id: string;
  properties: PropertyMap;
  /** The checked inputs. */
  inputs: PropertyMap;
}

/** `pulumi up` for one new resource: check, then create. Throws on check failures. */
export async function checkAndCreate(
  host: Host,
  urn: string,
  registration: Registration,
): Promise<Created> {
  const checked = await host.check(urn, {}, registration.inputs);
  if (checked.failures.length > 0) {
    throw new Error(`check of ${urn} failed: ${JSON.stringify(checked.failures)}`);
  }
  const created = await host.create(urn, checked.inputs, {
    additionalSecretOutputs: registration.options?.additionalSecretOutputs ?? [],
  });
  return { ...created, inputs: checked.inputs };
}
