/**
 * A progress line of a held request (a synchronous createNewSite) is written after the request
 * has had the turn of the event loop after which the client sends it: the first line opens the
 * connection to the engine, and the request must not wait for that.
 */
import { withOperationLogger } from "../../provider/resources/common/messages/operation-log";
import { ProgressReporter } from "../../provider/resources/common/messages/progress";

it("sends the request before it writes the first line", async () => {
  const order: string[] = [];
  const answer = await withOperationLogger(
    { log: (_severity, message) => order.push(`line: ${message.split(":")[0]}`) },
    () =>
      new ProgressReporter("site creation on https://host/arcgis/admin", 60_000).whileAwaiting(
        "createNewSite sent",
        async () => {
          // As client/request.ts waits one turn before it sends.
          await new Promise<void>((resolve) => setImmediate(resolve));
          order.push("sent");
          return "answer";
        },
      ),
  );
  expect(answer).toBe("answer");
  expect(order).toEqual(["sent", "line: Waiting for site creation on https"]);
});

it("passes on a request that fails at once, without an unhandled rejection meanwhile", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    const failing = withOperationLogger({ log: () => undefined }, () =>
      new ProgressReporter("site creation", 60_000).whileAwaiting("createNewSite sent", () =>
        Promise.reject(new Error("refused")),
      ),
    );
    await expect(failing).rejects.toThrow("refused");
    await new Promise<void>((resolve) => setImmediate(resolve));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  expect(unhandled).toEqual([]);
});
