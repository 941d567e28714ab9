/**
 * The engine's address among a provider's arguments: the engine puts its logging and tracing
 * flags before it (Pulumi's plugin launcher), and the address is what the messages go to.
 */
import { engineAddress } from "../../provider/resources/common/messages/engine-log";

it("finds the engine's address after the engine's logging and tracing flags", () => {
  expect(engineAddress(["127.0.0.1:40123"])).toBe("127.0.0.1:40123");
  expect(
    engineAddress(["--logtostderr", "-v=9", "--tracing", "file:/tmp/t.json", "127.0.0.1:40123"]),
  ).toBe("127.0.0.1:40123");
  expect(engineAddress([])).toBeUndefined();
  expect(engineAddress(["--logtostderr"])).toBeUndefined();
});
