import { type ErrorCode, ZooUsageError } from "../errors.js";

/** Dropshot's prefix for a page token it cannot read (its 400 "unable to parse query string"). */
const BAD_PAGE_TOKEN_MARKER = "failed to parse pagination token";

export interface HttpFailure {
  /** "GET /path?query" with secrets already redacted. */
  where: string;
  status: number;
  apiMessage: string | undefined;
  requestId: string | undefined;
  notFoundHint?: string | undefined;
}

/** Turns a non-2xx response into the error a user reads: what failed, why, and what to do. */
export function describeHttpFailure(failure: HttpFailure): ZooUsageError {
  const { where, status, apiMessage, requestId } = failure;
  const { code, hint } = classify(failure);
  const parts = [`${where} failed with HTTP ${status}`];
  if (apiMessage) parts.push(`: ${apiMessage}`);
  if (requestId) parts.push(` (request id ${requestId})`);
  return new ZooUsageError({ code, message: parts.join(""), hint, status, requestId });
}

function classify(failure: HttpFailure): { code: ErrorCode; hint: string } {
  const { status, apiMessage } = failure;
  if (status === 400 && apiMessage?.includes(BAD_PAGE_TOKEN_MARKER)) {
    return {
      code: "api.invalid_page_token",
      hint: "The API no longer accepts a stored page token; a full scan rebuilds the position.",
    };
  }
  if (status === 400)
    return { code: "api.bad_request", hint: "The request was rejected as malformed; check the arguments." };
  if (status === 401) {
    return {
      code: "api.unauthorized",
      hint: "Check ZOO_API_TOKEN: it must hold a valid, unrevoked Zoo API token (create one at https://zoo.dev/account/api-tokens).",
    };
  }
  if (status === 403)
    return { code: "api.forbidden", hint: "The token is valid but not allowed to do this." };
  if (status === 404) {
    return { code: "api.not_found", hint: failure.notFoundHint ?? "Check the id and the --base-url." };
  }
  if (status === 429)
    return { code: "api.rate_limited", hint: "The API is rate limiting this token; wait and re-run." };
  if (status >= 500)
    return { code: "api.server_error", hint: "The API failed; it was retried. Re-run later." };
  return { code: "api.client_error", hint: "The API refused the request." };
}
