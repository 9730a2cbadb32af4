import { rm } from "node:fs/promises";
import { ZooUsageError } from "../errors.js";
import { type Checkpoint, forgetPositions, readCheckpoint } from "../load/checkpoint.js";
import { durationUnitWarning } from "../load/durationEvidence.js";
import { OperationLoader } from "../load/operationLoader.js";
import { recordOwnCalls } from "../load/ownCalls.js";
import { writeDirtyPartitions } from "../load/parquetExport.js";
import { finishRun } from "../load/runHistory.js";
import { isoTime } from "../log/isoTime.js";
import { exportInvoices } from "./exportInvoices.js";
import type { ExportDeps, ExportOptions } from "./exportSettings.js";
import { fetchOperations } from "./fetchOperations.js";
import { DATASETS, prepareRun, scanContext } from "./prepareRun.js";
import { refreshSpenders } from "./refreshSpenders.js";
import { type RereadResult, rereadPending } from "./rereadPending.js";
import { isResumable, statusOf } from "./runStatus.js";
import { newRunSummary, type RunSummary } from "./runSummary.js";
import { type ScanContext, type ScanResult, scanApiCalls } from "./scanApiCalls.js";
import { claimRunScope } from "./scopeOwner.js";
import { snapshotBalance } from "./snapshotBalance.js";
import type { StartPoint } from "./startPoint.js";
import { RunWarnings } from "./warnings.js";

export type { ExportDeps, ExportOptions } from "./exportSettings.js";

/**
 * The export of api calls: scan pages in ascending created_at order from the chosen start, validate
 * and transform each record, upsert batches with their checkpoint in one transaction, re-read the
 * older calls still pending billing, run the account steps (spenders, invoices, balance), fetch
 * the async operations, then rewrite the Parquet partitions that changed. Each step returns what
 * it did; the summary is made from those at the end.
 */
export async function exportApiCalls(deps: ExportDeps, options: ExportOptions): Promise<RunSummary> {
  const { logger, progress } = deps;
  const startedAt = deps.now();
  const lap = phaseClock(deps.now, startedAt);
  const warnings = new RunWarnings((line) => logger.warn(line));
  const warn = (message: string, kind?: string) => warnings.add(message, kind);
  const owner = await claimRunScope(deps, options);
  const { checkpoint, start } = await prepareRun(deps, options, startedAt, warn);
  const context = scanContext(deps, options, startedAt, warn, owner);
  const prepare = lap();
  progress.update({ phase: "fetching", counting: "records" });
  const scan = await scanWithFallback(context, start, checkpoint, warn);
  const rereads = await rereadAfterScan(context, scan, checkpoint);
  const futureWarning = context.future.warning();
  if (futureWarning !== undefined) warn(futureWarning);
  const scanSeconds = lap();
  let failure = scan.failure ?? rereads?.failure;
  // The account steps run after a scan that succeeded, each unless the run was stopped meanwhile
  // (after a failure or a stop the run ends partial or failed on that; the next run does them).
  const accountStepDue = () => failure === undefined && !deps.signal.aborted;
  const spenders = accountStepDue() ? await refreshSpenders(deps, options, warn) : undefined;
  const invoices = accountStepDue() ? await exportInvoices(deps, options, warn) : undefined;
  const balance = accountStepDue() ? await snapshotBalance(deps, options, warn) : undefined;
  const accountSeconds = lap();
  const operations = await fetchOperationsAfterScan(deps, options, startedAt, failure, warn);
  failure ??= operations?.failure ?? balance?.failure ?? spenders?.failure;
  const operationsSeconds = lap();
  const fatal = failure !== undefined && !isResumable(failure);
  const partitionsAtEnd = fatal || deps.signal.aborted ? 0 : await writeDatasets(deps, options, warn);
  const parquetSeconds = lap();
  await rm(options.spoolDir, { recursive: true, force: true });
  const durationWarning = fatal ? undefined : await durationUnitWarning(deps.warehouse, options.durationUnit);
  if (durationWarning !== undefined) warn(durationWarning);
  const { counts } = scan;
  const summary: RunSummary = {
    ...newRunSummary(options.runId),
    scan_mode: scan.start.mode,
    requests: deps.client.stats.requests,
    retries: deps.client.stats.retries,
    pages: counts.pages,
    records_seen: counts.seen,
    records_new: counts.inserted,
    records_updated: counts.updated + (rereads?.updated ?? 0),
    records_rejected: counts.rejected + (rereads?.rejected ?? 0),
    partitions_written: scan.partitionsWritten + partitionsAtEnd,
    phase_seconds: {
      prepare,
      scan: scanSeconds,
      account: accountSeconds,
      operations: operationsSeconds,
      parquet: parquetSeconds,
    },
    ...(scan.foreignOrgCalls === 0 ? {} : { foreign_org_calls: scan.foreignOrgCalls }),
    ...(operations?.fetched === undefined ? {} : { operations: operations.fetched }),
    ...(rereads?.rereads === undefined ? {} : { pending_rereads: rereads.rereads }),
    ...(spenders === undefined ? {} : { spenders: spenders.fetched }),
    ...(invoices === undefined ? {} : { invoices }),
    ...(balance === undefined ? {} : { balance: balance.balance }),
  };
  summary.status = statusOf(
    failure,
    deps.signal.aborted,
    summary.records_rejected +
      (summary.operations?.rejected ?? 0) +
      (summary.spenders?.rejected ?? 0) +
      (balance?.balance.rejected ?? 0) +
      (invoices === undefined ? 0 : invoices.rejected + (invoices.status === "failed" ? 1 : 0)),
  );
  if (failure !== undefined) summary.message = failure instanceof Error ? failure.message : String(failure);
  summary.warnings = warnings.lines();
  summary.seconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
  await recordRun(deps, summary, fatal);
  progress.update({ phase: summary.status });
  progress.done();
  if (fatal) {
    deps.onFailedRun?.(summary);
    throw failure;
  }
  return summary;
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
 * The scan from its start point. A stored token the API no longer accepts (before any page was
 * read): every stored position is forgotten and the scan starts again from the beginning.
 */
async function scanWithFallback(
  context: ScanContext,
  start: StartPoint,
  checkpoint: Checkpoint,
  warn: (message: string) => void,
): Promise<ScanResult & { start: StartPoint }> {
  const first = await scanApiCalls(context, start, checkpoint.userId);
  const { failure } = first;
  const rejectedToken =
    failure instanceof ZooUsageError &&
    failure.code === "api.invalid_page_token" &&
    start.token !== null &&
    first.counts.pages === 0;
  if (!rejectedToken) return { ...first, start };
  warn(
    "the API rejected the stored page token (400); falling back to a full scan, which ends correct but reads everything",
  );
  try {
    await forgetPositions(context.deps.warehouse);
  } catch (error) {
    return { ...first, failure: error, start };
  }
  const full: StartPoint = { mode: "full", token: null, reason: "stored page token rejected by the API" };
  const second = await scanApiCalls(context, full, checkpoint.userId);
  return {
    ...second,
    partitionsWritten: first.partitionsWritten + second.partitionsWritten,
    foreignOrgCalls: first.foreignOrgCalls + second.foreignOrgCalls,
    start: full,
  };
}

/**
 * The re-reads of the calls pending billing that the scan did not reach: after a scan that ended
 * without failure, was not a full scan (which has just read every call), and had a stored position.
 */
async function rereadAfterScan(
  context: ScanContext,
  scan: ScanResult & { start: StartPoint },
  checkpoint: Checkpoint,
): Promise<Partial<RereadResult> | undefined> {
  const { deps, options } = context;
  const rereads = options.maxPendingRereads > 0 && scan.start.mode !== "full";
  const stored = checkpoint.highWaterCreated;
  if (!rereads || scan.failure !== undefined || stored === null || deps.signal.aborted) return undefined;
  const windowStart = new Date(Date.parse(stored) - options.lookbackMs).toISOString();
  try {
    const highWater = (await readCheckpoint(deps.warehouse)).highWaterCreated ?? stored;
    return await rereadPending(
      deps,
      context.loader,
      context.transform,
      {
        runId: options.runId,
        windowStart,
        scannedFrom: scan.firstCreatedAt ?? null,
        highWater,
        max: options.maxPendingRereads,
        concurrency: options.operationsConcurrency,
        scope: options.scope,
      },
      context.warn,
    );
  } catch (error) {
    return { failure: error };
  }
}

/** The async operations of the exported calls, unless turned off or the scan failed or stopped. */
async function fetchOperationsAfterScan(
  deps: ExportDeps,
  options: ExportOptions,
  startedAt: Date,
  failure: unknown,
  warn: (message: string) => void,
): Promise<{ fetched?: NonNullable<RunSummary["operations"]>; failure?: unknown } | undefined> {
  if (!options.operations || failure !== undefined || deps.signal.aborted) return undefined;
  deps.progress.update({ phase: "fetching operations", counting: "operations" });
  try {
    const fetched = await fetchOperations(
      {
        ...deps,
        loader: new OperationLoader(deps.warehouse, { ...options, now: deps.now, onWarning: warn }),
      },
      {
        runId: options.runId,
        concurrency: options.operationsConcurrency,
        // From the run's clock, as FutureCalls measures: a call dated in the future cannot move it.
        windowStart:
          options.operationsWindowMs === null
            ? null
            : isoTime(new Date(startedAt.getTime() - options.operationsWindowMs)),
      },
    );
    return { fetched };
  } catch (error) {
    return { failure: error };
  }
}

/** Rewrites every partition still dirty, of every dataset; returns how many. */
async function writeDatasets(
  deps: ExportDeps,
  options: ExportOptions,
  warn: (message: string) => void,
): Promise<number> {
  deps.progress.update({ phase: "writing parquet", counting: "partitions" });
  let written = 0;
  for (const { dataset } of DATASETS) {
    written += await writeDirtyPartitions(deps.warehouse, {
      dataset,
      outDir: options.outDir,
      partitioning: options.partitioning,
      runId: options.runId,
      onPartition: () => deps.progress.add({ partitions: 1 }),
      onWarning: warn,
    });
  }
  return written;
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
