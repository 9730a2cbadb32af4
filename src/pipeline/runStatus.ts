import { ZooUsageError } from "../errors.js";
import type { RunStatus } from "./runSummary.js";

/**
 * Errors after which the run keeps what it has committed and ends partial (or interrupted, for a
 * request abandoned on SIGINT/SIGTERM), to resume next time.
 */
const RESUMABLE_API_ERRORS = new Set([
  "api.interrupted",
  "api.retries_exhausted",
  "api.network",
  "api.server_error",
  "api.rate_limited",
  "api.pagination_anomaly",
]);

export function isResumable(error: unknown): boolean {
  return error instanceof ZooUsageError && RESUMABLE_API_ERRORS.has(error.code);
}

/** The status a run ends with; the exit code follows from it (exitCodeOf in commands/export.ts). */
export function statusOf(failure: unknown, interrupted: boolean, rejected: number): RunStatus {
  if (interrupted) return "interrupted";
  if (failure !== undefined) return isResumable(failure) ? "partial" : "failed";
  return rejected > 0 ? "partial" : "completed";
}
