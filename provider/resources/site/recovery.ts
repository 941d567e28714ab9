/**
 * Site's side of recovering a killed run: the refresh of a create that was interrupted proves,
 * before the stack keeps it, that the site on the machine is the one it asked for.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isAuthError } from "../../client";
import { messageOf } from "../common/failures";
import { logInfo, logWarn } from "../common/log";
import { currentOutputs, isOurSite, type SiteOutputs } from "./report";
import type { SiteServer } from "./server";

/**
 * The `state` that `npm start`'s recovery (scripts/quickstart.cjs `recoverInterruptedRun`) records
 * for a Site whose create was interrupted by a killed run (the engine had recorded a pending
 * create; the lock of the run's dead process proves the run ended there), before it refreshes.
 */
const INTERRUPTED = "interrupted";

/** Whether state records an interrupted create (see {@link INTERRUPTED}). */
export function isInterruptedCreate(props: SiteOutputs): boolean {
  return (props.state as string) === INTERRUPTED;
}

/**
 * refresh of an interrupted create: the site on the machine is this stack's own only if the
 * declared credentials obtain an administrator token (a secret only the stack holds) and none of
 * the declared configuration (config store, directories, log settings) differs from the server's.
 * Then it is recorded as created, with no second createNewSite; otherwise it is dropped from state
 * and left alone, and the next `pulumi up` asks for `adoptExisting`.
 */
export async function recoverInterruptedCreate(
  id: string,
  server: SiteServer,
  props: SiteOutputs,
): Promise<pulumi.dynamic.ReadResult> {
  const { inputs } = server;
  let why: string | true;
  try {
    await server.session.token();
    why = await isOurSite(server, { credentialsSuffice: true });
  } catch (error) {
    why = isAuthError(error)
      ? "it does not accept this stack's credentials"
      : `its credentials could not be checked (${messageOf(error)})`;
  }
  if (why !== true) {
    logWarn(
      `The create of this Site was interrupted, and the site now at ${inputs.adminUrl} cannot be ` +
        `shown to be the one it asked for (${why}). It is left alone and not recorded in the ` +
        "stack. If it is the site you want, set adoptExisting: true and run `pulumi up`.",
    );
    return {};
  }
  logInfo(
    `The interrupted create of the site at ${inputs.adminUrl} had completed: the site accepts ` +
      "this stack's credentials and matches its declaration. Recorded as created; createNewSite " +
      "is not sent again.",
  );
  return { id, props: await currentOutputs(server, { ...props, state: "created" }) };
}
