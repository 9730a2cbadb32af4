import { describe, expect, test } from "vitest";
import type { RetryPolicy } from "../../src/api/retryPolicy.js";
import { S3RetryStrategy } from "../../src/destination/s3Retry.js";

const POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, maxTotalWaitMs: 60_000 };
const failure = new Error("the store's failure");

/** The delays a strategy asks for until it gives up, for one error type (random pinned at 1). */
async function delays(
  errorType: "TRANSIENT" | "THROTTLING" | "SERVER_ERROR" | "CLIENT_ERROR",
  policy = POLICY,
): Promise<{ delays: number[]; thrown: unknown }> {
  let clock = 0;
  const strategy = new S3RetryStrategy(
    policy,
    () => clock,
    () => 1,
  );
  let token = await strategy.acquireInitialRetryToken("s3");
  const asked: number[] = [];
  try {
    for (;;) {
      token = await strategy.refreshRetryTokenForRetry(token, { errorType, error: failure });
      asked.push(token.getRetryDelay());
      clock += token.getRetryDelay();
    }
  } catch (thrown) {
    expect(strategy.retries).toBe(asked.length);
    return { delays: asked, thrown };
  }
}

describe("the S3 client's retries follow the export's policy", () => {
  test.each([
    ["TRANSIENT", [100, 200, 400]],
    ["SERVER_ERROR", [100, 200, 400]],
    ["THROTTLING", [1_100, 1_200, 1_400]],
    ["CLIENT_ERROR", []],
  ] as const)("%s: waits %j, then the error is thrown as it was", async (errorType, expected) => {
    const result = await delays(errorType);
    expect(result.delays).toEqual(expected);
    expect(result.thrown).toBe(failure);
  });

  test("the run's wait budget stops the retries before the attempts run out", async () => {
    const result = await delays("THROTTLING", { ...POLICY, maxAttempts: 20, maxTotalWaitMs: 3_000 });
    expect(result.delays).toEqual([1_100, 1_200]);
  });

  test("an attempt that timed out ends its request; a reset before it is retried", async () => {
    const strategy = new S3RetryStrategy(POLICY, () => 0);
    const timeout = Object.assign(new Error("no answer within the limit"), { name: "TimeoutError" });
    const reset = Object.assign(new Error("socket hang up"), { name: "TimeoutError", code: "ECONNRESET" });
    let token = await strategy.acquireInitialRetryToken("s3");
    // A reset is not a timeout: it does not count.
    token = await strategy.refreshRetryTokenForRetry(token, { errorType: "TRANSIENT", error: reset });
    await expect(
      strategy.refreshRetryTokenForRetry(token, { errorType: "TRANSIENT", error: timeout }),
    ).rejects.toBe(timeout);
    // Another request's reset is retried as before.
    const another = await strategy.acquireInitialRetryToken("s3");
    await expect(
      strategy.refreshRetryTokenForRetry(another, { errorType: "TRANSIENT", error: reset }),
    ).resolves.toBeDefined();
  });
});
