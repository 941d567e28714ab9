/** Site-only stacks of the root program on their own emulators, and archives of another machine. */
import {
  createAdminSession,
  createNewSite,
  editLogSettings,
  exportSite,
  getLogSettings,
  type ServerType,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { RealStack } from "./real-stack";
import type { ConfigValue } from "./stack-types";

/**
 * Stacks of the root program in its site-only form, each against its own emulator whose site
 * creation takes `createDelayMs`; `close()` (in afterAll) removes every stack and stops every
 * emulator started.
 *
 * @example
 * ```ts
 * const sites = siteStacks();
 * afterAll(() => sites.close());
 * const { emu, stack, config } = await sites.create("slow", 65_000);
 * ```
 */
export function siteStacks() {
  const stacks: RealStack[] = [];
  const emulators: TestEmulator[] = [];
  return {
    async create(name: string, createDelayMs: number) {
      const emu = await startTestEmulator({ createDelayMs });
      emulators.push(emu);
      const stack = await RealStack.create(name);
      stacks.push(stack);
      const config: Record<string, ConfigValue> = {
        adminUrl: { value: emu.adminUrl },
        caCert: { value: emu.caCert! },
        siteUsername: { value: "siteadmin" },
        sitePassword: { value: "site-Slow-Create-1", secret: true },
        siteOnly: { value: "true" },
      };
      return { emu, stack, config };
    },
    async close() {
      for (const stack of stacks) await stack.cleanup();
      for (const emu of emulators) await emu.close();
    },
  };
}

/** An archive made on another machine of the product, whose log level is INFO. */
export async function archiveOf(serverType: ServerType, folder: string): Promise<string> {
  const source = await startTestEmulator({
    serverType,
    createDelayMs: 0,
    exportDelayMs: 20,
    exportRoots: [folder],
  });
  try {
    const tls = { tls: { caCert: source.caCert! } };
    await createNewSite(
      source.adminUrl,
      { serverType, username: "sourceadmin", password: "source-Pass-1", runAsync: false },
      tls,
    );
    const session = createAdminSession({
      adminUrl: source.adminUrl,
      username: "sourceadmin",
      password: "source-Pass-1",
      ...tls,
    });
    await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "INFO" });
    return (await exportSite(session, { location: folder })).location;
  } finally {
    await source.close();
  }
}
