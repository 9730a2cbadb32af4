import { ZooUsageError } from "../../errors.js";
import { forgetPositions } from "../../load/checkpoint.js";
import type { SourceResult } from "../declaredSource.js";
import type { RunContext } from "../runContext.js";
import { type ScanResult, scanApiCalls } from "./scanApiCalls.js";
import type { StartPoint } from "./startPoint.js";

/** What the calls' scan reports: where it started, and what the scan itself found. */
export type CallsDetails = Omit<ScanResult, "counts" | "ended" | "failure"> & { start: StartPoint };

/**
 * The calls' scan from the run's start point. A stored token the API no longer accepts (before any
 * page was read): every stored position is forgotten and the scan starts again from the beginning.
 */
export async function scanWithFallback(context: RunContext): Promise<SourceResult<CallsDetails>> {
  const { calls, start, checkpoint, warn } = context;
  const first = await scanApiCalls(calls, start, checkpoint.userId);
  const { failure } = first;
  const rejectedToken =
    failure instanceof ZooUsageError &&
    failure.code === "api.invalid_page_token" &&
    start.token !== null &&
    first.counts.pages === 0;
  if (!rejectedToken) return withDetails(first, start);
  warn(
    "the API rejected the stored page token (400); falling back to a full scan, which ends correct but reads everything",
  );
  try {
    await forgetPositions(context.deps.warehouse);
  } catch (error) {
    return withDetails({ ...first, failure: error }, start);
  }
  const full: StartPoint = { mode: "full", token: null, reason: "stored page token rejected by the API" };
  const second = await scanApiCalls(calls, full, checkpoint.userId);
  return withDetails(
    { ...second, partitionsWritten: first.partitionsWritten + second.partitionsWritten },
    full,
  );
}

function withDetails(scan: ScanResult, start: StartPoint): SourceResult<CallsDetails> {
  const { counts, ended, failure, ...details } = scan;
  return { counts, ended, ...(failure === undefined ? {} : { failure }), details: { ...details, start } };
}
