import { rm } from "node:fs/promises";
import { durationUnitWarning } from "../load/durationEvidence.js";
import { type FocusWrite, writeFocusDataset } from "../load/focusDataset.js";
import { recordOwnCalls } from "../load/ownCalls.js";
import { writeDirtyPartitions } from "../load/parquetExport.js";
import { finishRun } from "../load/runHistory.js";
import type { PendingRereads } from "../sources/calls/rereadPending.js";
import type { CallsDetails } from "../sources/calls/scanWithFallback.js";
import type { DeclaredSource } from "../sources/declaredSource.js";
import type { ExportDeps, ExportOptions } from "../sources/exportSettings.js";
import type { OperationFetchResult } from "../sources/operations/fetchOperations.js";
import { type SourceOutcome, stopsThePlan } from "../sources/outcome.js";
import type { RunContext } from "../sources/runContext.js";
import { balanceSummary, invoicesSummary, spendersSummary } from "./accountSummaries.js";
import { exportPlan, runPlan } from "./plan.js";
import { DATASETS, prepareRun } from "./prepareRun.js";
import { statusOf } from "./runStatus.js";
import { newRunSummary, type RunSummary } from "./runSummary.js";
import { claimRunScope } from "./scopeOwner.js";
import { RunWarnings } from "./warnings.js";

export type { ExportDeps, ExportOptions } from "../sources/exportSettings.js";

/**
 * One export run: claim the warehouse's scope and owner, prepare (the run recorded, the start point
 * chosen), run the plan's sources (exportPlan), then rewrite the Parquet partitions that changed,
 * also after a failure, for what was committed. The summary is made from the sources' outcomes.
 * A failure that stops the plan (outcome.ts) is thrown after the run is recorded.
 */
export async function exportApiCalls(
  deps: ExportDeps & { onFailedRun?: ((summary: RunSummary) => void) | undefined },
  options: ExportOptions,
): Promise<RunSummary> {
  const { logger, progress } = deps;
  const startedAt = deps.now();
  const lap = phaseClock(deps.now, startedAt);
  const warnings = new RunWarnings((line) => logger.warn(line));
  const warn = (message: string, kind?: string) => warnings.add(message, kind);
  const owner = await claimRunScope(deps, options);
  const context = await prepareRun(deps, options, startedAt, warn, owner);
  let ran: { summary: RunSummary; fatal: SourceOutcome | undefined };
  try {
    ran = await runAndSummarize(context, lap, warnings);
  } catch (error) {
    // Whatever ends the run here, its row does not stay 'running'.
    await recordUnexpected(deps, options.runId, error);
    throw error;
  }
  const { summary, fatal } = ran;
  await recordRun(deps, summary, fatal !== undefined);
  progress.update({ phase: summary.status });
  progress.done();
  if (fatal !== undefined) {
    deps.onFailedRun?.(summary);
    throw fatal.failure;
  }
  return summary;
}

/** The plan run, the Parquet written, and the summary made: what the run did, and what stopped it. */
async function runAndSummarize(
  context: RunContext,
  lap: () => number,
  warnings: RunWarnings,
): Promise<{ summary: RunSummary; fatal: SourceOutcome | undefined }> {
  const { deps, options, warn, startedAt } = context;
  const prepare = lap();
  deps.progress.update({ phase: "fetching", counting: "records" });
  const plan = exportPlan(options.scope);
  const outcomes = await runPlan(plan, context);
  const sourcesSeconds = lap();
  const futureWarning = context.calls.future.warning();
  if (futureWarning !== undefined) warn(futureWarning);
  const failed = [...outcomes.values()].filter((outcome) => outcome.status === "failed");
  const fatal = failed.find((outcome) => stopsThePlan(outcome.kind) && outcome.kind !== "interrupted");
  const failure = (fatal ?? failed[0])?.failure;
  const datasets = deps.signal.aborted
    ? { partitions: 0, focus: undefined }
    : await writeDatasets(deps, options, warn, fatal !== undefined);
  const parquetSeconds = lap();
  await rm(options.spoolDir, { recursive: true, force: true });
  const durationWarning = fatal ? undefined : await durationUnitWarning(deps.warehouse, options.durationUnit);
  if (durationWarning !== undefined) warn(durationWarning);
  const summary = summaryOf(outcomes, { deps, options, start: context.start.mode });
  summary.partitions_written += datasets.partitions;
  if (datasets.focus !== undefined) summary.focus = datasets.focus;
  const upload = deps.target.uploads();
  if (upload !== undefined) summary.upload = upload;
  summary.phase_seconds = {
    prepare,
    ...phaseSeconds(plan, outcomes, sourcesSeconds),
    parquet: parquetSeconds,
  };
  const rejected = [...outcomes.values()].reduce((sum, outcome) => sum + outcome.counts.rejected, 0);
  summary.status = statusOf(failure, deps.signal.aborted, rejected);
  if (failure !== undefined) summary.message = failure instanceof Error ? failure.message : String(failure);
  summary.warnings = warnings.lines();
  summary.seconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
  return { summary, fatal };
}

/** The run summary's counts from the sources' outcomes (their names keep the summary's keys). */
function summaryOf(
  outcomes: ReadonlyMap<string, SourceOutcome>,
  run: { deps: ExportDeps; options: ExportOptions; start: RunSummary["scan_mode"] },
): RunSummary {
  const calls = outcomes.get("api calls");
  const scan = calls?.details as CallsDetails | undefined;
  const rereads = outcomes.get("pending re-reads");
  const operations = outcomes.get("async operations")?.details as OperationFetchResult | undefined;
  const pending = rereads?.details as PendingRereads | undefined;
  const spenders = spendersSummary(outcomes);
  const invoices = invoicesSummary(outcomes.get("invoices"));
  const balance = balanceSummary(outcomes.get("balance"));
  return {
    ...newRunSummary(run.options.runId),
    scan_mode: scan?.start.mode ?? run.start,
    requests: run.deps.client.stats.requests,
    retries: run.deps.client.stats.retries,
    pages: calls?.counts.pages ?? 0,
    records_seen: calls?.counts.seen ?? 0,
    records_new: calls?.counts.inserted ?? 0,
    records_updated: (calls?.counts.updated ?? 0) + (rereads?.counts.updated ?? 0),
    records_rejected: (calls?.counts.rejected ?? 0) + (rereads?.counts.rejected ?? 0),
    partitions_written: scan?.partitionsWritten ?? 0,
    ...(scan === undefined || scan.foreignOrgCalls === 0 ? {} : { foreign_org_calls: scan.foreignOrgCalls }),
    ...(operations === undefined ? {} : { operations }),
    ...(pending === undefined ? {} : { pending_rereads: pending }),
    ...(spenders === undefined ? {} : { spenders }),
    ...(invoices === undefined ? {} : { invoices }),
    ...(balance === undefined ? {} : { balance }),
  };
}

/** The sources' seconds by the phase each declares; what they did not account for goes to the scan. */
function phaseSeconds(
  plan: readonly DeclaredSource[],
  outcomes: ReadonlyMap<string, SourceOutcome>,
  total: number,
): Omit<RunSummary["phase_seconds"], "prepare" | "parquet"> {
  const phases = { scan: 0, account: 0, operations: 0 };
  for (const source of plan) phases[source.phase] += outcomes.get(source.name)?.seconds ?? 0;
  phases.scan += Math.max(0, total - phases.scan - phases.account - phases.operations);
  return phases;
}

/** Seconds since the previous call: each phase is measured from where the one before it ended. */
function phaseClock(now: () => Date, startedAt: Date): () => number {
  let phaseStart = startedAt.getTime();
  return () => {
    const at = now().getTime();
    const seconds = (at - phaseStart) / 1000;
    phaseStart = at;
    return seconds;
  };
}

/**
 * Rewrites every partition still dirty, of every dataset, then with --focus the FOCUS dataset's
 * billing periods whose rows changed; returns how many partitions were written. After a failure
 * that stopped the plan it is tried all the same (what was committed deserves its Parquet), and its
 * own failure is then a warning: the run's failure is the one to report.
 */
async function writeDatasets(
  deps: ExportDeps,
  options: ExportOptions,
  warn: (message: string) => void,
  afterFailure: boolean,
): Promise<{ partitions: number; focus: FocusWrite | undefined }> {
  deps.progress.update({ phase: "writing parquet", counting: "partitions" });
  let written = 0;
  let focus: FocusWrite | undefined;
  try {
    for (const { dataset } of DATASETS) {
      written += await writeDirtyPartitions(deps.warehouse, {
        dataset,
        target: deps.target,
        partitioning: options.partitioning,
        runId: options.runId,
        onPartition: () => deps.progress.add({ partitions: 1 }),
        onWarning: warn,
      });
    }
    if (options.focus) {
      focus = await writeFocusDataset(deps.warehouse, deps.target, {
        runId: options.runId,
        now: deps.now(),
        onPartition: () => deps.progress.add({ partitions: 1 }),
      });
      written += focus.written;
    }
  } catch (error) {
    if (!afterFailure) throw error;
    warn(`the Parquet dataset was not written after the failure: ${(error as Error).message}`);
  }
  return { partitions: written, focus };
}

/** A run that failed before its summary was made: recorded failed, never left 'running'. */
async function recordUnexpected(deps: ExportDeps, runId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  try {
    await finishRun(deps.warehouse, { ...newRunSummary(runId), status: "failed", message }, deps.now());
  } catch (cause) {
    deps.logger.warn(`could not record the run in the runs table: ${(cause as Error).message}`);
  }
}

/**
 * The run in the runs table, and the exporter's own call ids (even a failed run's requests are
 * listed as calls next time). Recording the run must not hide why it failed (a full disk fails both).
 */
async function recordRun(deps: ExportDeps, summary: RunSummary, fatal: boolean): Promise<void> {
  try {
    await recordOwnCalls(deps.warehouse, summary.run_id, deps.client.takeReceivedCallIds());
    await finishRun(deps.warehouse, summary, deps.now());
  } catch (error) {
    if (!fatal) throw error;
    deps.logger.warn(`could not record the run in the runs table: ${(error as Error).message}`);
  }
}
