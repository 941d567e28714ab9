/** Plain servers of the tests on 127.0.0.1, and ports with nothing listening. */
import { createServer, type Server } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";

/** Starts a server on 127.0.0.1:0 and returns it with its base URL. */
export async function listen<S extends Server | HttpsServer>(
  server: S,
  scheme: "http" | "https" = "http",
): Promise<{ server: S; origin: string }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `${scheme}://127.0.0.1:${port}` };
}

/** Stops a server, dropping open connections (keep-alive or hanging ones). */
export async function closeServer(server: Server | HttpsServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const { server, origin } = await listen(createServer());
  await closeServer(server);
  return Number(new URL(origin).port);
}

/**
 * A port with nothing listening that a test binds itself later: below Linux's ephemeral range
 * (32768 and up), where neither a `listen(0)` nor an outgoing connection of a suite running
 * beside it can take it meanwhile.
 */
export async function closedPortToBindLater(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (free) {
      await closeServer(server);
      return port;
    }
  }
}
