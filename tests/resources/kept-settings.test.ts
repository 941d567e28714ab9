/**
 * The one rule of the settings a resource keeps (common/kept/), for both resources that keep
 * settings, parameterised, their implementations called directly against a real emulator: the
 * declared settings are kept as declared and every other one is the server's; a write is sent
 * only where the server holds another value, waits while an export holds the site, and settles a
 * lost answer by reading, never by sending again; a refresh records drift; and
 * `restoreOnDestroy` puts back a setting only where the server still holds exactly what this
 * stack wrote. A refresh after someone else's change, a create that finds the declared values in
 * place (a killed run's recovery), an import, and state written before the record existed never
 * make someone else's value look like the stack's own. What is each resource's own (its input
 * rules, LogSettings' whole set, SystemProperties' added properties): log-settings.test.ts and
 * system-properties.test.ts. The same cases through the real CLI, on the dynamic and the plugin
 * path: tests/real-engine/kept-settings.test.ts.
 */
import {
  closeDispatchers,
  editLogSettings,
  exportSite,
  getLogSettings,
  getSecurityConfig,
  getSystemProperties,
  updateSystemProperties,
  type AdminSession,
  type ServerType,
} from "../../provider/client";
import { ledgerAfter, restorePlan, leftMessage } from "../../provider/resources/common/kept/ledger";
import { implementation as logSettings } from "../../provider/resources/log-settings/lifecycle";
import { implementation as systemProperties } from "../../provider/resources/system-properties/lifecycle";
import {
  implementation as securitySettings,
  securityView,
} from "../../provider/resources/security-settings/lifecycle";
import { importer as logSettingsImporter } from "../../provider/resources/log-settings/import";
import { parseImportId } from "../../provider/resources/common/pulumi/importer";
import { withOperationLogger } from "../../provider/resources/common/messages/operation-log";
import type { ResourceImplementation } from "../../provider/resources/common/pulumi/lazy-provider";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { setSecurityConfig } from "../../tools/harness/security-config";

const PASSWORD = "kept-Password-1";

afterAll(() => closeDispatchers());

type Settings = Record<string, unknown>;

/** How a test drives one resource that keeps settings. */
interface Kept {
  name: string;
  /** What its messages call the settings. */
  what: string;
  implementation: ResourceImplementation;
  /** The outputs that record the settings before the stack, what it wrote, and the server's. */
  outputs: { previous: string; written: string; server: string };
  /** The operation that writes the settings, as the emulator's request log shows it. */
  write: string;
  /** The inputs that declare `settings`. */
  declare: (settings: Settings) => Settings;
  /** The settings as the server holds them. */
  get: (session: AdminSession) => Promise<Settings>;
  /** Sets some behind the stack's back, as an operator would; the others stay as they are. */
  set: (session: AdminSession, settings: Settings) => Promise<void>;
  /** The setting every case declares. */
  key: string;
  /** Its value before the stack, the stack's, an operator's and another of the stack's. */
  values: [unknown, unknown, unknown, unknown];
  /** Another setting a case declares with it: its name, value before the stack, the stack's, an operator's. */
  second: [string, unknown, unknown, unknown];
  /** A setting the stack never declares: its name, value before the stack and another. */
  undeclared: [string, unknown, unknown];
}

const KEPT: Kept[] = [
  {
    name: "LogSettings",
    what: "log settings",
    implementation: logSettings,
    outputs: {
      previous: "previousSettings",
      written: "writtenSettings",
      server: "serverLogSettings",
    },
    write: "/logs/settings/edit",
    declare: (settings) => settings,
    get: (session) => getLogSettings(session),
    set: async (session, settings) => {
      const edit = { ...(await getLogSettings(session)), ...settings };
      await editLogSettings(session, edit);
    },
    key: "logLevel",
    values: ["WARNING", "SEVERE", "DEBUG", "INFO"],
    second: ["maxLogFileAge", 90, 7, 14],
    undeclared: ["maxErrorReportsCount", 10, 3],
  },
  {
    name: "SystemProperties",
    what: "system properties",
    implementation: systemProperties,
    outputs: {
      previous: "previousProperties",
      written: "writtenProperties",
      server: "serverProperties",
    },
    write: "/system/properties/update",
    declare: (settings) => ({ properties: settings }),
    get: (session) => getSystemProperties(session),
    set: async (session, settings) => {
      await updateSystemProperties(session, {
        ...(await getSystemProperties(session)),
        ...settings,
      });
    },
    key: "WebContextURL",
    values: [
      "https://original.example.com/server",
      "https://stack.example.com/server",
      "https://operator.example.com/server",
      "https://next.example.com/server",
    ],
    second: ["javaExtsBeginPort", 11000, 12000, 13000],
    undeclared: ["localTempFolder", "/tmp/arcgis", "/tmp/elsewhere"],
  },
  {
    name: "SecuritySettings",
    what: "security settings",
    implementation: securitySettings,
    outputs: {
      previous: "previousSettings",
      written: "writtenSettings",
      server: "serverSecuritySettings",
    },
    write: "/security/config/update",
    declare: (settings) => settings,
    // The managed settings, and a field of the configuration it never declares.
    get: async (session) => {
      const config = await getSecurityConfig(session);
      return { ...securityView(config), allowedAdminAccessIPs: config.allowedAdminAccessIPs };
    },
    set: (session, settings) => setSecurityConfig(session, settings),
    // Each list keeps a TLS 1.2 and a TLS 1.3 suite, so every protocol set below has one.
    key: "cipherSuites",
    values: [
      ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"],
      ["TLS_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"],
      ["TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"],
      ["TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"],
    ],
    second: ["tlsProtocols", ["TLSv1.2"], ["TLSv1.2", "TLSv1.3"], ["TLSv1.3"]],
    undeclared: ["allowedAdminAccessIPs", "", "10.0.0.1"],
  },
];

const SERVER_TYPES: ServerType[] = ["mission-server", "arcgis-server"];

/** What a driver of one resource on one server needs; `start` starts the server. */
function driver(kept: Kept) {
  const [BEFORE] = kept.values;
  const [second, secondBefore] = kept.second;
  const [undeclared, undeclaredBefore] = kept.undeclared;
  const state: { emu: TestEmulator; session: AdminSession; adminUrl: string } = {} as never;

  /** A server with a site whose settings someone set before the stack. */
  async function start(serverType: ServerType, options: { tls?: false } = {}) {
    const { emu, session } = await startTestSite(PASSWORD, {
      serverType,
      exportDelayMs: 600,
      ...options,
    });
    Object.assign(state, { emu, session, adminUrl: emu.adminUrl });
    await kept.set(session, {
      [kept.key]: BEFORE,
      [second]: secondBefore,
      [undeclared]: undeclaredBefore,
    });
  }

  function raw(settings: Settings, extra: Settings = {}): Settings {
    return {
      serverType: state.emu.serverType,
      adminUrl: state.adminUrl,
      username: "siteadmin",
      password: PASSWORD,
      ...(state.emu.caCert === undefined ? {} : { tls: { caCert: state.emu.caCert } }),
      ...kept.declare(settings),
      ...extra,
    };
  }

  /** Inputs as check() leaves them, declaring `settings`. */
  async function inputs(settings: Settings, extra: Settings = {}): Promise<Settings> {
    const result = await kept.implementation.check({}, raw(settings, extra));
    expect(result.failures ?? []).toEqual([]);
    return result.inputs!;
  }

  /** How many writes the server has been sent (the operator's included). */
  const writes = () =>
    state.emu.requestLog().filter((r) => r.method === "POST" && r.url.includes(kept.write)).length;

  return { state, start, inputs, writes };
}

/** Runs a step, returning its result and what it said. */
async function said<T>(step: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const result = await withOperationLogger(
    { log: (severity, message) => lines.push(`${severity}: ${message}`) },
    step,
  );
  return { result, lines };
}

describe.each(KEPT)("$name check() and diff()", (kept) => {
  const [, STACK, , NEXT] = kept.values;
  const base = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: PASSWORD,
  };
  async function checked(raw: Settings): Promise<Settings> {
    const result = await kept.implementation.check({}, raw);
    expect(result.failures ?? []).toEqual([]);
    return result.inputs!;
  }
  async function olds(): Promise<Settings> {
    const inputs = await checked({ ...base, ...kept.declare({ [kept.key]: STACK }) });
    return {
      ...inputs,
      [kept.outputs.previous]: {},
      [kept.outputs.written]: { [kept.key]: STACK },
      [kept.outputs.server]: { [kept.key]: STACK },
    };
  }

  it("fills in restoreOnDestroy false and the default time limit", async () => {
    expect(await checked({ ...base, ...kept.declare({ [kept.key]: STACK }) })).toMatchObject({
      serverType: "mission-server",
      restoreOnDestroy: false,
      timeouts: { changeMs: 600_000 },
    });
  });

  it("finds nothing to do when the declared settings and the rest are unchanged", async () => {
    const news = await checked({ ...base, ...kept.declare({ [kept.key]: STACK }) });
    expect(await kept.implementation.diff("id", await olds(), news)).toEqual({ changes: false });
  });

  it("updates in place for a declared setting or a credential, and replaces only for another server", async () => {
    const news = await checked({ ...base, ...kept.declare({ [kept.key]: STACK }) });
    const diff = async (change: Settings) =>
      kept.implementation.diff("id", await olds(), { ...news, ...change });
    expect(await diff(kept.declare({ [kept.key]: NEXT }))).toEqual({ changes: true });
    expect(await diff({ password: "other" })).toEqual({ changes: true });
    expect(await diff({ adminUrl: "https://GIS.example.com:20443/arcgis/admin/" })).toEqual({
      changes: true,
    });
    expect(await diff({ adminUrl: "https://other:20443/arcgis/admin" })).toEqual({
      changes: true,
      replaces: ["adminUrl"],
      deleteBeforeReplace: true,
    });
  });
});

describe.each(KEPT.flatMap((kept) => SERVER_TYPES.map((serverType) => ({ ...kept, serverType }))))(
  "$name on $serverType",
  (kept) => {
    const [BEFORE, STACK, OPERATOR, NEXT] = kept.values;
    const [second, secondBefore, secondStack, secondOperator] = kept.second;
    const [undeclared, undeclaredBefore, undeclaredOther] = kept.undeclared;
    const { state, start, inputs, writes } = driver(kept);
    const impl = kept.implementation;
    beforeEach(() => start(kept.serverType));
    afterEach(() => state.emu.close());

    it("create writes the declared settings that differ, once, and records what they were and what it wrote; the same declaration again writes nothing", async () => {
      const declared = { [kept.key]: STACK, [second]: secondBefore };
      const before = writes();
      const { id, outs } = await impl.create(await inputs(declared));
      expect(writes() - before).toBe(1);
      expect(outs[kept.outputs.previous]).toMatchObject({
        [kept.key]: BEFORE,
        [second]: secondBefore,
      });
      expect(outs[kept.outputs.written]).toEqual({ [kept.key]: STACK });
      expect(outs[kept.outputs.server]).toMatchObject(declared);
      expect(await kept.get(state.session)).toMatchObject({
        ...declared,
        [undeclared]: undeclaredBefore,
      });

      await impl.create(await inputs(declared));
      const again = await impl.update(id, outs, await inputs(declared));
      expect(writes() - before).toBe(1);
      expect(again.outs).toMatchObject({ [kept.outputs.previous]: { [kept.key]: BEFORE } });
    });

    it("update writes a changed setting in place; a refresh records drift as the server's value, and without drift changes nothing", async () => {
      const created = await impl.create(await inputs({ [kept.key]: STACK }));
      const changed = await inputs({ [kept.key]: NEXT });
      expect(await impl.diff(created.id, created.outs, changed)).toEqual({ changes: true });
      const updated = (await impl.update(created.id, created.outs, changed)).outs!;
      expect(updated).toMatchObject(kept.declare({ [kept.key]: NEXT }));
      expect(updated[kept.outputs.previous]).toEqual(created.outs[kept.outputs.previous]);
      expect((await kept.get(state.session))[kept.key]).toEqual(NEXT);

      await kept.set(state.session, { [kept.key]: OPERATOR });
      const refreshed = await impl.read(created.id, updated);
      expect(refreshed.props).toMatchObject({
        ...kept.declare({ [kept.key]: OPERATOR }),
        [kept.outputs.server]: { [kept.key]: OPERATOR },
      });
      expect(refreshed.inputs).toMatchObject(kept.declare({ [kept.key]: OPERATOR }));
      expect(refreshed.inputs).not.toHaveProperty(kept.outputs.previous);
      expect(await impl.diff(created.id, refreshed.props, changed)).toEqual({ changes: true });

      const written = await impl.update(created.id, refreshed.props, changed);
      const clean = await impl.read(created.id, written.outs);
      expect(clean.props).toMatchObject(kept.declare({ [kept.key]: NEXT }));
      expect(await impl.diff(created.id, clean.props, changed)).toEqual({ changes: false });
    });

    it("destroy without restoreOnDestroy writes nothing and leaves the settings", async () => {
      const { id, outs } = await impl.create(await inputs({ [kept.key]: STACK }));
      const before = writes();
      await impl.delete(id, outs);
      expect(writes()).toBe(before);
      expect((await kept.get(state.session))[kept.key]).toEqual(STACK);
    });

    it("restoreOnDestroy puts back, in one write, only the declared settings the server still holds as written, and leaves every other one", async () => {
      const { id, outs } = await impl.create(
        await inputs({ [kept.key]: STACK, [second]: secondStack }, { restoreOnDestroy: true }),
      );
      // After the stack: an operator changes one of its settings and one it does not declare.
      await kept.set(state.session, { [second]: secondOperator, [undeclared]: undeclaredOther });
      const before = writes();
      await impl.delete(id, outs);
      expect(writes() - before).toBe(1);
      expect(await kept.get(state.session)).toMatchObject({
        [kept.key]: BEFORE,
        [second]: secondOperator,
        [undeclared]: undeclaredOther,
      });
    });

    it("waits while an export holds the site, then writes", async () => {
      const exporting = exportSite(state.session);
      await new Promise((r) => setTimeout(r, 150));
      const { outs } = await impl.create(await inputs({ [kept.key]: STACK }));
      await exporting;
      expect(outs[kept.outputs.server]).toMatchObject({ [kept.key]: STACK });
      expect(state.emu.stats().changesRefusedDuringExport).toBeGreaterThan(0);
    });
  },
);

describe.each(KEPT)("$name with restoreOnDestroy", (kept) => {
  const [BEFORE, STACK, OPERATOR, NEXT] = kept.values;
  const { state, start, inputs: declared, writes } = driver(kept);
  beforeEach(() => start("mission-server"));
  afterEach(() => state.emu.close());

  const inputs = (value: unknown) => declared({ [kept.key]: value }, { restoreOnDestroy: true });
  const get = async () => (await kept.get(state.session))[kept.key];
  const set = (value: unknown) => kept.set(state.session, { [kept.key]: value });
  const writtenKey = kept.outputs.written;
  const impl = kept.implementation;

  it("an operator's change, then a refresh, then destroy: the operator's value stays", async () => {
    const { id, outs } = await impl.create(await inputs(STACK));
    await set(OPERATOR);
    const refreshed = await impl.read(id, outs);
    // The refresh records the operator's value as the declared one, and not as the stack's.
    expect(refreshed.props![writtenKey]).toEqual(outs[writtenKey]);
    const destroy = await said(() => impl.delete(id, refreshed.props));
    expect(await get()).toEqual(OPERATOR);
    expect(destroy.lines.join("\n")).toContain("someone else changed it since");
  });

  it("an operator's change without a refresh: the operator's value stays", async () => {
    const { id, outs } = await impl.create(await inputs(STACK));
    await set(OPERATOR);
    await impl.delete(id, outs);
    expect(await get()).toEqual(OPERATOR);
  });

  it("a value still as the stack wrote it, after a refresh and an update: restored to the one before the stack", async () => {
    const created = await impl.create(await inputs(STACK));
    const refreshed = await impl.read(created.id, created.outs);
    const updated = await impl.update(created.id, refreshed.props, await inputs(NEXT));
    expect(await get()).toEqual(NEXT);
    const destroy = await said(() => impl.delete(created.id, updated.outs));
    expect(await get()).toEqual(BEFORE);
    expect(destroy.lines.join("\n")).toContain(
      `info: Restored ${kept.key} of the ${kept.what} of ${state.adminUrl}`,
    );
  });

  it("a create that finds every declared value in place (a killed run's recovery) warns, and destroy writes nothing", async () => {
    // What a killed create had written before the run died.
    await set(STACK);
    const before = writes();
    const created = await said(async () => impl.create(await inputs(STACK)));
    expect(created.lines.join("\n")).toContain(
      "warning: The server already holds every declared value",
    );
    expect(created.result.outs[writtenKey]).toEqual({});
    const destroy = await said(() => impl.delete(created.result.id, created.result.outs));
    expect(writes()).toBe(before);
    expect(await get()).toEqual(STACK);
    expect(destroy.lines.join("\n")).toContain("this stack has no record of writing it");
  });

  it("a state written before the record existed: destroy restores nothing and says which and why", async () => {
    const { id, outs } = await impl.create(await inputs(STACK));
    const { [writtenKey]: _written, ...older } = outs as Record<string, unknown>;
    const destroy = await said(() => impl.delete(id, older));
    expect(await get()).toEqual(STACK);
    const text = destroy.lines.join("\n");
    expect(text).toContain(`now ${JSON.stringify(STACK)}`);
    expect(text).toContain("written by an earlier version of pulumi-arcgis-admin");
  });
});

describe.each(KEPT)("$name and a lost answer of its write", (kept) => {
  const [BEFORE, STACK] = kept.values;
  const { state, start, inputs, writes } = driver(kept);
  let proxy: FaultProxy;
  beforeEach(async () => {
    await start("mission-server", { tls: false });
    proxy = await startFaultProxy(new URL(state.emu.adminUrl).origin);
    state.adminUrl = proxy.url + new URL(state.emu.adminUrl).pathname;
  });
  afterEach(async () => {
    await proxy.close();
    await state.emu.close();
  });
  const posts = () =>
    proxy.seen.filter((r) => r.method === "POST" && r.path.includes(kept.write)).length;
  const failing = (fault: "drop-answer" | 502) =>
    proxy.setRule(({ method, path }) =>
      method === "POST" && path.includes(kept.write)
        ? fault === 502
          ? { kind: "status", status: 502 }
          : { kind: "drop-answer" }
        : undefined,
    );

  it("an answer lost after the server acted: read, found done, never sent again", async () => {
    failing("drop-answer");
    const before = writes();
    const created = await said(async () =>
      kept.implementation.create(await inputs({ [kept.key]: STACK })),
    );
    expect(posts()).toBe(1);
    expect(writes() - before).toBe(1);
    expect(created.lines.join("\n")).toContain("the server shows the change, so it is done");
    expect(created.result.outs[kept.outputs.server]).toMatchObject({ [kept.key]: STACK });
    expect((await kept.get(state.session))[kept.key]).toEqual(STACK);
  });

  it("an answer lost before the server acted: an error that says so, and nothing sent again", async () => {
    failing(502);
    const wanted = `${kept.key} ${JSON.stringify(BEFORE)} (wanted ${JSON.stringify(STACK)})`;
    const error = await kept.implementation.create(await inputs({ [kept.key]: STACK })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(/was lost \(/);
    expect(String(error)).toContain(`the server reports ${wanted}. It was not sent again`);
    expect(posts()).toBe(1);
    expect((await kept.get(state.session))[kept.key]).toEqual(BEFORE);
  });
});

describe("LogSettings imported", () => {
  it("records nothing as written: with restoreOnDestroy set later, destroy restores nothing", async () => {
    const { emu, session } = await startTestSite(PASSWORD, { serverType: "mission-server" });
    try {
      const id = parseImportId(
        "LogSettings",
        emu.adminUrl,
        logSettingsImporter.options,
        logSettingsImporter.idFormat,
      );
      const raw = {
        serverType: "mission-server",
        adminUrl: emu.adminUrl,
        username: "siteadmin",
        password: PASSWORD,
        tls: { caCert: emu.caCert! },
        logLevel: "WARNING",
      };
      const adopted = await logSettingsImporter.adopt(
        id,
        (await logSettings.check({}, raw)).inputs,
      );
      expect(adopted.outs.writtenSettings).toEqual({});
      await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "DEBUG" });
      await logSettings.delete(adopted.id, { ...adopted.outs, restoreOnDestroy: true });
      expect((await getLogSettings(session)).logLevel).toBe("DEBUG");
    } finally {
      await emu.close();
    }
  });
});

describe("the ledger", () => {
  const declared = ["a", "b"];

  it("records the value a setting had before this stack first wrote it, and what it wrote", () => {
    const created = ledgerAfter(undefined, {
      declared,
      before: { a: 1, b: 2, c: 3 },
      wrote: { a: 10 },
    });
    expect(created).toEqual({ previous: { a: 1, b: 2 }, added: [], written: { a: 10 } });
    // Someone set b; the stack then writes it for the first time: its previous is what it replaced.
    const updated = ledgerAfter(created, {
      declared,
      before: { a: 10, b: 5 },
      wrote: { b: 20 },
    });
    expect(updated).toEqual({ previous: { a: 1, b: 5 }, added: [], written: { a: 10, b: 20 } });
    // No longer declared: forgotten.
    expect(ledgerAfter(updated, { declared: ["b"], before: {}, wrote: {} })).toEqual({
      previous: { b: 5 },
      added: [],
      written: { b: 20 },
    });
  });

  it("a setting the server did not have is recorded as added, and removed on restore", () => {
    const ledger = ledgerAfter(undefined, { declared: ["x"], before: {}, wrote: { x: "on" } });
    expect(ledger).toEqual({ previous: {}, added: ["x"], written: { x: "on" } });
    expect(restorePlan(ledger, ["x"], { x: "on" })).toEqual({ set: {}, remove: ["x"], left: [] });
  });

  it("restores only what the server still holds as written; says what it leaves", () => {
    const ledger = { previous: { a: 1, b: 2, c: 3 }, added: [], written: { a: 10, b: 20 } };
    const plan = restorePlan(ledger, ["a", "b", "c"], { a: 10, b: 99, c: 3 });
    expect(plan.set).toEqual({ a: 1 });
    expect(plan.left.map((l) => l.key)).toEqual(["b", "c"]);
    expect(leftMessage(plan, "the settings")).toMatch(
      /^Left b \(now 99, not the 20 this stack wrote/,
    );
  });

  it("a state without the record restores nothing", () => {
    const plan = restorePlan({ previous: { a: 1 }, added: [] }, ["a"], { a: 10 });
    expect(plan).toMatchObject({ set: {}, remove: [] });
    expect(plan.left).toHaveLength(1);
  });
});
