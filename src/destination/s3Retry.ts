import { backoffDelayMs, RetryBudget, type RetryPolicy } from "../api/retryPolicy.js";
import { isStoreTimeout } from "./s3Failure.js";

/** How the SDK classifies a failed attempt (@smithy/types RetryErrorType). */
type RetryErrorType = "TRANSIENT" | "THROTTLING" | "SERVER_ERROR" | "CLIENT_ERROR";

interface RetryToken {
  getRetryCount(): number;
  getRetryDelay(): number;
}

/** The SDK hands back the token it was given: this one also counts the request's timeouts. */
interface StoreRetryToken extends RetryToken {
  timeouts?: number;
}

/**
 * Attempts of one request that may end on the time limit (--store-timeout): one. A store that
 * never answers would otherwise hold the run for every attempt (8 by default) times the limit; the
 * limit is the longest a request may hold the run, so the run ends within it. A connection that
 * went stale fails as a reset, which is retried; what did not reach the store stays marked for
 * the next run.
 */
const TIMED_OUT_ATTEMPTS = 1;

/**
 * Throttling waits at least this long before its backoff: S3 answers 503 SlowDown when a prefix
 * gets more requests than it takes (AWS: "reduce your request rate"), and a retry right away would
 * meet the same limit.
 */
const THROTTLING_FLOOR_MS = 1_000;

/**
 * The SDK's retry strategy (its RetryStrategyV2 shape) on the export's retry policy: the same
 * attempts per request, full-jitter backoff and total wait budget as the API's requests. Network
 * failures, 5xx and throttling are retried (the SDK classifies them; a PUT of a whole object or a
 * part is idempotent); a client error (403, 404) is not. An attempt that timed out is not retried
 * (TIMED_OUT_ATTEMPTS). `retries` counts the retries made.
 */
export class S3RetryStrategy {
  private readonly budget: RetryBudget;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly now: () => number,
    private readonly random: () => number = Math.random,
  ) {
    this.budget = new RetryBudget(policy, now);
  }

  get retries(): number {
    return this.budget.totalRetries;
  }

  async acquireInitialRetryToken(_scope: string): Promise<RetryToken> {
    return token(0, 0);
  }

  async refreshRetryTokenForRetry(
    previous: StoreRetryToken,
    info: { errorType: RetryErrorType; retryAfterHint?: Date; error?: unknown },
  ): Promise<RetryToken> {
    const attempt = previous.getRetryCount() + 1;
    if (info.errorType === "CLIENT_ERROR" || attempt >= this.policy.maxAttempts) throw info.error;
    const timeouts = (previous.timeouts ?? 0) + (isStoreTimeout(info.error) ? 1 : 0);
    if (timeouts >= TIMED_OUT_ATTEMPTS) throw info.error;
    let delay = backoffDelayMs(this.policy, attempt, this.random);
    if (info.errorType === "THROTTLING") delay += THROTTLING_FLOOR_MS;
    const hinted = info.retryAfterHint === undefined ? 0 : info.retryAfterHint.getTime() - this.now();
    delay = Math.max(delay, Math.min(hinted, this.policy.maxDelayMs));
    if (!this.budget.canWait(delay)) throw info.error;
    this.budget.record(delay);
    return token(attempt, delay, timeouts);
  }

  recordSuccess(_token: RetryToken): void {}
}

function token(count: number, delay: number, timeouts = 0): StoreRetryToken {
  return { getRetryCount: () => count, getRetryDelay: () => delay, timeouts };
}
