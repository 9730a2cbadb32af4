import { mkdir, rm } from "node:fs/promises";
import { ZooUsageError } from "../errors.js";
import { clampHighWater, readExportState } from "../extract/exportState.js";
import { chooseStartPoint, type ScanMode } from "../extract/startPoint.js";
import { ApiCallLoader } from "../load/apiCallLoader.js";
import { durationUnitWarning } from "../load/durationEvidence.js";
import { OperationLoader } from "../load/operationLoader.js";
import { recordOwnCalls } from "../load/ownCalls.js";
import { markMissingPartitions, writeDirtyPartitions } from "../load/parquetExport.js";
import { finishRun, startRun } from "../load/runHistory.js";
import { reconcileSettings } from "../load/storedSettings.js";
import type { TransformContext } from "../transform/apiCallRow.js";
import { EndpointTemplater } from "../transform/endpointTemplate.js";
import { fetchOperations } from "./fetchOperations.js";
import { CLOCK_TOLERANCE_MS, FutureCalls } from "./futureCalls.js";
import { rereadPending } from "./rereadPending.js";
import { newRunSummary, type RunStatus, type RunSummary } from "./runSummary.js";
import { ApiCallScanner, type ExportDeps, type ExportOptions } from "./scanApiCalls.js";
import { RunWarnings } from "./warnings.js";

export type { ExportDeps, ExportOptions } from "./scanApiCalls.js";

/** The Parquet datasets, each partitioned by the UTC month or day of its time column. */
const DATASETS = [
  { dataset: "api_calls", table: "api_calls", timeColumn: "created_at" },
  { dataset: "async_operations", table: "async_operations", timeColumn: "call_created_at" },
] as const;

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

/**
 * The export of api calls: scan pages in ascending created_at order from the chosen start, validate
 * and transform each record, upsert batches with their checkpoint in one transaction, then rewrite
 * the Parquet partitions that changed.
 */
export async function exportApiCalls(deps: ExportDeps, options: ExportOptions): Promise<RunSummary> {
  const { warehouse, logger, progress, secrets } = deps;
  const startedAt = deps.now();
  const summary = newRunSummary(options.runId);
  // Seconds since the previous call: each phase is measured from where the one before it ended.
  let phaseStart = startedAt.getTime();
  const lap = () => {
    const now = deps.now().getTime();
    const seconds = (now - phaseStart) / 1000;
    phaseStart = now;
    return seconds;
  };
  const warnings = new RunWarnings((line) => logger.warn(line));
  const warn = (message: string, kind?: string) => warnings.add(message, kind);
  await mkdir(options.spoolDir, { recursive: true, mode: 0o700 });
  await startRun(warehouse, options.runId, startedAt);
  const clampedFrom = await clampHighWater(warehouse, startedAt, CLOCK_TOLERANCE_MS);
  if (clampedFrom !== undefined)
    warn(
      `the stored high-water mark ${clampedFrom} was after this run's clock; it is now ${startedAt.toISOString()}, so the lookback window reads recent calls again`,
    );
  const state = await readExportState(warehouse);
  const settingsNote = await reconcileSettings(warehouse, options);
  if (settingsNote !== undefined) logger.info(settingsNote);
  let start = await chooseStartPoint(warehouse, state, {
    fullRefresh: options.fullRefresh,
    lookbackMs: options.lookbackMs,
    secrets,
  });
  if (start.mode === "full" && state.resumeToken !== null) warn(start.reason);
  logger.info(`scan: ${start.reason}`);
  for (const dataset of DATASETS) {
    const missing = await markMissingPartitions(warehouse, {
      ...dataset,
      outDir: options.outDir,
      partitioning: options.partitioning,
    });
    if (missing > 0)
      logger.info(
        `${missing} ${dataset.dataset} partition(s) missing from ${options.outDir}; they will be written`,
      );
  }

  const transform: TransformContext = {
    templater: new EndpointTemplater(),
    secrets,
    privacy: options.privacy,
    maxPriceUsd: options.maxPriceUsd,
  };
  const future = new FutureCalls(startedAt);
  const loader = new ApiCallLoader(warehouse, { ...options, transform, onWarning: warn, now: deps.now });
  const scanner = new ApiCallScanner(
    {
      deps,
      options,
      summary,
      loader,
      transform,
      future,
      warn,
    },
    state.userId,
  );
  let failure: unknown;
  summary.phase_seconds.prepare = lap();
  try {
    progress.update({ phase: "fetching" });
    try {
      await scanner.scan(start);
    } catch (error) {
      // A stored token the API no longer accepts: forget every stored position and scan everything.
      if (
        !(
          error instanceof ZooUsageError &&
          error.code === "api.invalid_page_token" &&
          start.token !== null &&
          summary.pages === 0
        )
      ) {
        throw error;
      }
      warn(
        "the API rejected the stored page token (400); falling back to a full scan, which ends correct but reads everything",
      );
      await warehouse.connection.run("DELETE FROM page_ladder");
      await warehouse.connection.run("UPDATE export_state SET resume_token = NULL");
      start = { mode: "full", token: null, reason: "stored page token rejected by the API" };
      await scanner.scan(start);
    }
    // A full scan has just read every call; otherwise the calls before the scan's start are not
    // read again by it, and those still pending billing are re-read one by one.
    const rereads = options.maxPendingRereads > 0 && start.mode !== "full";
    if (rereads && state.highWaterCreated !== null && !deps.signal.aborted) {
      const windowStart = new Date(Date.parse(state.highWaterCreated) - options.lookbackMs).toISOString();
      await rereadPending(
        deps,
        loader,
        transform,
        {
          runId: options.runId,
          windowStart,
          scannedFrom: scanner.firstCreatedAt ?? null,
          highWater: (await readExportState(warehouse)).highWaterCreated ?? state.highWaterCreated,
          max: options.maxPendingRereads,
          concurrency: options.operationsConcurrency,
        },
        { summary, warn },
      );
    }
  } catch (error) {
    failure = error;
  }
  const futureWarning = future.warning();
  if (futureWarning !== undefined) warn(futureWarning);
  summary.phase_seconds.scan = lap();
  if (options.operations && failure === undefined && !deps.signal.aborted) {
    progress.update({ phase: "fetching operations" });
    try {
      const fetched = await fetchOperations(
        { ...deps, loader: new OperationLoader(warehouse, { ...options, now: deps.now }) },
        {
          runId: options.runId,
          concurrency: options.operationsConcurrency,
          // From the run's clock, as FutureCalls measures: a call dated in the future cannot move it.
          windowStart:
            options.operationsWindowMs === null
              ? null
              : new Date(startedAt.getTime() - options.operationsWindowMs).toISOString(),
        },
      );
      summary.operations = fetched;
    } catch (error) {
      failure = error;
    }
  }
  summary.phase_seconds.operations = lap();
  summary.scan_mode = start.mode;
  summary.requests = deps.client.stats.requests;
  summary.retries = deps.client.stats.retries;

  const fatal = failure !== undefined && !isResumable(failure);
  if (!fatal && !deps.signal.aborted) {
    progress.update({ phase: "writing parquet" });
    for (const { dataset } of DATASETS) {
      summary.partitions_written += await writeDirtyPartitions(warehouse, {
        dataset,
        outDir: options.outDir,
        partitioning: options.partitioning,
        runId: options.runId,
        onPartition: () => progress.add({ partitions: 1 }),
        onWarning: warn,
      });
    }
  }
  summary.phase_seconds.parquet = lap();
  await rm(options.spoolDir, { recursive: true, force: true });
  const durationWarning = fatal ? undefined : await durationUnitWarning(warehouse, options.durationUnit);
  if (durationWarning !== undefined) warn(durationWarning);
  summary.status = statusOf(
    failure,
    deps.signal.aborted,
    summary.records_rejected + (summary.operations?.rejected ?? 0),
  );
  if (failure !== undefined) summary.message = failure instanceof Error ? failure.message : String(failure);
  summary.warnings = warnings.lines();
  summary.seconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
  try {
    // Even a failed run's requests are listed as calls next time: their ids are kept too.
    await recordOwnCalls(warehouse, options.runId, deps.client.takeReceivedCallIds());
    await finishRun(warehouse, summary, deps.now());
  } catch (error) {
    // Recording the run must not hide why it failed (a full disk fails both).
    if (!fatal) throw error;
    logger.warn(`could not record the run in the runs table: ${(error as Error).message}`);
  }
  progress.update({ phase: summary.status });
  progress.done();
  if (fatal) throw failure;
  return summary;
}

function isResumable(error: unknown): boolean {
  return error instanceof ZooUsageError && RESUMABLE_API_ERRORS.has(error.code);
}

/** The status a run ends with; the exit code follows from it (exitCodeOf in commands/export.ts). */
export function statusOf(failure: unknown, interrupted: boolean, rejected: number): RunStatus {
  if (interrupted) return "interrupted";
  if (failure !== undefined) return isResumable(failure) ? "partial" : "failed";
  return rejected > 0 ? "partial" : "completed";
}

export type { ScanMode };
