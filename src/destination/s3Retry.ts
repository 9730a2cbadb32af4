import { backoffDelayMs, RetryBudget, type RetryPolicy } from "../api/retryPolicy.js";

/** How the SDK classifies a failed attempt (@smithy/types RetryErrorType). */
type RetryErrorType = "TRANSIENT" | "THROTTLING" | "SERVER_ERROR" | "CLIENT_ERROR";

interface RetryToken {
  getRetryCount(): number;
  getRetryDelay(): number;
}

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
 * part is idempotent); a client error (403, 404) is not. `retries` counts the retries made.
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
    previous: RetryToken,
    info: { errorType: RetryErrorType; retryAfterHint?: Date; error?: unknown },
  ): Promise<RetryToken> {
    const attempt = previous.getRetryCount() + 1;
    if (info.errorType === "CLIENT_ERROR" || attempt >= this.policy.maxAttempts) throw info.error;
    let delay = backoffDelayMs(this.policy, attempt, this.random);
    if (info.errorType === "THROTTLING") delay += THROTTLING_FLOOR_MS;
    const hinted = info.retryAfterHint === undefined ? 0 : info.retryAfterHint.getTime() - this.now();
    delay = Math.max(delay, Math.min(hinted, this.policy.maxDelayMs));
    if (!this.budget.canWait(delay)) throw info.error;
    this.budget.record(delay);
    return token(attempt, delay);
  }

  recordSuccess(_token: RetryToken): void {}
}

function token(count: number, delay: number): RetryToken {
  return { getRetryCount: () => count, getRetryDelay: () => delay };
}
