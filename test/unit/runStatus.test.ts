import { expect, test } from "vitest";
import { exitCodeOf } from "../../src/commands/export.js";
import { ExitCode, ZooUsageError } from "../../src/errors.js";
import { statusOf } from "../../src/pipeline/runStatus.js";
import { newRunSummary, type RunStatus, type RunSummary } from "../../src/sources/runSummary.js";

/**
 * How a run's end maps to its status (stored in the runs table, printed) and to the exit code. A
 * resumable API failure keeps what was committed and ends partial; any other failure is fatal.
 * (A fatal failure is also thrown by the run, and the CLI exits with that error's own code.)
 */
const apiError = (code: "api.retries_exhausted" | "api.network" | "api.server_error" | "api.rate_limited") =>
  new ZooUsageError({ code, message: code });
const fatalError = new ZooUsageError({ code: "output.unwritable", message: "disk full" });
const bug = new TypeError("a bug");

const NONE = undefined;

const CASES: [what: string, failure: unknown, interrupted: boolean, rejected: number, RunStatus, number][] = [
  ["clean", NONE, false, 0, "completed", ExitCode.ok],
  ["rejects", NONE, false, 3, "partial", ExitCode.partial],
  ["retries exhausted", apiError("api.retries_exhausted"), false, 0, "partial", ExitCode.partial],
  ["network failure", apiError("api.network"), false, 0, "partial", ExitCode.partial],
  ["server error", apiError("api.server_error"), false, 0, "partial", ExitCode.partial],
  ["rate limited", apiError("api.rate_limited"), false, 0, "partial", ExitCode.partial],
  ["resumable failure and rejects", apiError("api.network"), false, 3, "partial", ExitCode.partial],
  ["fatal failure", fatalError, false, 0, "failed", ExitCode.internal],
  ["fatal failure and rejects", fatalError, false, 3, "failed", ExitCode.internal],
  ["not a ZooUsageError", bug, false, 0, "failed", ExitCode.internal],
  [
    "an API error that is not resumable",
    new ZooUsageError({ code: "api.unauthorized", message: "401" }),
    false,
    0,
    "failed",
    ExitCode.internal,
  ],
  ["interrupted", NONE, true, 0, "interrupted", ExitCode.interrupted],
  ["interrupted with rejects", NONE, true, 3, "interrupted", ExitCode.interrupted],
  [
    "interrupted and a resumable failure",
    apiError("api.network"),
    true,
    0,
    "interrupted",
    ExitCode.interrupted,
  ],
  ["interrupted and a fatal failure", fatalError, true, 0, "interrupted", ExitCode.interrupted],
];

const summaryWith = (status: RunStatus): RunSummary => ({ ...newRunSummary("run-1"), status });

const ROWS = CASES.map(([what, failure, interrupted, rejected, status, exitCode]) => ({
  what,
  failure,
  interrupted,
  rejected,
  status,
  exitCode,
}));

test.each(ROWS)("$what: $status, exit $exitCode", ({ failure, interrupted, rejected, status, exitCode }) => {
  expect(statusOf(failure, interrupted, rejected)).toBe(status);
  expect(exitCodeOf(summaryWith(status))).toBe(exitCode);
});
