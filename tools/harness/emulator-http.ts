/**
 * Test support for the emulator suites: an emulator on port 0 with its own data dir, an
 * undici agent that trusts its certificate, and small request helpers.
 */
import { promises as fs, readFileSync } from "node:fs";
import { Agent, request } from "undici";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { runTempDir } from "./temp";

/** The site administrator every suite creates. */
export const SITE_ADMIN = { username: "siteadmin-7f3a", password: "Site-Secret-Pass-9q" };

/** A received answer. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body (undefined when not JSON); arbitrary JSON that each test asserts on. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Request options of {@link send}. */
export interface SendOptions {
  form?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends one request; the answer's body is read whole and parsed as JSON when it is JSON. */
export async function send(
  agent: Agent,
  method: "GET" | "POST",
  url: string,
  options: SendOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    headers["content-type"] ??= "application/x-www-form-urlencoded";
  }
  const res = await request(url, { method, headers, body: body ?? null, dispatcher: agent });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** An emulator started for a test, plus helpers bound to it. */
export class Harness {
  readonly agent: Agent;
  readonly ca: string | undefined;

  private constructor(
    readonly emu: RunningEmulator,
    readonly dataDir: string,
  ) {
    this.ca = emu.caCertFile === null ? undefined : readFileSync(emu.caCertFile, "utf8");
    this.agent = new Agent(this.ca === undefined ? {} : { connect: { ca: this.ca } });
  }

  /**
   * Starts an emulator (quiet, short delays) in a new data dir unless one is given. The
   * suites that use it test the emulator's mechanics (parameters, tokens, exports, state) in
   * ArcGIS Server's dialect, whose error documents they read (`status`, `code`, `messages`),
   * unless `serverType` says otherwise; each product's own dialect is tested in
   * products.test.ts and by the conformance corpus.
   */
  static async start(options: EmulatorOptions = {}): Promise<Harness> {
    const dataDir = options.dataDir ?? runTempDir("arcgis-emu-test-");
    try {
      const emu = await startEmulator({
        quiet: true,
        createDelayMs: 200,
        exportDelayMs: 200,
        serverType: "arcgis-server",
        ...options,
        dataDir,
      });
      return new Harness(emu, dataDir);
    } catch (error) {
      if (options.dataDir === undefined) await fs.rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** POSTs an admin operation (`f=json` unless the form sets f). */
  admin(
    op: string,
    form: Record<string, string> = {},
    headers?: Record<string, string>,
  ): Promise<Answer> {
    return send(this.agent, "POST", `${this.emu.adminUrl}/${op}`, {
      form: { f: "json", ...form },
      ...(headers === undefined ? {} : { headers }),
    });
  }

  /** GETs a URL relative to the admin root (include the query yourself). */
  adminGet(pathAndQuery: string, headers?: Record<string, string>): Promise<Answer> {
    return send(this.agent, "GET", `${this.emu.adminUrl}${pathAndQuery}`, {
      ...(headers === undefined ? {} : { headers }),
    });
  }

  /** POSTs a sharing API operation (`f=json` unless the form sets f). */
  sharing(
    op: string,
    form: Record<string, string> = {},
    headers?: Record<string, string>,
  ): Promise<Answer> {
    return send(this.agent, "POST", `${this.emu.sharingUrl}/${op}`, {
      form: { f: "json", ...form },
      ...(headers === undefined ? {} : { headers }),
    });
  }

  /** GETs a URL relative to the sharing root. */
  sharingGet(pathAndQuery: string, headers?: Record<string, string>): Promise<Answer> {
    return send(this.agent, "GET", `${this.emu.sharingUrl}${pathAndQuery}`, {
      ...(headers === undefined ? {} : { headers }),
    });
  }

  /** Creates a site synchronously with {@link SITE_ADMIN}; fails the test otherwise. */
  async createSite(extra: Record<string, string> = {}): Promise<Answer> {
    const answer = await this.admin("createNewSite", { ...SITE_ADMIN, ...extra });
    if (answer.json?.status !== "success") throw new Error(`createNewSite failed: ${answer.text}`);
    return answer;
  }

  /** An admin token for {@link SITE_ADMIN}. */
  async adminToken(extra: Record<string, string> = {}): Promise<string> {
    const answer = await this.admin("generateToken", { ...SITE_ADMIN, ...extra });
    if (typeof answer.json?.token !== "string")
      throw new Error(`generateToken failed: ${answer.text}`);
    return answer.json.token as string;
  }

  /** A portal token. */
  async portalToken(
    username: string,
    password: string,
    extra: Record<string, string> = {},
  ): Promise<string> {
    const answer = await this.sharing("generateToken", { username, password, ...extra });
    if (typeof answer.json?.token !== "string")
      throw new Error(`generateToken failed: ${answer.text}`);
    return answer.json.token as string;
  }

  /** Waits until the admin root no longer says creation is in progress. */
  async waitForSite(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const root = await this.adminGet("/?f=json");
      if (root.json?.code !== 503) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("site creation did not finish in time");
  }

  /** Stops the emulator, closes the agent and removes the data dir. */
  async close(options: { keepDataDir?: boolean } = {}): Promise<void> {
    await this.emu.close();
    await this.agent.close();
    if (options.keepDataDir !== true) await fs.rm(this.dataDir, { recursive: true, force: true });
  }
}
