import {
  answerMayBeLost,
  ArcGISRequestError,
  backoffDelay,
  retryWhile,
  withRetry,
} from "../../provider/client";

function transient(): ArcGISRequestError {
  return new ArcGISRequestError({
    code: "NETWORK",
    operation: "op",
    url: "http://h/op",
    detail: "x",
  });
}

describe("backoffDelay()", () => {
  it("doubles from the base delay and stops at the cap", () => {
    const top = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, top))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it("adds jitter: between half and all of the capped delay", () => {
    expect(backoffDelay(3, { baseDelayMs: 100, random: () => 0 })).toBe(200);
    expect(backoffDelay(3, { baseDelayMs: 100, random: () => 0.5 })).toBe(300);
  });

  it("uses 500 ms doubling up to 8 s by default", () => {
    expect(backoffDelay(1, { random: () => 1 })).toBe(500);
    expect(backoffDelay(10, { random: () => 1 })).toBe(8000);
  });
});

describe("withRetry()", () => {
  it("makes 4 attempts by default, then throws the last failure", async () => {
    let attempts = 0;
    const last = transient();
    await expect(
      withRetry(
        async () => {
          attempts++;
          throw attempts === 4 ? last : transient();
        },
        { baseDelayMs: 1 },
      ),
    ).rejects.toBe(last);
    expect(attempts).toBe(4);
  });

  it("waits between attempts", async () => {
    const times: number[] = [];
    await expect(
      withRetry(
        async () => {
          times.push(Date.now());
          throw transient();
        },
        { maxAttempts: 2, baseDelayMs: 100, random: () => 1 },
      ),
    ).rejects.toBeDefined();
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(90);
  });

  it("stops waiting and attempting once the signal aborts", async () => {
    const controller = new AbortController();
    let attempts = 0;
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await expect(
      withRetry(
        async () => {
          attempts++;
          throw transient();
        },
        { maxAttempts: 10, baseDelayMs: 5_000 },
        controller.signal,
      ),
    ).rejects.toBeDefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(attempts).toBeLessThanOrEqual(2);
  });
});

describe("retryWhile()", () => {
  it("retries while the predicate holds, with growing delays, and returns the result", async () => {
    let calls = 0;
    const delays: number[] = [];
    const result = await retryWhile(
      (e) => (e as Error).message === "busy",
      {
        deadline: Date.now() + 5_000,
        baseDelay: 10,
        maxDelay: 40,
        random: () => 1,
        onRetry: (_e, ms) => delays.push(ms),
      },
      () => (++calls < 4 ? Promise.reject(new Error("busy")) : Promise.resolve("done")),
    );
    expect(result).toBe("done");
    expect(calls).toBe(4);
    expect(delays).toEqual([10, 20, 40]);
  });

  it("throws at once a failure the predicate does not accept", async () => {
    let calls = 0;
    await expect(
      retryWhile(
        () => false,
        { deadline: Date.now() + 5_000, baseDelay: 10, maxDelay: 10 },
        () => {
          calls++;
          return Promise.reject(new Error("other"));
        },
      ),
    ).rejects.toThrow("other");
    expect(calls).toBe(1);
  });

  it("makes a last attempt at the deadline, then throws that attempt's failure", async () => {
    // Jest's clock: on a busy machine the first attempt alone could outlast a real 150 ms.
    jest.useFakeTimers();
    try {
      const attemptsAt: number[] = [];
      const started = Date.now();
      const outcome = expect(
        retryWhile(
          () => true,
          { deadline: started + 150, baseDelay: 1_000, maxDelay: 1_000 },
          () => {
            attemptsAt.push(Date.now() - started);
            return Promise.reject(new Error(`busy ${attemptsAt.length}`));
          },
        ),
      ).rejects.toThrow("busy 2");
      await jest.advanceTimersByTimeAsync(1_000);
      await outcome;
      // The delay (at least 500 ms) is cut to the deadline: one more attempt there, then none.
      expect(attemptsAt).toEqual([0, 150]);
    } finally {
      jest.useRealTimers();
    }
  });

  it("polls at a fixed interval without jitter when baseDelay equals maxDelay", async () => {
    let calls = 0;
    const delays: number[] = [];
    await retryWhile(
      () => true,
      {
        deadline: Date.now() + 5_000,
        baseDelay: 20,
        maxDelay: 20,
        jitter: false,
        random: () => 0,
        onRetry: (_e, ms) => delays.push(ms),
      },
      () => (++calls < 4 ? Promise.reject(new Error("not yet")) : Promise.resolve()),
    );
    expect(delays).toEqual([20, 20, 20]);
  });
});

describe("answerMayBeLost()", () => {
  const error = (code: ArcGISRequestError["code"], httpStatus?: number) =>
    new ArcGISRequestError({ code, operation: "op", url: "http://h/op", detail: "x", httpStatus });

  it("holds for no answer, a timeout, a gateway's 502/503/504 and a body that is not the server's", () => {
    for (const e of [
      error("NETWORK"),
      error("TIMEOUT"),
      error("HTTP", 502),
      error("HTTP", 503),
      error("HTTP", 504),
      error("BAD_RESPONSE"),
    ]) {
      expect(answerMayBeLost(e)).toBe(true);
    }
  });

  it("does not hold for an answer of the server, a TLS failure or anything else thrown", () => {
    for (const e of [error("SERVER"), error("AUTH"), error("TLS"), error("HTTP", 500)]) {
      expect(answerMayBeLost(e)).toBe(false);
    }
    expect(answerMayBeLost(new Error("x"))).toBe(false);
  });
});
