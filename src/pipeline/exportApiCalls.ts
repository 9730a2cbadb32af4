import { rm } from "node:fs/promises";
import { type FocusWrite, writeFocusDataset } from "../destination/focusDataset.js";
import { writeDirtyPartitions } from "../destination/partitionWriter.js";
import { S3ListingAnomaly } from "../destination/s3ListingGuard.js";
import {
  markUnreadablePartitions,
  repairedCount,
  type UnreadableFile,
} from "../destination/verifyDatasets.js";
import { storeCallClasses } from "../load/callClasses.js";
import { durationUnitWarning } from "../load/durationEvidence.js";
import { recordOwnCalls } from "../load/ownCalls.js";
import { finishRun } from "../load/runHistory.js";
import { WalCheckpoint } from "../load/walCheckpoint.js";
import type { DeclaredSource } from "../sources/declaredSource.js";
import type { ExportDeps, ExportOptions } from "../sources/exportSettings.js";
import { type SourceOutcome, stopsThePlan } from "../sources/outcome.js";
import type { RunContext } from "../sources/runContext.js";
import { newRunSummary, type RunSummary } from "../sources/runSummary.js";
import { exportPlan, runPlan } from "./plan.js";
import { DATASETS, prepareRun } from "./prepareRun.js";
import { statusOf } from "./runStatus.js";
import { RunWarnings } from "./warnings.js";

export type { ExportDeps, ExportOptions } from "../sources/exportSettings.js";

/**
 * One export run: prepare (the warehouse's scope and owner claimed, the run recorded, the start
 * point chosen), run the plan's sources (exportPlan), then rewrite the Parquet partitions that changed,
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
  const context = await prepareRun(deps, options, startedAt, warn);
  let ran: { summary: RunSummary; fatal: SourceOutcome | undefined };
  try {
    const verified = options.verifyOut ? await verifyOut(deps, options, warn) : undefined;
    ran = await runAndSummarize(context, lap, warnings, verified);
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
  context: RunContext & { listingAnomaly: S3ListingAnomaly | undefined },
  lap: () => number,
  warnings: RunWarnings,
  verified: { objects: number; unreadable: UnreadableFile[] } | undefined,
): Promise<{ summary: RunSummary; fatal: SourceOutcome | undefined }> {
  const { deps, options, warn, startedAt } = context;
  const prepare = lap();
  deps.progress.update({ phase: "fetching", counting: "records" });
  const outcomes = await runPlan(exportPlan(options.scope), context);
  const failed = [...outcomes.values()].filter((outcome) => outcome.status === "failed");
  const fatal = failed.find((outcome) => stopsThePlan(outcome.kind) && outcome.kind !== "interrupted");
  // Stopped: the days marked stale wait for the next run.
  if (!deps.signal.aborted) await storeClassesOrWarn(deps, warn);
  const sourcesSeconds = lap();
  const futureWarning = context.calls.future.warning();
  if (futureWarning !== undefined) warn(futureWarning);
  // Stopped, or the bucket's listing is not to be trusted: the dirty partitions wait for the next run.
  const datasets =
    deps.signal.aborted || context.listingAnomaly !== undefined
      ? { partitions: 0, focus: undefined, failure: context.listingAnomaly }
      : await writeDatasets(deps, options, warn, fatal !== undefined);
  const failure = (fatal ?? failed[0])?.failure ?? datasets.failure;
  const parquetSeconds = lap();
  await rm(options.spoolDir, { recursive: true, force: true });
  const durationWarning = fatal ? undefined : await durationUnitWarning(deps.warehouse, options.durationUnit);
  if (durationWarning !== undefined) warn(durationWarning);
  const summary = summaryOf(outcomes, { deps, options, start: context.start.mode, seconds: sourcesSeconds });
  summary.partitions_written += datasets.partitions;
  if (datasets.focus !== undefined) summary.focus = datasets.focus;
  const upload = deps.target.uploads();
  if (upload !== undefined) summary.upload = upload;
  if (verified !== undefined)
    summary.verify = {
      objects: verified.objects,
      unreadable: verified.unreadable.length,
      repaired: await repairedCount(deps.warehouse, verified.unreadable),
    };
  summary.phase_seconds = toTheMillisecond({
    ...summary.phase_seconds,
    prepare,
    parquet: parquetSeconds,
  });
  const rejected = [...outcomes.values()].reduce((sum, outcome) => sum + outcome.counts.rejected, 0);
  summary.status = statusOf(failure, deps.signal.aborted, rejected);
  if (failure !== undefined) summary.message = failure instanceof Error ? failure.message : String(failure);
  summary.warnings = warnings.lines();
  summary.seconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
  return { summary, fatal };
}

/** The run summary as the sources that ran fill it, each its own part; their seconds by phase. */
function summaryOf(
  outcomes: ReadonlyMap<DeclaredSource, SourceOutcome>,
  run: { deps: ExportDeps; options: ExportOptions; start: RunSummary["scan_mode"]; seconds: number },
): RunSummary {
  const summary: RunSummary = {
    ...newRunSummary(run.options.runId),
    scan_mode: run.start,
    requests: run.deps.client.stats.requests,
    retries: run.deps.client.stats.retries,
  };
  const phases = summary.phase_seconds;
  for (const [source, outcome] of outcomes) {
    source.summarize(summary, outcome);
    phases[source.phase] += outcome.seconds;
  }
  // What the sources did not account for goes to the scan.
  phases.scan += Math.max(0, run.seconds - phases.scan - phases.account - phases.operations);
  return summary;
}

/**
 * Each phase's seconds rounded to the millisecond, the clock's own resolution: the phases are sums
 * of measured times, whose binary floats would otherwise print as 10.574000000000002.
 */
export function toTheMillisecond(phases: RunSummary["phase_seconds"]): RunSummary["phase_seconds"] {
  const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
  return {
    prepare: round(phases.prepare),
    scan: round(phases.scan),
    account: round(phases.account),
    operations: round(phases.operations),
    parquet: round(phases.parquet),
  };
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
 * own failure is then a warning: the run's failure is the one to report. The run's stop ends it
 * after the partition in hand (its upload abandoned), and a bucket's listing anomaly ends it as the
 * run's failure: either way what is not written stays dirty for the next run.
 */
async function writeDatasets(
  deps: ExportDeps,
  options: ExportOptions,
  warn: (message: string) => void,
  afterFailure: boolean,
): Promise<{ partitions: number; focus: FocusWrite | undefined; failure?: S3ListingAnomaly }> {
  deps.progress.update({ phase: "writing parquet", counting: "partitions" });
  let written = 0;
  let focus: FocusWrite | undefined;
  try {
    for (const { dataset } of DATASETS) {
      await writeDirtyPartitions(deps.warehouse, {
        dataset,
        target: deps.target,
        partitioning: options.partitioning,
        runId: options.runId,
        onPartition: () => {
          written += 1;
          deps.progress.add({ partitions: 1 });
        },
        onWarning: warn,
        signal: deps.signal,
      });
    }
    if (options.focus && !deps.signal.aborted) {
      focus = await writeFocusDataset(deps.warehouse, deps.target, {
        runId: options.runId,
        now: deps.now(),
        onPartition: () => {
          written += 1;
          deps.progress.add({ partitions: 1 });
        },
        signal: deps.signal,
      });
    }
  } catch (error) {
    if (deps.signal.aborted) return { partitions: written, focus };
    if (error instanceof S3ListingAnomaly && !afterFailure)
      return { partitions: written, focus, failure: error };
    if (!afterFailure) throw error;
    warn(`the Parquet dataset was not written after the failure: ${(error as Error).message}`);
  }
  return { partitions: written, focus };
}

/**
 * --verify-out: every partition file of the datasets this run writes is checked, and each one that
 * is not whole Parquet is marked to be rewritten by this run's dataset writers, with a warning.
 */
async function verifyOut(
  deps: ExportDeps,
  options: ExportOptions,
  warn: (message: string, kind?: string) => void,
): Promise<{ objects: number; unreadable: UnreadableFile[] }> {
  deps.progress.update({ phase: "verifying --out", counting: "partitions" });
  const verified = await markUnreadablePartitions(deps.warehouse, deps.target, {
    dirty: DATASETS.map(({ dataset }) => dataset),
    partitioning: options.partitioning,
    focus: options.focus,
  });
  for (const file of verified.unreadable)
    warn(
      `${file.location} is not readable Parquet (${file.problem}); this run rewrites it`,
      "unreadable_partition",
    );
  deps.logger.info(
    `--verify-out: ${verified.objects} partition file(s) under ${deps.target.location} checked, ${verified.unreadable.length} unreadable`,
  );
  return verified;
}

/**
 * The billing classes of the calls the run stored or changed, and of every call when the invoices
 * changed, stored on the calls with the ledger's usage grains (callClasses.ts) before the datasets
 * read them; also after a failure that stopped the plan, for what was committed. Its own failure is
 * a warning: the calls are stored, the days stay marked, and the next run classifies them.
 */
async function storeClassesOrWarn(deps: ExportDeps, warn: (message: string) => void): Promise<void> {
  try {
    // Each batch's updates stay in DuckDB's memory until a checkpoint, and the blocks it read in its
    // cache: both let go after each, so a cold run's classification holds one batch, not the history.
    const checkpoint = new WalCheckpoint(deps.warehouse, warn);
    await storeCallClasses(deps.warehouse.connection, {
      afterBatch: async () => {
        await checkpoint.afterCommit(0, 1);
        await deps.warehouse.releaseCache();
      },
    });
  } catch (error) {
    warn(
      `the calls' billing classes were not stored (${(error as Error).message}); the reconciliation views show them as the last run left them, and the next run tries again`,
    );
  }
}

/** A run that failed before its summary was made: recorded failed, never left 'running'. */
async function recordUnexpected(deps: ExportDeps, runId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const failed: RunSummary = { ...newRunSummary(runId), status: "failed", message };
  try {
    await finishRun(deps.warehouse, failed, deps.now());
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
    // Looking the ids up reads every stored call's id: those blocks go before the close's checkpoint.
    await deps.warehouse.releaseCache();
    await finishRun(deps.warehouse, summary, deps.now());
  } catch (error) {
    if (!fatal) throw error;
    deps.logger.warn(`could not record the run in the runs table: ${(error as Error).message}`);
  }
}
