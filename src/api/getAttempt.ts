import { setImmediate } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { foreignText } from "../log/printable.js";
import { type AttemptFailure, tooLargeFailure, wireFailure } from "./attemptFailure.js";
import { describeHttpFailure } from "./httpFailure.js";
import type { BodyFilter } from "./operationBody.js";
import { readBodyCapped } from "./readBody.js";
import { describeUrl, scrubText } from "./redact.js";
import type { RequestDeadline } from "./requestDeadline.js";
import { isRetryableStatus, parseRetryAfterMs } from "./retryPolicy.js";
import { ApiErrorBodySchema } from "./schemas/index.js";

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
  /**
   * Shown a successful body's first bytes as they arrive, before the rest is in, until it returns
   * true (it has seen what it looks for, or that it is not there).
   */
  onHead?: (head: Buffer) => boolean;
  /** Given a successful body's bytes as soon as they are all in, before they are parsed. */
  onBody?: (bytes: Buffer) => void;
  /**
   * Aborted when the caller no longer wants the result (a read-ahead page dropped): the request and
   * its retry waits end at once, as on the run's stop signal, instead of retrying for nobody.
   */
  signal?: AbortSignal | undefined;
  /**
   * Makes a fresh filter for each attempt's body: only the bytes it keeps are held and parsed
   * (OutputSkippingFilter drops an operation's output files as they stream in). Given the body's
   * declared length, if any; undefined means the body is read whole.
   */
  bodyFilter?: (declaredBytes: number | undefined) => BodyFilter | undefined;
  /**
   * Told of each failed attempt about to be retried (429, 5xx, a reset, a timeout, a cut body), as
   * it happens: a caller pacing its requests backs off without waiting for the retry to end.
   */
  onRetry?: (error: ZooUsageError) => void;
  /**
   * Reads a successful body in place of JSON.parse, or returns undefined to leave it to JSON.parse
   * (a listing page cut into its items' bytes, splitCompactPage): no string of the whole body is made.
   */
  parse?: (bytes: Buffer) => unknown;
}

/** What one attempt needs of the transport that makes it. */
export interface AttemptSettings {
  dispatcher: Dispatcher;
  token: string;
  /** Time limit of the wait for headers and between body chunks. */
  requestTimeoutMs: number;
  maxResponseBytes: number;
  userAgent: string;
  logger: Logger;
  /** The clock a Retry-After date is measured from. */
  now: () => number;
  /** Told as soon as a response's headers are in, with its x-api-call-id header if any. */
  onAnswered: (apiCallId: string | undefined) => void;
}

/**
 * One GET of `url` within `deadline`: the parsed JSON body of a 2xx, or the failure with whether it
 * is worth another attempt (a cut or garbled body, a retryable status) and the server's Retry-After.
 */
export async function attemptGet(
  settings: AttemptSettings,
  url: URL,
  context: RequestContext,
  deadline: RequestDeadline,
): Promise<Omit<JsonResponse, "attempts"> | AttemptFailure> {
  const { dispatcher, token, requestTimeoutMs, userAgent, maxResponseBytes } = settings;
  const where = `GET ${describeUrl(url)}`;
  const secrets = [token, url.searchParams.get("page_token") ?? ""];
  settings.logger.debug(`${where}`);
  let response: Dispatcher.ResponseData;
  try {
    response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "user-agent": userAgent },
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
      signal: deadline.signal,
    });
  } catch (cause) {
    return wireFailure(where, cause, secrets, deadline);
  }
  const requestId = headerValue(response.headers["x-request-id"]);
  const apiCallId = headerValue(response.headers["x-api-call-id"]);
  settings.onAnswered(apiCallId);
  const success = response.statusCode >= 200 && response.statusCode < 300;
  let bytes: Buffer;
  try {
    const read = await readBodyCapped(response, maxResponseBytes, {
      onHead: success ? context.onHead : undefined,
      filter: context.bodyFilter?.(declaredLength(response.headers["content-length"])),
    });
    if (!read.ok) {
      deadline.abort("too_large");
      return tooLargeFailure(where, read, maxResponseBytes, response.statusCode, requestId);
    }
    bytes = read.bytes;
  } catch (cause) {
    return wireFailure(where, cause, secrets, deadline, requestId);
  }
  if (success && context.onBody !== undefined) {
    context.onBody(bytes);
    // undici writes a request to the socket on a later turn of the event loop: without this turn,
    // one sent by onBody would wait for the decoding and parse below, which take milliseconds on a
    // full page.
    await setImmediate();
  }
  if (success && context.parse !== undefined) {
    const body = context.parse(bytes);
    if (body !== undefined) return { body, bytes, requestId, apiCallId };
  }
  const text = bytes.toString("utf8");
  if (success) {
    try {
      return {
        body: JSON.parse(text),
        bytes,
        requestId,
        apiCallId,
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
    // API text reaches terminals and logs: shown safely here, once (the token kept apart by its prefix).
    apiMessage: apiMessage === undefined ? undefined : foreignText(scrubText(apiMessage, [token])),
    requestId: requestId ?? (parsedError.success ? parsedError.data.request_id : undefined),
    notFoundHint: context.notFoundHint,
  });
  return {
    retryable: isRetryableStatus(response.statusCode),
    error: failure,
    retryAfterMs: parseRetryAfterMs(headerValue(response.headers["retry-after"]), settings.now()),
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

/** A response's content-length as a number of bytes, when it has a valid one. */
function declaredLength(value: string | string[] | undefined): number | undefined {
  const bytes = Number(headerValue(value));
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : undefined;
}
