import { failureKind } from "../sources/outcome.js";
import type { RunStatus } from "../sources/runSummary.js";

/**
 * The status a run ends with; the exit code follows from it (exitCodeOf in commands/export.ts). A
 * failure the run resumes from (sources/outcome.ts: partial or interrupted) keeps what was committed
 * and ends partial; any other ends it failed.
 */
export function statusOf(failure: unknown, interrupted: boolean, rejected: number): RunStatus {
  if (interrupted) return "interrupted";
  if (failure !== undefined) {
    const kind = failureKind(failure, false);
    return kind === "partial" || kind === "interrupted" ? "partial" : "failed";
  }
  return rejected > 0 ? "partial" : "completed";
}
