/**
 * The IPC loop of bench/raw-child.cjs: one raw creation, or one replay of Ansible's create_site
 * flow, per message, timed in this process.
 */
import { performance } from "node:perf_hooks";
import { Agent } from "undici";
import { replayFlow } from "../../tests/conformance/flow";
import { ansibleArcgisServerCreateSiteFlow } from "../../tests/conformance/flows/ansible-arcgis-server-create-site";
import {
  rawCreateSite,
  type RawCreateRequest,
  type RawCreateResult,
  type RawFlowRequest,
  type RawFlowResult,
} from "./raw";

async function createSite(message: RawCreateRequest): Promise<RawCreateResult> {
  const agent = new Agent({
    connect: message.caCert === undefined ? {} : { ca: message.caCert },
  });
  try {
    const started = performance.now();
    const { healthChecks } = await rawCreateSite(message, agent, message.runAsync);
    return { ok: true, ms: performance.now() - started, healthChecks };
  } catch (error) {
    return { ok: false, error: String(error) };
  } finally {
    await agent.close();
  }
}

async function ansibleCreateSite(message: RawFlowRequest): Promise<RawFlowResult> {
  try {
    const startedEpochMs = performance.timeOrigin + performance.now();
    const replay = await replayFlow(
      ansibleArcgisServerCreateSiteFlow,
      message.serverUrl,
      message.caCert,
      { username: message.username, password: message.password },
    );
    if (replay.endedAt !== undefined) {
      return { ok: false, error: `the flow ended at step ${replay.endedAt} without creating` };
    }
    return {
      ok: true,
      sent: replay.sent,
      startedEpochMs,
      returnedEpochMs: replay.returnedEpochMs,
      requestMs: replay.requestMs,
    };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

/** Answers every message from the parent with the outcome of one creation. */
export function serve(): void {
  process.on("message", (message: RawCreateRequest | RawFlowRequest) => {
    void (async () => {
      const reply =
        message.kind === "ansible-create-site"
          ? await ansibleCreateSite(message)
          : await createSite(message);
      process.send!(reply);
    })();
  });
}
