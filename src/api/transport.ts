import { setImmediate } from "node:timers/promises";
import { Agent, type Dispatcher, errors as undiciErrors } from "undici";
import { ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { describeHttpFailure } from "./httpFailure.js";
import { describeUrl, scrubText } from "./redact.js";
import {
  backoffDelayMs,
  isRetryableStatus,
  parseRetryAfterMs,
  type RetryBudget,
  type RetryPolicy,
} from "./retryPolicy.js";
import { ApiErrorBodySchema } from "./schemas/index.js";

/** Clock, sleep and randomness are injected so that retry timing is testable without waiting. */
export interface TransportEffects {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger;
}

export interface TransportOptions {
  baseUrl: URL;
  token: string;
  policy: RetryPolicy;
  budget: RetryBudget;
  requestTimeoutMs: number;
  userAgent: string;
  effects: TransportEffects;
  /** One keep-alive dispatcher per client; created here when not given. */
  dispatcher?: Dispatcher;
}

export interface JsonResponse {
  body: unknown;
  /** The body's bytes as received: a caller may hand parts on unchanged instead of re-serialising. */
  bytes: Buffer;
  requestId: string | undefined;
  apiCallId: string | undefined;
  attempts: number;
}

export interface RequestContext {
  /** Hint shown on a 404, which means something different for each endpoint. */
  notFoundHint?: string;
  /** Given a successful body's bytes as soon as they are all in, before they are parsed. */
  onBody?: (bytes: Buffer) => void;
}

/** Counts for progress displays and run summaries. */
export interface TransportStats {
  requests: number;
  retries: number;
  waitedMs: number;
}

/** A failed attempt: retryable ones carry the delay the server asked for, if any. */
interface AttemptFailure {
  retryable: boolean;
  error: ZooUsageError;
  retryAfterMs?: number | undefined;
}

export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0, waitedMs: 0 };
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  constructor(private readonly options: TransportOptions) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 30_000,
        connections: 16,
        connect: { timeout: options.requestTimeoutMs },
      });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** GET a JSON body, retrying what is safe to retry, within the attempt cap and the run's wait budget. */
  async getJson(path: string, query: Record<string, string | undefined>, context: RequestContext = {}) {
    const url = new URL(path, this.options.baseUrl);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    const { policy, budget, effects } = this.options;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(url, context);
      if (!("retryable" in outcome)) return { ...outcome, attempts: attempt } satisfies JsonResponse;
      if (!outcome.retryable) throw outcome.error;
      const backoff = backoffDelayMs(policy, attempt, effects.random);
      // Never retry before the server's Retry-After: it is a floor, not a suggestion.
      const delay = Math.max(backoff, outcome.retryAfterMs ?? 0);
      if (attempt >= policy.maxAttempts || !budget.canWait(delay)) {
        const why =
          attempt >= policy.maxAttempts
            ? `gave up after ${attempt} attempts`
            : `the run's retry budget of ${Math.round(policy.maxTotalWaitMs / 1000)} s would be exceeded`;
        throw new ZooUsageError({
          code: "api.retries_exhausted",
          message: `${outcome.error.message} (${why})`,
          hint: "The API kept failing. Re-run later: an export resumes from its last checkpoint. Raise --max-attempts or --max-retry-wait to wait longer.",
          cause: outcome.error,
          status: outcome.error.status,
          requestId: outcome.error.requestId,
        });
      }
      effects.logger.warn(
        `${outcome.error.message}; retry ${attempt}/${policy.maxAttempts - 1} in ${delay} ms`,
      );
      budget.record(delay);
      this.stats.retries += 1;
      this.stats.waitedMs += delay;
      await effects.sleep(delay);
    }
  }

  private async attempt(
    url: URL,
    context: RequestContext,
  ): Promise<Omit<JsonResponse, "attempts"> | AttemptFailure> {
    const { token, requestTimeoutMs, userAgent, effects } = this.options;
    const where = `GET ${describeUrl(url)}`;
    this.stats.requests += 1;
    effects.logger.debug(`${where}`);
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: { authorization: `Bearer ${token}`, accept: "application/json", "user-agent": userAgent },
        headersTimeout: requestTimeoutMs,
        bodyTimeout: requestTimeoutMs,
      });
    } catch (cause) {
      return networkFailure(where, cause, [token, url.searchParams.get("page_token") ?? ""]);
    }
    const requestId = headerValue(response.headers["x-request-id"]);
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await response.body.arrayBuffer());
      // As undici's text() does: UTF-8, without a byte order mark.
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    } catch (cause) {
      return networkFailure(where, cause, [token, url.searchParams.get("page_token") ?? ""], requestId);
    }
    const success = response.statusCode >= 200 && response.statusCode < 300;
    if (success && context.onBody !== undefined) {
      context.onBody(bytes);
      // undici writes a request to the socket on a later turn of the event loop: without this turn,
      // one sent by onBody would wait for the decoding and parse below (~4 ms a 1000-item page).
      await setImmediate();
    }
    const text = bytes.toString("utf8");
    if (success) {
      try {
        return {
          body: JSON.parse(text),
          bytes,
          requestId,
          apiCallId: headerValue(response.headers["x-api-call-id"]),
        };
      } catch (cause) {
        // A cut or garbled body: a transient fault of the connection or a proxy, worth another try.
        return {
          retryable: true,
          error: new ZooUsageError({
            code: "api.invalid_response",
            message: `${where} returned ${response.statusCode} with a body that is not valid JSON (${jsonErrorPosition(cause)}${text.length} bytes${requestId ? `, request id ${requestId}` : ""})`,
            hint: "This is usually a connection problem. If it persists, report the request id to Zoo support.",
            cause,
            status: response.statusCode,
            requestId,
          }),
        };
      }
    }
    const parsedError = ApiErrorBodySchema.safeParse(safeJson(text));
    const apiMessage = parsedError.success ? parsedError.data.message : undefined;
    const failure = describeHttpFailure({
      where,
      status: response.statusCode,
      apiMessage: apiMessage === undefined ? undefined : scrubText(apiMessage, [token]),
      requestId: requestId ?? (parsedError.success ? parsedError.data.request_id : undefined),
      notFoundHint: context.notFoundHint,
    });
    return {
      retryable: isRetryableStatus(response.statusCode),
      error: failure,
      retryAfterMs: parseRetryAfterMs(headerValue(response.headers["retry-after"]), effects.now()),
    };
  }
}

function networkFailure(
  where: string,
  cause: unknown,
  secrets: string[],
  requestId?: string,
): AttemptFailure {
  const detail = scrubText(cause instanceof Error ? cause.message : String(cause), secrets);
  const code = (cause as { code?: string } | null)?.code;
  // DNS failures and bad URLs will not heal by waiting; everything else on the wire might.
  const permanent =
    code === "ENOTFOUND" || code === "EAI_AGAIN" || cause instanceof undiciErrors.InvalidArgumentError;
  const timeout =
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT" ||
    code === "UND_ERR_CONNECT_TIMEOUT";
  return {
    retryable: !permanent,
    error: new ZooUsageError({
      code: "api.network",
      message: `${where} failed: ${timeout ? "timed out" : "connection error"}: ${detail}${code ? ` [${code}]` : ""}${requestId ? ` (request id ${requestId})` : ""}`,
      hint: permanent
        ? "Check --base-url / ZOO_HOST and the network."
        : "A network problem between here and the API; it was retried. Re-run later if it persists.",
      cause,
      requestId,
    }),
  };
}

/**
 * Where JSON.parse stopped, without the snippet of body V8 may quote: a body can hold page tokens
 * and other data that must not reach a log.
 */
function jsonErrorPosition(cause: unknown): string {
  const position = /position (\d+)/.exec(cause instanceof Error ? cause.message : "")?.[1];
  return position === undefined ? "" : `parse error at byte ${position} of `;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
