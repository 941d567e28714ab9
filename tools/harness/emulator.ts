/**
 * Starts the project's emulator for a test: a fresh data directory, port 0 on 127.0.0.1, and the
 * CA certificate read back so that clients can trust it.
 */
import * as fs from "node:fs";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import {
  type AdminSession,
  createAdminSession,
  createNewSite,
  createPortalSession,
  getCollaboration,
  isNotFoundError,
} from "../../provider/client";
import { runTempDir } from "./temp";

/** A running emulator plus what tests need around it. */
export interface TestEmulator extends RunningEmulator {
  /** The CA certificate (PEM) to trust, or undefined without TLS. */
  caCert: string | undefined;
  dataDir: string;
}

/**
 * Starts an emulator with its own temporary data directory.
 *
 * @example
 * ```ts
 * const emu = await startTestEmulator({ createDelayMs: 300 });
 * afterAll(() => emu.close());
 * ```
 */
export async function startTestEmulator(
  options: Partial<EmulatorOptions> = {},
): Promise<TestEmulator> {
  const dataDir = options.dataDir ?? runTempDir("arcgis-emu-");
  const emulator = await startEmulator({ quiet: true, ...options, dataDir });
  const caCert =
    emulator.caCertFile === null ? undefined : fs.readFileSync(emulator.caCertFile, "utf8");
  return Object.assign(emulator, { caCert, dataDir });
}

/**
 * An emulator whose machine is in a site already (created with the client, as someone before the
 * stack did), and an administrator's session on it.
 */
export async function startTestSite(
  password: string,
  options: Partial<EmulatorOptions> = {},
): Promise<{ emu: TestEmulator; session: AdminSession }> {
  const emu = await startTestEmulator({ createDelayMs: 0, ...options });
  const serverType = emu.serverType;
  const tls = emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } };
  await createNewSite(emu.adminUrl, { serverType, username: "siteadmin", password }, tls);
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password,
    ...tls,
  });
  return { emu, session };
}

/** Site inputs that create a site on the given emulator (defaults filled in by check()). */
export function siteInputs(emu: TestEmulator, extra: Record<string, unknown> = {}) {
  return {
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: "site-Password-1",
    tls: emu.caCert === undefined ? {} : { caCert: emu.caCert },
    ...extra,
  };
}

/** Id of the portal in {@link portalSeed}. */
export const SEED_PORTAL_ID = "HOSTPORTAL1";

/**
 * A seed of a portal that hosts two collaborations (`hosted1`, `hosted2`) and is a guest of a
 * third (`joined1`), with the given users; its id is {@link SEED_PORTAL_ID} unless `portalId`
 * is given.
 */
export function portalSeed(
  users: Array<{ username: string; password: string; role: "org_admin" | "org_user" }>,
  portalId: string = SEED_PORTAL_ID,
) {
  return {
    portal: {
      id: portalId,
      users,
      collaborations: [
        {
          id: "hosted1",
          name: "Regional partners",
          description: "Shares basemaps with partners",
          hostPortalId: portalId,
          guestPortalIds: ["GUESTPORTAL9"],
        },
        {
          id: "hosted2",
          name: "Second",
          description: "",
          hostPortalId: portalId,
          guestPortalIds: [],
        },
        {
          id: "joined1",
          name: "State data hub",
          description: "Hosted elsewhere",
          hostPortalId: "STATEPORTAL7",
          guestPortalIds: [portalId],
        },
      ],
    },
  };
}

/**
 * Whether a collaboration still exists on the emulator's portal, asked as `admin` (through the
 * client, trusting the emulator's CA when it serves TLS).
 *
 * @example `expect(await collaborationExists(emu, ADMIN, "hosted1")).toBe(false)`
 */
export async function collaborationExists(
  emu: TestEmulator,
  admin: { username: string; password: string },
  collaborationId: string,
  portalId: string = SEED_PORTAL_ID,
): Promise<boolean> {
  const session = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...admin,
    tls: emu.caCert === undefined ? {} : { caCert: emu.caCert },
  });
  try {
    await getCollaboration(session, portalId, collaborationId);
    return true;
  } catch (error) {
    if (isNotFoundError(error)) return false;
    throw error;
  }
}
