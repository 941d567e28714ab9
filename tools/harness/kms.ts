/**
 * The secrets provider of the engine suites' stacks: a key of local-kms (AWS KMS's API on a local
 * port, toolchain/local-kms.cjs), as a team with its state on S3 keeps its secrets with `awskms://`.
 * A passphrase would cost every CLI operation a key derivation (bench/RESULTS.md, "Warm runs,
 * ninth session"). A Jest run shares one local-kms (tests/global-setup.cjs); any other process
 * starts its own on first use, stopped when it exits.
 */
import * as fs from "node:fs";
import { runTempDir } from "./temp";
import * as kmsScript from "../../toolchain/local-kms.cjs";

/** Where tests/global-setup.cjs gives the workers the run's shared local-kms. */
export const SHARED_KMS_ENV = kmsScript.SHARED_URL_ENV;

let own: Promise<string> | undefined;

/** The `--secrets-provider` URL of `pulumi stack init` for a stack of the tests. */
export function secretsProviderUrl(): Promise<string> {
  const shared = process.env[SHARED_KMS_ENV];
  if (shared !== undefined && shared !== "") return Promise.resolve(shared);
  own ??= startOwn().catch((error: unknown) => {
    own = undefined;
    throw error;
  });
  return own;
}

async function startOwn(): Promise<string> {
  const bin = await kmsScript.ensureLocalKms({ log: (line) => process.stderr.write(`${line}\n`) });
  const dir = runTempDir("local-kms-");
  const kms = await kmsScript.startLocalKms(bin, dir);
  process.once("exit", () => {
    void kms.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return kms.url;
}
