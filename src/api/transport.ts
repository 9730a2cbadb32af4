import { setMaxListeners } from "node:events";
import { Agent, type Dispatcher } from "undici";
import { ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import {
  type AttemptFailure,
  exhaustedError,
  interrupted,
  seconds,
  unreachableError,
} from "./attemptFailure.js";
import { attemptGet, type JsonResponse, type RequestContext } from "./getAttempt.js";
import { describeUrl } from "./redact.js";
import { RequestDeadline } from "./requestDeadline.js";
import { RetryLog } from "./retryLog.js";
import { backoffDelayMs, type RetryBudget, type RetryPolicy } from "./retryPolicy.js";
import { isUuid } from "./schemas/index.js";

/** Connections kept to the API at most: as many as --operations-concurrency allows. */
const MAX_CONNECTIONS = 64;

/** Clock, sleep and randomness are injected so that retry timing is testable without waiting. */
export interface TransportEffects {
  now: () => number;
  /** Resolves after `ms`, or early once `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  logger: Logger;
}

export interface TransportOptions {
  baseUrl: URL;
  token: string;
  policy: RetryPolicy;
  budget: RetryBudget;
  /** Time limit of one attempt, from connecting to the last byte of the body. */
  requestTimeoutMs: number;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  userAgent: string;
  effects: TransportEffects;
  /** The run's stop signal (SIGINT/SIGTERM): aborts requests in flight and retry waits. */
  signal?: AbortSignal | undefined;
  /** One keep-alive dispatcher per client; created here when not given. */
  dispatcher?: Dispatcher;
}

/** Counts for progress displays and run summaries. */
export interface TransportStats {
  requests: number;
  retries: number;
  /** Wall time spent waiting to retry (RetryBudget). */
  waitedMs: number;
}

export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0, waitedMs: 0 };
  /**
   * The x-api-call-id of every successful response: the API lists each request it serves as a call
   * of this token's user, and these ids let the warehouse tell the exporter's own calls apart.
   */
  private receivedCallIds: string[] = [];
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly retryLog: RetryLog;
  /** Aborted by close(): a request still out then (a read-ahead nobody awaits) is abandoned. */
  private readonly closing = new AbortController();
  /** The run's signal or close(), whichever comes first. */
  private readonly stop: AbortSignal;
  /** Whether any HTTP response has come back: until one has, a network failure means the host is wrong or down. */
  private responded = false;

  constructor(private readonly options: TransportOptions) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 30_000,
        // As many as --operations-concurrency may ask for: a lower cap would queue requests
        // inside undici, out of sight of the exporter's own pacing.
        connections: MAX_CONNECTIONS,
        connect: { timeout: options.requestTimeoutMs },
      });
    this.retryLog = new RetryLog(options.effects.logger);
    this.stop =
      options.signal === undefined
        ? this.closing.signal
        : AbortSignal.any([options.signal, this.closing.signal]);
    // Every request in flight listens on it (RequestDeadline): up to one per connection, more than
    // Node's default of 10 before it warns of a leak.
    setMaxListeners(MAX_CONNECTIONS * 2, this.stop);
  }

  /** The call ids received since the last take, which empties the list. */
  takeReceivedCallIds(): string[] {
    const ids = this.receivedCallIds;
    this.receivedCallIds = [];
    return ids;
  }

  async close(): Promise<void> {
    const retries = this.retryLog.summary();
    if (retries !== undefined) this.options.effects.logger.warn(retries);
    this.closing.abort();
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** GET a JSON body, retrying what is safe to retry, within the attempt cap and the run's wait budget. */
  async getJson(path: string, query: Record<string, string | undefined>, context: RequestContext = {}) {
    const url = this.urlFor(path, query);
    const { policy, budget, effects } = this.options;
    const stop = context.signal === undefined ? this.stop : AbortSignal.any([this.stop, context.signal]);
    for (let attempt = 1; ; attempt++) {
      if (stop.aborted) throw interrupted(`GET ${describeUrl(url)}`);
      const outcome = await this.attempt(url, context, stop);
      if (!("retryable" in outcome)) return { ...outcome, attempts: attempt } satisfies JsonResponse;
      if (!outcome.retryable) throw this.unreachableOr(url, outcome.error, attempt);
      const backoff = backoffDelayMs(policy, attempt, effects.random);
      // Never retry before the server's Retry-After: it is a floor, not a suggestion.
      const delay = Math.max(backoff, outcome.retryAfterMs ?? 0);
      if (attempt >= policy.maxAttempts || !budget.canWait(delay)) {
        const why =
          attempt >= policy.maxAttempts
            ? `gave up after ${attempt} attempts`
            : `waiting ${seconds(delay)} more would pass the run's retry budget: it has waited ${seconds(budget.totalWaitedMs)} of ${seconds(budget.limitMs)}`;
        const exhausted = exhaustedError(outcome.error, why);
        throw this.unreachableOr(url, exhausted, attempt);
      }
      this.retryLog.note(
        outcome.error.status === undefined ? outcome.error.code : `HTTP ${outcome.error.status}`,
        `${outcome.error.message}; retry ${attempt}/${policy.maxAttempts - 1} in ${delay} ms`,
      );
      budget.record(delay);
      this.stats.retries += 1;
      context.onRetry?.(outcome.error);
      this.stats.waitedMs = budget.totalWaitedMs;
      await this.pause(delay, url, stop);
    }
  }

  /** The base URL's path is a prefix (a proxy's /zoo/): `new URL(path, base)` would drop it. */
  private urlFor(path: string, query: Record<string, string | undefined>): URL {
    const url = new URL(this.options.baseUrl.href);
    url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`;
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url;
  }

  /** A retry wait that ends early, as an interruption, when the run stops. */
  private async pause(ms: number, url: URL, stop: AbortSignal): Promise<void> {
    try {
      await this.options.effects.sleep(ms, stop);
    } catch (error) {
      if (!stop.aborted) throw error;
    }
    if (stop.aborted) throw interrupted(`GET ${describeUrl(url)}`);
  }

  /**
   * A network failure before any response ever came back is not a passing fault worth resuming
   * later: the host is wrong, does not resolve, or does not answer. It gets its own error (exit 3).
   */
  private unreachableOr(url: URL, error: ZooUsageError, attempts: number): ZooUsageError {
    if (this.responded) return error;
    const cause = error.code === "api.retries_exhausted" ? error.cause : error;
    if (!(cause instanceof ZooUsageError) || cause.code !== "api.network") return error;
    return unreachableError(url.origin, attempts, cause, error);
  }

  private async attempt(
    url: URL,
    context: RequestContext,
    stop: AbortSignal,
  ): Promise<Omit<JsonResponse, "attempts"> | AttemptFailure> {
    const { token, requestTimeoutMs, userAgent, effects, maxResponseBytes } = this.options;
    const deadline = new RequestDeadline(stop, requestTimeoutMs);
    this.stats.requests += 1;
    try {
      return await attemptGet(
        {
          dispatcher: this.dispatcher,
          token,
          requestTimeoutMs,
          maxResponseBytes,
          userAgent,
          logger: effects.logger,
          now: () => effects.now(),
          onAnswered: (apiCallId) => {
            this.responded = true;
            // Answered means listed, an error or a body cut short too: the call exists either way.
            if (apiCallId !== undefined && isUuid(apiCallId)) this.receivedCallIds.push(apiCallId);
          },
        },
        url,
        context,
        deadline,
      );
    } finally {
      deadline.dispose();
    }
  }
}
