/**
 * SiteMachine under a lost joinSite answer: the joining machine sits behind the fault proxy,
 * which forwards joinSite and then replaces the answer by a load balancer's 502 (or cuts the
 * connection) after the machine has acted, or answers 502 without forwarding at all. joinSite is
 * never sent a second time: the machine is watched instead. Both machines are plain-HTTP
 * emulators of this process; the SiteMachine implementation is called as the provider host calls
 * it.
 */
import { createNewSite, createAdminSession, listMachines } from "../../provider/client";
import { implementation as siteMachine } from "../../provider/resources/site-machine/lifecycle";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  startFaultProxy,
  type Fault,
  type FaultProxy,
  faultsSeen,
  proxiedAdminUrl,
} from "../../tools/harness/fault-proxy";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";

const figures = new SuiteFigures("faults-site-machine");
afterAll(() => figures.write());

const SITE_ADMIN = { username: "siteadmin", password: "site-Password-1" };

function joinSitesReceived(emu: TestEmulator): number {
  return emu.requestLog().filter((r) => r.url.startsWith("/arcgis/admin/joinSite")).length;
}

async function siteMachineNames(siteEmu: TestEmulator): Promise<string[]> {
  return listMachines(createAdminSession({ adminUrl: siteEmu.adminUrl, ...SITE_ADMIN }));
}

describe("SiteMachine: a lost joinSite answer", () => {
  let site: TestEmulator;
  let machine: TestEmulator;
  let proxy: FaultProxy;

  afterEach(async () => {
    await proxy?.close();
    await machine?.close();
    await site?.close();
  });

  async function start(joinDelayMs: number, fault: Fault) {
    site = await startTestEmulator({ tls: false, machineName: "machine-a", createDelayMs: 50 });
    await createNewSite(site.adminUrl, SITE_ADMIN);
    machine = await startTestEmulator({ tls: false, machineName: "machine-b", joinDelayMs });
    proxy = await startFaultProxy(new URL(machine.adminUrl).origin);
    proxy.setRule(({ path }) => (path.endsWith("/joinSite") ? fault : undefined));
    const checked = await siteMachine.check(
      {},
      {
        adminUrl: proxiedAdminUrl(proxy, machine),
        siteAdminUrl: site.adminUrl,
        machineName: "machine-b",
        ...SITE_ADMIN,
        timeouts: { serverReadyMs: 5_000, joinMs: 8_000 },
      },
    );
    expect(checked.failures ?? []).toEqual([]);
    return checked.inputs!;
  }

  const variants: Array<{ name: string; fault: Fault; joinDelayMs: number }> = [
    {
      name: "a load balancer's 502 after the machine joined",
      fault: { kind: "drop-answer", replaceWith: { status: 502 } },
      joinDelayMs: 300,
    },
    {
      name: "the connection cut after a 2 s join",
      fault: { kind: "drop-answer" },
      joinDelayMs: 2_000,
    },
  ];

  it.each(variants)(
    "ends with the machine joined and exactly one joinSite ($name)",
    async ({ name, fault, joinDelayMs }) => {
      const inputs = await start(joinDelayMs, fault);
      const outcome = await measure(siteMachine.create(inputs));
      const { outs } = valueOf(outcome);
      expect(outs).toMatchObject({ state: "joined", registeredName: "machine-b" });
      // The answer really was lost: the proxy applied the fault to the one joinSite.
      expect(proxy.seen.filter((s) => s.path.endsWith("/joinSite"))).toEqual([
        { method: "POST", path: "/arcgis/admin/joinSite", fault: "drop-answer" },
      ]);
      expect(joinSitesReceived(machine)).toBe(1);
      const machines = await siteMachineNames(site);
      expect(machines).toEqual(["machine-a", "machine-b"]);
      figures.record(
        `lost joinSite answer: ${name}`,
        {
          faultsInjected: faultsSeen(proxy),
          faultsSurvived: faultsSeen(proxy),
          dataLost: machines.includes("machine-b") ? 0 : 1,
        },
        { tookMs: outcome.ms, joinSiteRequests: joinSitesReceived(machine) },
      );
    },
  );

  it("a joinSite that never arrived: watches until joinMs, never sends it again, says what to check", async () => {
    // The gateway answers 502 without forwarding: the machine never sees the request.
    const inputs = await start(50, { kind: "status", status: 502 });
    const outcome = await measure(siteMachine.create(inputs));
    const error = errorOf(outcome);
    expect(error.message).toMatch(
      /answer to joinSite was lost .* did not appear in the site .*do not run `pulumi up` again before checking/,
    );
    expect(proxy.seen.filter((s) => s.path.endsWith("/joinSite"))).toHaveLength(1);
    expect(joinSitesReceived(machine)).toBe(0);
    expect(await siteMachineNames(site)).toEqual(["machine-a"]);
    figures.record(
      "joinSite never arrived (502 without forwarding)",
      { faultsInjected: faultsSeen(proxy), faultsSurvived: faultsSeen(proxy), dataLost: 0 },
      { tookMs: outcome.ms, joinSiteRequests: proxy.seen.length },
    );
  });
});
