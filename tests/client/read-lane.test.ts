/**
 * One read at a time per server (provider/client/read-lane.ts), against real local HTTP servers
 * that count their connections: reads of one server at once travel one after the other on one
 * connection; a request that is no read, and a read of another server, are not held back; a read
 * held by the server holds the next one back no longer than READ_LANE_WAIT_MS; a waiting read
 * whose signal fires fails at once.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { arcgisRequest, closeDispatchers, generateToken } from "../../provider/client";
import { READ_LANE_WAIT_MS } from "../../provider/client/read-lane";

/** A read the server answers after a while, well within the lane's wait; one it holds far longer. */
const SLOW_MS = READ_LANE_WAIT_MS / 5;
const HELD_MS = READ_LANE_WAIT_MS * 6;

interface CountingServer {
  url: string;
  connections(): number;
  /** Each request's method and path, in the order they arrived, and when their answer left. */
  log: Array<{ what: string; arrived: number; answered: number }>;
  close(): Promise<void>;
}

/** A server whose `/slow` answers after SLOW_MS, `/held` after HELD_MS, the rest at once. */
async function countingServer(): Promise<CountingServer> {
  let connections = 0;
  const log: CountingServer["log"] = [];
  const server = http.createServer((req, res) => {
    const entry = {
      what: `${req.method} ${req.url?.replace(/\?.*$/, "")}`,
      arrived: Date.now(),
      answered: 0,
    };
    log.push(entry);
    const answer = () => {
      entry.answered = Date.now();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        req.url?.startsWith("/token")
          ? JSON.stringify({ token: "t-1", expires: Date.now() + 3_600_000 })
          : '{"ok":true}',
      );
    };
    req.resume();
    const delay = req.url?.startsWith("/slow")
      ? SLOW_MS
      : req.url?.startsWith("/held")
        ? HELD_MS
        : 0;
    req.on("end", () => (delay > 0 ? setTimeout(answer, delay) : answer()));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const read = (url: string, signal?: AbortSignal) =>
  arcgisRequest({ url, operation: "read", method: "GET", ...(signal ? { signal } : {}) });

let a: CountingServer;
let b: CountingServer;
beforeEach(async () => {
  await closeDispatchers();
  a = await countingServer();
  b = await countingServer();
});
afterEach(async () => {
  await closeDispatchers();
  await a.close();
  await b.close();
});

it("sends reads of one server at once one after the other, on one connection", async () => {
  await Promise.all([
    read(`${a.url}/slow`),
    read(`${a.url}/fast`),
    generateToken({
      tokenUrl: `${a.url}/token`,
      username: "u",
      password: "p-Secret-1",
      referer: "test",
    }),
  ]);
  expect(a.log.map((r) => r.what)).toEqual(["GET /slow", "GET /fast", "POST /token"]);
  expect(a.log[1]!.arrived).toBeGreaterThanOrEqual(a.log[0]!.answered);
  expect(a.log[2]!.arrived).toBeGreaterThanOrEqual(a.log[1]!.answered);
  expect(a.connections()).toBe(1);
});

it("does not hold back a request that is no read, nor a read of another server", async () => {
  await Promise.all([
    read(`${a.url}/slow`),
    arcgisRequest({ url: `${a.url}/edit`, operation: "edit" }),
    read(`${b.url}/fast`),
  ]);
  const [slow, edit] = [
    a.log.find((r) => r.what === "GET /slow")!,
    a.log.find((r) => r.what === "POST /edit")!,
  ];
  expect(edit.arrived).toBeLessThan(slow.answered);
  expect(b.log[0]!.arrived).toBeLessThan(slow.answered);
  expect(a.connections()).toBe(2);
});

it("holds the next read back no longer than READ_LANE_WAIT_MS behind a read the server holds", async () => {
  const started = Date.now();
  await Promise.all([read(`${a.url}/held`), read(`${a.url}/fast`)]);
  const [held, fast] = [
    a.log.find((r) => r.what === "GET /held")!,
    a.log.find((r) => r.what === "GET /fast")!,
  ];
  expect(fast.arrived - started).toBeGreaterThanOrEqual(READ_LANE_WAIT_MS - 20);
  expect(fast.arrived).toBeLessThan(held.answered);
  expect(fast.answered - started).toBeLessThan(HELD_MS);
  expect(a.connections()).toBe(2);
});

it("stops a waiting read whose signal fires, at once, as aborted", async () => {
  const held = read(`${a.url}/held`);
  const started = Date.now();
  await expect(read(`${a.url}/fast`, AbortSignal.timeout(20))).rejects.toMatchObject({
    code: "ABORTED",
  });
  expect(Date.now() - started).toBeLessThan(READ_LANE_WAIT_MS);
  await held;
  expect(a.log.map((r) => r.what)).toEqual(["GET /held"]);
});
