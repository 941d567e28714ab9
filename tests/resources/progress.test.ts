/**
 * Progress lines of a wait: none for a wait that ends within QUIET_START_MS (a server that
 * answers at once sends the engine no message), the first once it has lasted that long, then
 * one per interval.
 */
import * as log from "../../provider/resources/common/messages/log";
import {
  ProgressReporter,
  QUIET_START_MS,
} from "../../provider/resources/common/messages/progress";

let lines: string[];

beforeEach(() => {
  jest.useFakeTimers();
  lines = [];
  jest.spyOn(log, "logInfo").mockImplementation((message: string) => {
    lines.push(message);
  });
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

/** A request answered after `ms`, awaited under a reporter; the lines it printed. */
async function awaited(ms: number): Promise<string[]> {
  const progress = new ProgressReporter("site creation on https://gis.example.com", 60_000);
  const done = progress.whileAwaiting(
    "createNewSite sent",
    () => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  );
  await jest.advanceTimersByTimeAsync(ms);
  await done;
  return lines;
}

it("says nothing for a wait that ends before QUIET_START_MS", async () => {
  expect(await awaited(QUIET_START_MS - 500)).toEqual([]);
});

it("says the first line once the wait has lasted QUIET_START_MS, then one per interval", async () => {
  const said = await awaited(QUIET_START_MS + 20_000);
  expect(said[0]).toMatch(
    /^Waiting for site creation on https:\/\/gis\.example\.com: createNewSite sent \(2s of at most 1m00s\)$/,
  );
  expect(said).toHaveLength(2);
});
