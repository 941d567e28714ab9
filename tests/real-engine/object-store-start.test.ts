/**
 * scripts/object-store.cjs, the start of `weed server`: its ports are picked, released, then
 * bound by weed, so another process can take one in between. Here a port the first start is
 * given is held by a listener that accepts connections and never answers, as another test's
 * server might, and the store still starts, on fresh ports; a port taken on every try ends in an
 * error that shows weed's output. (weed itself is built before Jest in `npm test`.)
 */
import * as net from "node:net";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";

type PortName =
  "master" | "master.grpc" | "volume" | "volume.grpc" | "filer" | "filer.grpc" | "s3" | "s3.grpc";
type Ports = Record<PortName, number>;
type PortPicker = (names: readonly PortName[]) => Promise<Ports>;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const script = require(path.join(REPO_ROOT, "scripts", "object-store.cjs")) as {
  START_ATTEMPTS: number;
  freePorts: PortPicker;
  ensureObjectStore(options?: { log?: (line: string) => void }): Promise<{ bin: string }>;
  startObjectStore(options?: {
    bin?: string;
    buckets?: string[];
    pickPorts?: PortPicker;
    attempts?: number;
  }): Promise<{
    endpoint: string;
    attempts: number;
    output(): string;
    stop(): Promise<void>;
  }>;
};

let bin: string;
let taken: net.Server;
let takenPort: number;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  bin = (await script.ensureObjectStore({ log: () => undefined })).bin;
  taken = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  takenPort = (taken.address() as net.AddressInfo).port;
}, 600_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => taken?.close(resolve));
});

/**
 * A picker that hands out the held port as `name` for the first `times` calls; `picked` holds
 * the ports of each call in turn.
 */
function pickerTaking(
  name: PortName,
  times: number,
): { pick: PortPicker; calls: () => number; picked: Ports[] } {
  const picked: Ports[] = [];
  return {
    pick: async (names) => {
      const ports = await script.freePorts(names);
      const out = picked.length < times ? { ...ports, [name]: takenPort } : ports;
      picked.push(out);
      return out;
    },
    calls: () => picked.length,
    picked,
  };
}

it("picks distinct ports", async () => {
  const ports = await script.freePorts(["master", "master.grpc", "volume", "volume.grpc"]);
  expect(new Set(Object.values(ports)).size).toBe(4);
});

it("starts again on fresh ports when the S3 port it was given is taken before weed binds it", async () => {
  const picker = pickerTaking("s3", 1);
  const store = await script.startObjectStore({ bin, buckets: ["fresh"], pickPorts: picker.pick });
  try {
    // At least one start after the one given the held port: on a loaded machine a start on free
    // ports can also be slow to answer and be tried again, so the number of starts is no claim.
    expect(store.attempts).toBeGreaterThanOrEqual(2);
    // One pick of ports per start, the first with the held port, the one that served without it.
    expect(picker.calls()).toBe(store.attempts);
    expect(picker.picked[0]!.s3).toBe(takenPort);
    const served = picker.picked[store.attempts - 1]!;
    expect(served.s3).not.toBe(takenPort);
    expect(store.endpoint).toBe(`http://127.0.0.1:${served.s3}`);
    const answer = await fetch(`${store.endpoint}/fresh`);
    // Refused without a signature: the answer comes from weed's S3, not from the held port.
    expect(answer.status).toBe(403);
  } finally {
    await store.stop();
  }
}, 120_000);

it("gives up after its tries when a port is taken every time, with weed's last output", async () => {
  const picker = pickerTaking("master", Infinity);
  await expect(script.startObjectStore({ bin, pickPorts: picker.pick })).rejects.toThrow(
    new RegExp(
      `weed server could not start in ${script.START_ATTEMPTS} tries[\\s\\S]*weed's last output:[\\s\\S]*address already in use`,
    ),
  );
  expect(picker.calls()).toBe(script.START_ATTEMPTS);
}, 120_000);
