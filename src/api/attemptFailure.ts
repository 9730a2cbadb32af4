import { errors as undiciErrors } from "undici";
import { ExitCode, ZooUsageError } from "../errors.js";
import type { BodyRead } from "./readBody.js";
import { scrubText } from "./redact.js";
import type { RequestDeadline } from "./requestDeadline.js";

/** How one attempt of a request failed, and the errors a request ends with. */

/** A failed attempt: retryable ones carry the delay the server asked for, if any. */
export interface AttemptFailure {
  retryable: boolean;
  error: ZooUsageError;
  retryAfterMs?: number | undefined;
}

/** The attempt ended on the wire: stopped by the run (thrown), timed out, or a network error. */
export function wireFailure(
  where: string,
  cause: unknown,
  secrets: string[],
  deadline: RequestDeadline,
  requestId?: string,
): AttemptFailure {
  if (deadline.reason === "stopped") throw interrupted(where);
  if (deadline.reason === "timeout") {
    return {
      retryable: true,
      error: new ZooUsageError({
        code: "api.network",
        message: `${where} failed: timed out: no complete response within ${seconds(deadline.timeoutMs)}${requestId ? ` (request id ${requestId})` : ""}`,
        hint: "The API or the network is slow; it was retried. Raise --request-timeout if responses are this slow.",
        cause,
        requestId,
      }),
    };
  }
  return networkFailure(where, cause, secrets, requestId);
}

export function interrupted(where: string): ZooUsageError {
  return new ZooUsageError({
    code: "api.interrupted",
    message: `${where} was abandoned: the run is stopping, or its result is no longer needed`,
    hint: "Stopped by SIGINT or SIGTERM; an export resumes from its last checkpoint.",
    exitCode: ExitCode.interrupted,
  });
}

export function seconds(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

export function networkFailure(
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

/** A body past the cap: not retried, it would not get smaller. */
export function tooLargeFailure(
  where: string,
  read: Extract<BodyRead, { ok: false }>,
  maxBytes: number,
  status: number,
  requestId: string | undefined,
): AttemptFailure {
  return {
    retryable: false,
    error: new ZooUsageError({
      code: "api.response_too_large",
      message: `${where} returned a body larger than the limit of ${mebibytes(maxBytes)} (${read.seenBytes} bytes${read.declared ? " declared" : " read before stopping"}${requestId ? `, request id ${requestId}` : ""})`,
      hint: "Raise --max-response-mb if a response this large is expected (an operation with large output files; for a page of calls, a smaller --limit also works); otherwise report the request id to Zoo support.",
      status,
      requestId,
    }),
  };
}

/**
 * A network failure before any response ever came back: the host is wrong, does not resolve, or
 * does not answer. Not a passing fault worth resuming later, so not a partial run.
 */
export function unreachableError(
  origin: string,
  attempts: number,
  network: ZooUsageError,
  error: ZooUsageError,
): ZooUsageError {
  return new ZooUsageError({
    code: "api.unreachable",
    message: `No response from ${origin}${attempts > 1 ? ` in ${attempts} attempts` : ""}: ${network.message}`,
    hint: "Check --base-url / ZOO_HOST (the host name, the port, a proxy) and the network: this host never answered.",
    cause: error,
  });
}

/** The last failure of a request that will not be tried again, and why not. */
export function exhaustedError(last: ZooUsageError, why: string): ZooUsageError {
  return new ZooUsageError({
    code: "api.retries_exhausted",
    message: `${last.message} (${why})`,
    hint: "The API kept failing. Re-run later: an export resumes from its last checkpoint. Raise --max-attempts or --max-retry-wait to wait longer.",
    cause: last,
    status: last.status,
    requestId: last.requestId,
  });
}
