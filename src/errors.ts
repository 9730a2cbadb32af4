/**
 * The one error type of zoo-usage. Every failure a user can see is a ZooUsageError with a stable
 * `code` (tests match on it), a `hint` saying what to do next, and the process exit code it maps to.
 * Only the CLI catches and prints these.
 */
export const ExitCode = {
  ok: 0,
  /** Unexpected failure: a bug, or an error we did not classify. */
  internal: 1,
  /** `zoo-usage check` reported an alert (the same code: cron mails on either). */
  alert: 1,
  /** Bad command line, configuration or environment (missing token, bad URL, unwritable path). */
  usage: 2,
  /** The API refused or failed: auth, not found, retry budget spent. */
  api: 3,
  /** The run finished but some records were rejected or the run stopped early (partial). */
  partial: 4,
  /** An async operation ended in `failed`, or `--wait` timed out before it finished. */
  operationFailed: 5,
  /** Another process holds the database or the export lock. */
  locked: 6,
  /** Stopped by SIGINT or SIGTERM. 130 is the shell convention for SIGINT. */
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export type ErrorCode =
  | "config.invalid"
  | "config.missing_token"
  | "config.blank_token"
  | "config.insecure_transport"
  | "api.unauthorized"
  | "api.forbidden"
  | "api.not_found"
  | "api.bad_request"
  | "api.client_error"
  | "api.server_error"
  | "api.rate_limited"
  | "api.network"
  | "api.unreachable"
  | "api.response_too_large"
  | "api.interrupted"
  | "api.invalid_response"
  | "api.invalid_page_token"
  | "api.retries_exhausted"
  | "api.pagination_anomaly"
  | "warehouse.locked"
  | "warehouse.unreadable"
  | "warehouse.other_user"
  | "warehouse.other_scope"
  | "warehouse.other_owner"
  | "warehouse.other_key"
  | "warehouse.not_duckdb"
  | "warehouse.unrelated"
  | "output.unwritable"
  | "output.other_warehouse"
  | "output.foreign_objects"
  | "output.unknown_scheme"
  | "output.s3_credentials"
  | "output.s3_bucket"
  | "output.s3_denied"
  | "output.s3_region"
  | "output.s3_unreachable"
  | "output.s3_failed"
  | "output.s3_listing_anomaly"
  | "output.s3_incomplete"
  | "operation.not_in_warehouse"
  | "operation.failed"
  | "operation.wait_timeout"
  | "internal";

export interface ZooUsageErrorOptions {
  code: ErrorCode;
  message: string;
  hint?: string | undefined;
  exitCode?: ExitCodeValue | undefined;
  cause?: unknown;
  /** HTTP status, when the error came from a response. */
  status?: number | undefined;
  /** The API's x-request-id, when the error came from a response: Zoo support asks for it. */
  requestId?: string | undefined;
}

export class ZooUsageError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly exitCode: ExitCodeValue;
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(options: ZooUsageErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ZooUsageError";
    this.code = options.code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? defaultExitCode(options.code);
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

function defaultExitCode(code: ErrorCode): ExitCodeValue {
  if (code.startsWith("config.")) return ExitCode.usage;
  // The calls read before the anomaly are committed and the next run goes on from there.
  if (code === "api.pagination_anomaly" || code === "output.s3_listing_anomaly") return ExitCode.partial;
  if (code.startsWith("api.")) return ExitCode.api;
  if (code.startsWith("operation.")) return ExitCode.operationFailed;
  if (code === "warehouse.locked") return ExitCode.locked;
  if (code.startsWith("warehouse.") || code.startsWith("output.")) return ExitCode.usage;
  return ExitCode.internal;
}
