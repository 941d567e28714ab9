/**
 * The one restore rule of the settings a resource keeps (common/kept/ledger.ts), for both
 * resources that keep settings, their implementations called directly against a real emulator:
 * `restoreOnDestroy` puts back a setting only where the server still holds exactly what this
 * stack wrote. A refresh after someone else's change, a create that finds the declared values in
 * place (a killed run's recovery), an import, and state written before the record existed never
 * make someone else's value look like the stack's own. The same cases through the real CLI, on
 * the dynamic and the plugin path: tests/real-engine/kept-settings.test.ts.
 */
import {
  closeDispatchers,
  editLogSettings,
  getLogSettings,
  getSystemProperties,
  updateSystemProperties,
  type AdminSession,
} from "../../provider/client";
import { ledgerAfter, restorePlan, leftMessage } from "../../provider/resources/common/kept/ledger";
import { implementation as logSettings } from "../../provider/resources/log-settings/lifecycle";
import { implementation as systemProperties } from "../../provider/resources/system-properties/lifecycle";
import { importer as logSettingsImporter } from "../../provider/resources/log-settings/import";
import { parseImportId } from "../../provider/resources/common/pulumi/importer";
import { withOperationLogger } from "../../provider/resources/common/messages/operation-log";
import type { ResourceImplementation } from "../../provider/resources/common/pulumi/lazy-provider";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";

const PASSWORD = "kept-Password-1";

afterAll(() => closeDispatchers());

/** How a test drives one resource that keeps settings. */
interface Kept {
  name: string;
  implementation: ResourceImplementation;
  /** The record of what the stack wrote, in the resource's outputs. */
  writtenKey: string;
  /** Declares the setting with `value`. */
  declare: (value: string) => Record<string, unknown>;
  /** The setting as the server holds it. */
  get: (session: AdminSession) => Promise<unknown>;
  /** Sets it behind the stack's back, as an operator would. */
  set: (session: AdminSession, value: string) => Promise<void>;
  /** A value before the stack, the stack's, an operator's and another of the stack's. */
  values: [string, string, string, string];
}

const KEPT: Kept[] = [
  {
    name: "LogSettings",
    implementation: logSettings,
    writtenKey: "writtenSettings",
    declare: (value) => ({ logLevel: value }),
    get: async (session) => (await getLogSettings(session)).logLevel,
    set: async (session, value) => {
      await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: value });
    },
    values: ["WARNING", "SEVERE", "DEBUG", "INFO"],
  },
  {
    name: "SystemProperties",
    implementation: systemProperties,
    writtenKey: "writtenProperties",
    declare: (value) => ({ properties: { WebContextURL: value } }),
    get: async (session) => (await getSystemProperties(session)).WebContextURL,
    set: async (session, value) => {
      await updateSystemProperties(session, {
        ...(await getSystemProperties(session)),
        WebContextURL: value,
      });
    },
    values: [
      "https://original.example.com/server",
      "https://stack.example.com/server",
      "https://operator.example.com/server",
      "https://next.example.com/server",
    ],
  },
];

describe.each(KEPT)("$name with restoreOnDestroy", (kept) => {
  const [BEFORE, STACK, OPERATOR, NEXT] = kept.values;
  let emu: TestEmulator;
  let session: AdminSession;
  beforeEach(async () => {
    ({ emu, session } = await startTestSite(PASSWORD, { serverType: "mission-server" }));
    await kept.set(session, BEFORE);
  });
  afterEach(() => emu.close());

  async function inputs(value: string) {
    const result = await kept.implementation.check(
      {},
      {
        serverType: "mission-server",
        adminUrl: emu.adminUrl,
        username: "siteadmin",
        password: PASSWORD,
        tls: { caCert: emu.caCert! },
        restoreOnDestroy: true,
        ...kept.declare(value),
      },
    );
    expect(result.failures ?? []).toEqual([]);
    return result.inputs!;
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

  it("an operator's change, then a refresh, then destroy: the operator's value stays", async () => {
    const { id, outs } = await kept.implementation.create(await inputs(STACK));
    await kept.set(session, OPERATOR);
    const refreshed = await kept.implementation.read(id, outs);
    // The refresh records the operator's value as the declared one, and not as the stack's.
    expect(refreshed.props![kept.writtenKey]).toEqual(outs[kept.writtenKey]);
    const destroy = await said(() => kept.implementation.delete(id, refreshed.props));
    expect(await kept.get(session)).toBe(OPERATOR);
    expect(destroy.lines.join("\n")).toContain("someone else changed it since");
  });

  it("an operator's change without a refresh: the operator's value stays", async () => {
    const { id, outs } = await kept.implementation.create(await inputs(STACK));
    await kept.set(session, OPERATOR);
    await kept.implementation.delete(id, outs);
    expect(await kept.get(session)).toBe(OPERATOR);
  });

  it("a value still as the stack wrote it, after a refresh and an update: restored to the one before the stack", async () => {
    const created = await kept.implementation.create(await inputs(STACK));
    const refreshed = await kept.implementation.read(created.id, created.outs);
    const updated = await kept.implementation.update(
      created.id,
      refreshed.props,
      await inputs(NEXT),
    );
    expect(await kept.get(session)).toBe(NEXT);
    await kept.implementation.delete(created.id, updated.outs);
    expect(await kept.get(session)).toBe(BEFORE);
  });

  it("a create that finds every declared value in place (a killed run's recovery) warns, and destroy restores nothing", async () => {
    // What a killed create had written before the run died.
    await kept.set(session, STACK);
    const created = await said(async () => kept.implementation.create(await inputs(STACK)));
    expect(created.lines.join("\n")).toContain(
      "warning: The server already holds every declared value",
    );
    expect(created.result.outs[kept.writtenKey]).toEqual({});
    const destroy = await said(() =>
      kept.implementation.delete(created.result.id, created.result.outs),
    );
    expect(await kept.get(session)).toBe(STACK);
    expect(destroy.lines.join("\n")).toContain("this stack has no record of writing it");
  });

  it("a state written before the record existed: destroy restores nothing and says which and why", async () => {
    const { id, outs } = await kept.implementation.create(await inputs(STACK));
    const { [kept.writtenKey]: _written, ...older } = outs as Record<string, unknown>;
    const destroy = await said(() => kept.implementation.delete(id, older));
    expect(await kept.get(session)).toBe(STACK);
    const text = destroy.lines.join("\n");
    expect(text).toContain(`now ${JSON.stringify(STACK)}`);
    expect(text).toContain("written by an earlier version of pulumi-arcgis-admin");
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
