/**
 * provider/client/undici.ts loads undici's Agent and `request` from their own files: those files
 * must still be the ones undici's entry point exports, or a new undici would give the client
 * other objects than the ones its types describe.
 */
import * as undici from "undici";
import { Agent, envHttpProxyAgent, request } from "../../provider/client/undici";
import { createServer } from "node:http";
import { closeServer, listen } from "../../tools/harness/servers";

it("gives the entry point's Agent and EnvHttpProxyAgent", () => {
  expect(Agent).toBe(undici.Agent);
  expect(envHttpProxyAgent()).toBe(undici.EnvHttpProxyAgent);
});

it("gives the method the entry point's request calls on a dispatcher", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the file the client loads
  const method = require("undici/lib/api/api-request.js") as unknown;
  expect(method).toBe(undici.Dispatcher.prototype.request);
});

it("sends the URL's path and query, method, headers and body as undici's request does", async () => {
  const { server, origin } = await listen(
    createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () =>
        res.end(JSON.stringify({ method: req.method, url: req.url, h: req.headers["x-a"], body })),
      );
    }),
  );
  const agent = new Agent();
  try {
    const url = `${origin}/arcgis/admin/createNewSite?f=json&x=%20y`;
    const options = { method: "POST" as const, headers: { "x-a": "b" }, body: "k=v" };
    const ours = await request(url, { ...options, dispatcher: agent });
    const theirs = await undici.request(url, { ...options, dispatcher: agent });
    const answer = (await ours.body.json()) as Record<string, unknown>;
    expect(answer).toEqual(await theirs.body.json());
    expect(answer).toEqual({
      method: "POST",
      url: "/arcgis/admin/createNewSite?f=json&x=%20y",
      h: "b",
      body: "k=v",
    });
    expect(ours.statusCode).toBe(theirs.statusCode);
  } finally {
    await agent.close();
    await closeServer(server);
  }
});
