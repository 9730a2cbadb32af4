import { notVisibleStatus } from "../api/notVisible.js";
import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { asStorageError } from "../load/storageError.js";
import type { SourceCounts } from "./runSource.js";

/**
 * What running one source came to, the same shape for every source:
 * - stored: it was read to its end (or to a stop) and what it read is stored;
 * - skipped: an optional resource this token may not read (403/404), with the reason;
 * - failed: the error that ended it, after storing what it had read before.
 */
export type SourceStatus = "stored" | "skipped" | "failed";

export interface SourceOutcome<Details = unknown> {
  status: SourceStatus;
  /** Why it was skipped or failed. */
  message?: string;
  failure?: unknown;
  /** How its failure weighs on the run: see failureKind. */
  kind?: FailureKind;
  counts: SourceCounts;
  seconds: number;
  /** What the source itself reports (undefined when it had nothing to do). */
  details: Details | undefined;
}

/**
 * How a failure weighs on the run, one table for every source (the exit code the run ends with):
 * | kind        | what                                                        | run ends    | exit |
 * | skipped     | 403/404 on an optional resource                             | as it would | 0    |
 * | partial     | listing anomaly (API, store), 5xx, 429, network             | partial     | 4    |
 * | interrupted | SIGINT/SIGTERM                                              | interrupted | 130  |
 * | storage     | disk full, file-size limit; a database that refuses the run | failed      | 2    |
 * | api         | 401, or 403/404 on a required resource, another 4xx         | failed      | 3    |
 * | internal    | anything else (a bug)                                       | failed      | 1    |
 * A partial failure lets the sources that do not depend on the failed one run; the last three stop
 * the plan (pipeline/plan.ts).
 */
export type FailureKind = "skipped" | "partial" | "interrupted" | "storage" | "api" | "internal";

/** Errors after which the run keeps what it committed and ends partial, to resume next time. */
const PARTIAL_API_ERRORS = new Set([
  "output.s3_listing_anomaly",
  "api.retries_exhausted",
  "api.network",
  "api.server_error",
  "api.rate_limited",
  "api.pagination_anomaly",
]);

export function failureKind(error: unknown, optional: boolean): FailureKind {
  if (optional && notVisibleStatus(error) !== undefined) return "skipped";
  if (!(error instanceof ZooUsageError)) {
    const storage = asStorageError(error, "the database");
    return storage instanceof ZooUsageError ? "storage" : "internal";
  }
  if (error.code === "api.interrupted") return "interrupted";
  if (PARTIAL_API_ERRORS.has(error.code)) return "partial";
  if (error.exitCode === ExitCode.usage) return "storage";
  return error.exitCode === ExitCode.api ? "api" : "internal";
}

/** Whether the plan goes on after a failure of this kind. */
export function stopsThePlan(kind: FailureKind | undefined): boolean {
  return kind === "interrupted" || kind === "storage" || kind === "api" || kind === "internal";
}

/** The exit code of each kind, for the docs and the tests (the CLI maps the thrown error itself). */
export const EXIT_CODE_OF_KIND: Readonly<Record<FailureKind, ExitCodeValue>> = {
  skipped: ExitCode.ok,
  partial: ExitCode.partial,
  interrupted: ExitCode.interrupted,
  storage: ExitCode.usage,
  api: ExitCode.api,
  internal: ExitCode.internal,
};
