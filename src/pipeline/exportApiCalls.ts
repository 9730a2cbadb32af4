import { mkdir, rm } from "node:fs/promises";
import type { ZooClient } from "../api/client.js";
import { ZooUsageError } from "../errors.js";
import { readExportState } from "../extract/exportState.js";
import { fetchOperations } from "../extract/fetchOperations.js";
import { paginate } from "../extract/paginate.js";
import { chooseStartPoint, type ScanMode, type StartPoint } from "../extract/startPoint.js";
import {
  ApiCallLoader,
  type Batch,
  emptyBatch,
  serializeReject,
  serializeRow,
} from "../load/apiCallLoader.js";
import type { Warehouse } from "../load/database.js";
import { durationUnitWarning } from "../load/durationEvidence.js";
import { OperationLoader } from "../load/operationLoader.js";
import { markMissingPartitions, writeDirtyPartitions } from "../load/parquetExport.js";
import type { Partitioning } from "../load/partitioning.js";
import { finishRun, startRun } from "../load/runHistory.js";
import { sqlFile } from "../load/sqlFiles.js";
import { reconcileSettings } from "../load/storedSettings.js";
import type { Logger } from "../log/logger.js";
import type { SecretBox } from "../secrets/secretBox.js";
import { rawForRejects, type TransformContext, transformApiCall } from "../transform/apiCallRow.js";
import type { DurationUnit } from "../transform/durationUnit.js";
import { EndpointTemplater } from "../transform/endpointTemplate.js";
import type { PrivacyPolicy } from "../transform/privacy.js";
import type { Progress } from "./progress.js";
import type { RunStatus, RunSummary } from "./runSummary.js";

export interface ExportOptions {
  runId: string;
  limit: number;
  lookbackMs: number;
  fullRefresh: boolean;
  /** Records per transaction: a crash loses at most this many, re-read on the next run. */
  batchRecords: number;
  durationUnit: DurationUnit;
  partitioning: Partitioning;
  privacy: PrivacyPolicy;
  maxPriceUsd: number;
  outDir: string;
  spoolDir: string;
  /** Also fetch the async operations the exported calls started (--no-operations skips). */
  operations: boolean;
  operationsConcurrency: number;
}

/** The Parquet datasets, each partitioned by the UTC month or day of its time column. */
const DATASETS = [
  { dataset: "api_calls", table: "api_calls", timeColumn: "created_at" },
  { dataset: "async_operations", table: "async_operations", timeColumn: "call_created_at" },
] as const;

export interface ExportDeps {
  client: ZooClient;
  warehouse: Warehouse;
  secrets: SecretBox;
  logger: Logger;
  progress: Progress;
  now: () => Date;
  /** Aborted by SIGINT/SIGTERM: the current batch commits and the run stops. */
  signal: AbortSignal;
}

/** Errors after which the run keeps what it has committed and ends partial, to resume next time. */
const RESUMABLE_API_ERRORS = new Set([
  "api.retries_exhausted",
  "api.network",
  "api.server_error",
  "api.rate_limited",
]);

/**
 * The export of api calls: scan pages in ascending created_at order from the chosen start, validate
 * and transform each record, upsert batches with their checkpoint in one transaction, then rewrite
 * the Parquet partitions that changed.
 */
export async function exportApiCalls(deps: ExportDeps, options: ExportOptions): Promise<RunSummary> {
  const { warehouse, logger, progress, secrets } = deps;
  const startedAt = deps.now();
  const summary: RunSummary = {
    run_id: options.runId,
    status: "completed",
    scan_mode: "full",
    requests: 0,
    pages: 0,
    records_seen: 0,
    records_new: 0,
    records_updated: 0,
    records_rejected: 0,
    partitions_written: 0,
    retries: 0,
    seconds: 0,
    warnings: [],
  };
  const warn = (message: string) => {
    summary.warnings.push(message);
    logger.warn(message);
  };
  await mkdir(options.spoolDir, { recursive: true, mode: 0o700 });
  await startRun(warehouse, options.runId, startedAt);
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

  const loader = new ApiCallLoader(warehouse, options);
  const context: TransformContext = {
    templater: new EndpointTemplater(),
    secrets,
    privacy: options.privacy,
    maxPriceUsd: options.maxPriceUsd,
  };
  let knownUser = state.userId;
  let failure: unknown;
  try {
    progress.update({ phase: "fetching" });
    try {
      await scan(start);
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
      await scan(start);
    }
  } catch (error) {
    failure = error;
  }
  if (options.operations && failure === undefined && !deps.signal.aborted) {
    progress.update({ phase: "fetching operations" });
    try {
      const fetched = await fetchOperations(
        { ...deps, loader: new OperationLoader(warehouse, options) },
        { runId: options.runId, concurrency: options.operationsConcurrency },
      );
      summary.operations = fetched;
    } catch (error) {
      failure = error;
    }
  }
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
      });
    }
  }
  await rm(options.spoolDir, { recursive: true, force: true });
  const durationWarning = fatal ? undefined : await durationUnitWarning(warehouse, options.durationUnit);
  if (durationWarning !== undefined) warn(durationWarning);
  summary.status = statusOf(
    failure,
    deps.signal.aborted,
    summary.records_rejected + (summary.operations?.rejected ?? 0),
  );
  if (failure !== undefined) summary.message = failure instanceof Error ? failure.message : String(failure);
  summary.seconds = (deps.now().getTime() - startedAt.getTime()) / 1000;
  try {
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

  async function scan(from: StartPoint): Promise<void> {
    let batch = emptyBatch(null);
    let inFlight: Promise<void> | undefined;
    let lastCreatedAt = "";
    const commit = async (toCommit: Batch) => {
      const result = await loader.commit(toCommit);
      summary.records_new += result.inserted;
      summary.records_updated += result.updated;
    };
    const pages = paginate(
      (token) =>
        deps.client.listApiCalls({ limit: options.limit, pageToken: token, sortBy: "created_at_ascending" }),
      from.token,
      { onWarning: warn },
    );
    try {
      for await (const { page } of pages) {
        summary.pages += 1;
        let pageRecords = 0;
        let pageRejects = 0;
        for (const item of page.items) {
          summary.records_seen += 1;
          const result = transformApiCall(item, context);
          if (result.ok && knownUser !== null && result.row.user_id !== knownUser) {
            throw otherUserError(warehouse.path, knownUser, result.row.user_id);
          }
          if (!result.ok) {
            pageRejects += 1;
            summary.records_rejected += 1;
            batch.rejects.push(
              serializeReject({
                run_id: options.runId,
                rejected_at: deps.now().toISOString(),
                record_id: result.recordId,
                reason: result.reason,
                raw_json: rawForRejects(item, context),
              }),
            );
            continue;
          }
          if (knownUser === null) {
            knownUser = result.row.user_id;
            batch.userId = knownUser;
          }
          pageRecords += 1;
          if (
            result.row.created_at < lastCreatedAt &&
            Date.parse(result.row.created_at) < Date.parse(lastCreatedAt)
          ) {
            warn(
              `call ${result.row.id} is listed after a newer call (${result.row.created_at} < ${lastCreatedAt}); loaded anyway`,
            );
          } else {
            lastCreatedAt = result.row.created_at;
          }
          batch.rows.push(serializeRow(result.row));
          if (batch.maxCreatedAt === null || result.row.created_at > batch.maxCreatedAt)
            batch.maxCreatedAt = result.row.created_at;
        }
        const sealedNext = page.nextPage === null ? null : secrets.seal(page.nextPage);
        if (sealedNext !== null && lastCreatedAt !== "" && page.items.length > 0) {
          batch.rungs.push({ lastCreatedAt, sealedToken: sealedNext });
        }
        batch.resumeToken = sealedNext;
        batch.pages += 1;
        progress.add({ pages: 1, records: pageRecords, rejected: pageRejects });
        progress.update({ retries: deps.client.stats.retries });
        if (batch.rows.length + batch.rejects.length >= options.batchRecords || deps.signal.aborted) {
          await inFlight;
          inFlight = commit(batch);
          batch = emptyBatch(batch.resumeToken);
        }
        if (deps.signal.aborted) {
          warn("interrupted: the current batch is committed and the next run resumes from it");
          break;
        }
      }
    } finally {
      // Whatever ended the scan, what was read and checkpointed so far is committed.
      await inFlight;
      if (batch.pages > 0) await commit(batch);
    }
    if (!deps.signal.aborted) await finishScan(warehouse, deps.now(), options.lookbackMs);
  }
}

/** After a complete scan: the position is the end; thin the ladder. */
async function finishScan(warehouse: Warehouse, now: Date, lookbackMs: number): Promise<void> {
  await warehouse.connection.run(
    "UPDATE export_state SET resume_token = NULL, last_complete_scan = $now::TIMESTAMPTZ",
    {
      now: now.toISOString(),
    },
  );
  const state = await readExportState(warehouse);
  if (state.highWaterCreated === null) return;
  // Keep every rung from twice the lookback before the high-water mark: a run never starts earlier.
  const keepFrom = new Date(Date.parse(state.highWaterCreated) - 2 * lookbackMs).toISOString();
  await warehouse.connection.run(sqlFile("prune_ladder.sql"), { keep_from: keepFrom });
}

function otherUserError(dbPath: string, stored: string, seen: string): ZooUsageError {
  return new ZooUsageError({
    code: "warehouse.other_user",
    message: `The database ${dbPath} holds the calls of user ${stored}, but this token lists calls of user ${seen}`,
    hint: "Use one database per user: pass another --db for this token.",
  });
}

function isResumable(error: unknown): boolean {
  return error instanceof ZooUsageError && RESUMABLE_API_ERRORS.has(error.code);
}

function statusOf(failure: unknown, interrupted: boolean, rejected: number): RunStatus {
  if (interrupted) return "interrupted";
  if (failure !== undefined) return isResumable(failure) ? "partial" : "failed";
  return rejected > 0 ? "partial" : "completed";
}

export type { ScanMode };
