/**
 * Flows: the exact sequence of requests one of Esri's tools sends for one task (for example
 * Ansible's create_site module), each step taken from the tool's source at a commit, and what the
 * tool reads from each answer to go on, stop or fail. A flow is replayed with a plain HTTP client
 * ({@link replayFlow}) against the emulator: tests/conformance/flows.test.ts checks that the
 * emulator's answers lead the tool where a real server would, and bench/ uses the same replay to
 * compare the tool's flow with the provider's.
 */
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
import type { CaseRequest, Json, ServerType, Source } from "./corpus";

/** One request of a flow, and how the source reacts to its answer. */
export interface FlowStep {
  /** The function of the source that sends it, e.g. "ServerAdminClient.site_exists". */
  symbol: string;
  request: CaseRequest;
  /** The Referer header the source sends, if any. */
  referer?: string;
  /**
   * The source repeats the request, `everyMs` apart and at most `maxAttempts` times, while the
   * answer's HTTP status is at least `whileStatusAtLeast` or the connection fails.
   */
  repeat?: { whileStatusAtLeast: number; everyMs: number; maxAttempts: number };
  /** The source raises (the task fails) when the HTTP status is above this, or... */
  failsAboveStatus?: number;
  /** ...when the JSON answer's `status` is "error". */
  failsOnErrorStatus?: boolean;
  /** The flow ends after this step, with nothing more sent, when a field has one of these values. */
  endsWhen?: Array<{ field: string; anyOf: Json[] }>;
}

/** A task as one of Esri's tools performs it, request by request. */
export interface ConformanceFlow {
  /** Unique, kebab-case; also the file name. */
  name: string;
  serverType: ServerType;
  /** The evidence: every file the steps come from, at one commit. */
  sources: Source[];
  /** The machine's state the flow is recorded for (the path through the source's branches). */
  given: "no-site";
  steps: FlowStep[];
  /** What the source leaves open. */
  assumptions: string[];
}

/** What a replay did. */
export interface FlowReplay {
  /** Requests sent, in order: `GET /admin/`. */
  sent: string[];
  /** The step the flow ended at, by its `endsWhen` (undefined: it ran every step). */
  endedAt?: number;
  /** `performance.timeOrigin + performance.now()` when the last answer was read (epoch ms). */
  returnedEpochMs: number;
  /** Each request's time from sending it to its answer read, in order (ms, sub-millisecond). */
  requestMs: number[];
}

function encode(step: FlowStep): { query: string; body: string | undefined } {
  const fields = new URLSearchParams();
  for (const [name, value] of Object.entries(step.request.params)) {
    if (step.request.jsonParams?.includes(name)) fields.append(name, JSON.stringify(value));
    else if (value !== null && typeof value === "object") {
      throw new Error(`parameter ${name} is JSON but not listed in jsonParams`);
    } else fields.append(name, String(value));
  }
  return step.request.method === "GET"
    ? { query: `?${fields.toString()}`, body: undefined }
    : { query: "", body: fields.toString() };
}

/**
 * Sends a flow's requests to a server as its source does: one new connection per request
 * (Python's urllib closes each one), the parameters form-encoded in the source's order, each
 * answer read in full and judged as the source judges it.
 *
 * @param flow - the flow.
 * @param serverUrl - the server's context root, e.g. `https://127.0.0.1:20443/arcgis`.
 * @param caCert - the CA to trust (PEM), or undefined for the system's.
 * @param values - replaces each parameter's value by name (the site's username and password).
 * @throws when a step fails as the source would (the message names the step and the answer).
 */
export async function replayFlow(
  flow: ConformanceFlow,
  serverUrl: string,
  caCert: string | undefined,
  values: Record<string, string> = {},
): Promise<FlowReplay> {
  const agent = new Agent({ connect: caCert === undefined ? {} : { ca: caCert } });
  const sent: string[] = [];
  const requestMs: number[] = [];
  try {
    for (const [index, original] of flow.steps.entries()) {
      const step: FlowStep = {
        ...original,
        request: {
          ...original.request,
          params: Object.fromEntries(
            Object.entries(original.request.params).map(([k, v]) => [k, values[k] ?? v]),
          ),
        },
      };
      const { query, body } = encode(step);
      const attempts = step.repeat?.maxAttempts ?? 1;
      let status = 0;
      let text = "";
      for (let attempt = 1; ; attempt++) {
        sent.push(`${step.request.method} ${step.request.path}`);
        const started = performance.now();
        try {
          const answer = await request(`${serverUrl}${step.request.path}${query}`, {
            method: step.request.method,
            dispatcher: agent,
            reset: true,
            headers: {
              ...(step.referer === undefined ? {} : { referer: step.referer }),
              ...(body === undefined
                ? {}
                : { "content-type": "application/x-www-form-urlencoded" }),
            },
            ...(body === undefined ? {} : { body }),
          });
          status = answer.statusCode;
          text = await answer.body.text();
          requestMs.push(performance.now() - started);
        } catch (error) {
          if (step.repeat === undefined) throw error;
          status = 0;
        }
        const again =
          step.repeat !== undefined && (status === 0 || status >= step.repeat.whileStatusAtLeast);
        if (!again) break;
        if (attempt >= attempts) {
          throw new Error(
            `${flow.name} step ${index + 1} (${step.symbol}): gave up after ${attempts} attempts`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, step.repeat!.everyMs));
      }
      if (step.failsAboveStatus !== undefined && status > step.failsAboveStatus) {
        throw new Error(
          `${flow.name} step ${index + 1} (${step.symbol}) failed: HTTP ${status} ${text}`,
        );
      }
      const needsJson = step.failsOnErrorStatus === true || step.endsWhen !== undefined;
      const json = needsJson ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (step.failsOnErrorStatus === true && json.status === "error") {
        throw new Error(`${flow.name} step ${index + 1} (${step.symbol}) failed: ${text}`);
      }
      const ends = step.endsWhen?.some((c) =>
        c.anyOf.some((v) => JSON.stringify(v) === JSON.stringify(json[c.field])),
      );
      if (ends === true) {
        return {
          sent,
          endedAt: index + 1,
          returnedEpochMs: performance.timeOrigin + performance.now(),
          requestMs,
        };
      }
    }
    return { sent, returnedEpochMs: performance.timeOrigin + performance.now(), requestMs };
  } finally {
    await agent.close();
  }
}
