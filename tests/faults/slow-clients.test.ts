/**
 * Clients that hold connections without finishing a request: connected and silent (before and
 * after the TLS handshake), headers sent in part, a body dripped byte by byte. With short
 * configured timeouts the emulator must close every one of them, keep answering others, and not
 * cut a request it is itself slow to answer (a synchronous createNewSite longer than the idle
 * timeout). Real sockets on 127.0.0.1; every wait is bounded.
 */
import net from "node:net";
import tls from "node:tls";
import { setTimeout as sleep } from "node:timers/promises";
import { Harness, SITE_ADMIN } from "../../tools/harness/emulator-http";
import { SuiteFigures } from "../../tools/harness/robustness-record";

const figures = new SuiteFigures("faults-slow-clients");
afterAll(() => figures.write());

const PER_KIND = 20;
const TIMEOUTS = { headersMs: 400, requestMs: 800, keepAliveMs: 300, idleMs: 600 };
/** Generous bound for every connection to be closed (all timeouts have passed by then). */
const CLOSE_BOUND_MS = 8_000;

interface Held {
  socket: net.Socket;
  closed: Promise<void>;
  isClosed: () => boolean;
  /** Stops whatever keeps writing to it. */
  stop: () => void;
}

/**
 * Watches a connection until the emulator ends it. What the emulator sends meanwhile (a 408)
 * is read and dropped: a client that does not read would never see the end of the stream.
 */
function hold(socket: net.Socket, stop: () => void = () => undefined): Held {
  let closed = false;
  socket.on("error", () => undefined);
  socket.resume();
  return {
    socket,
    closed: new Promise((resolve) => {
      const ended = (): void => {
        closed = true;
        stop();
        resolve();
      };
      socket.once("end", ended);
      socket.once("close", ended);
    }),
    isClosed: () => closed,
    stop,
  };
}

async function connectTls(h: Harness): Promise<tls.TLSSocket> {
  const { port } = new URL(h.emu.adminUrl);
  const socket = tls.connect({ host: "127.0.0.1", port: Number(port), ca: h.ca });
  await new Promise<void>((resolve, reject) => {
    socket.once("secureConnect", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** Writes `chunks` one every `everyMs` until stopped or closed (bounded by the chunk count). */
function drip(socket: net.Socket, chunks: string[], everyMs: number): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (i >= chunks.length || socket.destroyed) {
      clearInterval(timer);
      return;
    }
    socket.write(chunks[i++]!);
  }, everyMs);
  return () => clearInterval(timer);
}

async function allClosed(held: Held[]): Promise<number> {
  const bound = new AbortController();
  await Promise.race([
    Promise.all(held.map((x) => x.closed)),
    sleep(CLOSE_BOUND_MS, undefined, { signal: bound.signal }).catch(() => undefined),
  ]);
  bound.abort();
  for (const x of held) x.stop();
  return held.filter((x) => x.isClosed()).length;
}

describe("slow and idle clients", () => {
  let h: Harness;
  const open: Held[] = [];
  beforeEach(async () => {
    h = await Harness.start({ serverTimeouts: TIMEOUTS, createDelayMs: 0 });
  });
  afterEach(async () => {
    for (const x of open.splice(0)) {
      x.stop();
      x.socket.destroy();
    }
    await h.close();
  });

  const kinds: Array<[string, (h: Harness) => Promise<Held>]> = [
    [
      "connected, no TLS handshake",
      async (h) => {
        const { port } = new URL(h.emu.adminUrl);
        const socket = net.connect(Number(port), "127.0.0.1");
        await new Promise((resolve) => socket.once("connect", resolve));
        return hold(socket);
      },
    ],
    ["TLS handshake done, nothing sent", async (h) => hold(await connectTls(h))],
    [
      "headers sent in part",
      async (h) => {
        const socket = await connectTls(h);
        socket.write("GET /arcgis/admin/?f=json HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        return hold(socket);
      },
    ],
    [
      "headers dripped one line every 100 ms",
      async (h) => {
        const socket = await connectTls(h);
        const lines = Array.from({ length: 200 }, (_, i) => `X-Slow-${i}: y\r\n`);
        const stop = drip(socket, ["POST /arcgis/admin/generateToken HTTP/1.1\r\n", ...lines], 100);
        return hold(socket, stop);
      },
    ],
    [
      "body dripped one byte every 100 ms",
      async (h) => {
        const socket = await connectTls(h);
        socket.write(
          "POST /arcgis/admin/generateToken HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n",
        );
        const stop = drip(
          socket,
          Array.from({ length: 10_000 }, () => "a"),
          100,
        );
        return hold(socket, stop);
      },
    ],
    [
      "kept alive after an answer, then silent",
      async (h) => {
        const socket = await connectTls(h);
        const answered = new Promise<void>((resolve) => socket.once("data", () => resolve()));
        socket.write("GET /arcgis/rest/info?f=json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        await answered;
        return hold(socket);
      },
    ],
  ];

  it.each(kinds)(
    "%s: every connection is closed, and the emulator keeps answering",
    async (kind, make) => {
      const held = await Promise.all(Array.from({ length: PER_KIND }, () => make(h)));
      open.push(...held);
      const closed = await allClosed(held);
      expect(closed).toBe(PER_KIND);
      const root = await h.adminGet("/?f=json");
      expect(root.status).toBe(200);
      figures.record(
        `slow clients: ${kind}`,
        {
          faultsInjected: PER_KIND,
          faultsSurvived: closed,
          requestsSent: 1,
        },
        { ...TIMEOUTS, connections: PER_KIND },
      );
    },
  );

  it("closes a download whose client stops reading (the idle timeout)", async () => {
    await h.close();
    const padding = 32 * 1024 * 1024; // more than the loopback socket buffers hold
    h = await Harness.start({
      serverTimeouts: TIMEOUTS,
      createDelayMs: 0,
      exportDelayMs: 0,
      exportPaddingBytes: padding,
      exportUrlForm: "file",
    });
    await h.createSite();
    const token = await h.adminToken();
    const exported = await h.admin("exportSite", { token });
    const url = new URL(exported.json.location as string);
    const socket = await connectTls(h);
    socket.on("error", () => undefined);
    socket.pause();
    socket.write(
      `GET ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Esri-Authorization: Bearer ${token}\r\n\r\n`,
    );
    // Read nothing for well past the idle timeout, then drain what the emulator sent.
    await sleep(TIMEOUTS.idleMs * 4);
    let received = 0;
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    const held = hold(socket);
    open.push(held);
    expect(await allClosed([held])).toBe(1);
    expect(received).toBeLessThan(padding);
    figures.record(
      "a download whose client stops reading",
      {
        faultsInjected: 1,
        faultsSurvived: 1,
      },
      { archiveBytes: padding, receivedBytes: received, idleMs: TIMEOUTS.idleMs },
    );
  });

  it("does not cut a synchronous createNewSite that takes longer than the idle timeout", async () => {
    await h.close();
    h = await Harness.start({ serverTimeouts: TIMEOUTS, createDelayMs: TIMEOUTS.idleMs * 3 });
    const answer = await h.admin("createNewSite", SITE_ADMIN);
    expect(answer.json).toEqual({ status: "success" });
    figures.record(
      "a slow answer outlives the idle timeout",
      { requestsSent: 1 },
      {
        createDelayMs: TIMEOUTS.idleMs * 3,
        idleMs: TIMEOUTS.idleMs,
      },
    );
  });

  it("refuses timeouts that cannot work", async () => {
    await expect(Harness.start({ serverTimeouts: { idleMs: 0 } })).rejects.toThrow(
      "serverTimeouts.idleMs must be above 0",
    );
    await expect(
      Harness.start({ serverTimeouts: { headersMs: 2000, requestMs: 1000 } }),
    ).rejects.toThrow("must not be shorter than serverTimeouts.headersMs");
  });
});
