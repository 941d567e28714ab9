/** The IPC loop of bench/raw-child.cjs: one raw creation per message, timed in this process. */
import { performance } from "node:perf_hooks";
import { Agent } from "undici";
import { rawCreateSite, type RawCreateRequest, type RawCreateResult } from "./raw";

/** Answers every message from the parent with the outcome of one raw creation. */
export function serve(): void {
  process.on("message", (message: RawCreateRequest) => {
    void (async () => {
      const agent = new Agent({
        connect: message.caCert === undefined ? {} : { ca: message.caCert },
      });
      try {
        const started = performance.now();
        const { healthChecks } = await rawCreateSite(message, agent, message.runAsync);
        const reply: RawCreateResult = { ok: true, ms: performance.now() - started, healthChecks };
        process.send!(reply);
      } catch (error) {
        const reply: RawCreateResult = { ok: false, error: String(error) };
        process.send!(reply);
      } finally {
        await agent.close();
      }
    })();
  });
}
