import type { ZooClient } from "../api/client.js";
import { ZooUsageError } from "../errors.js";
import { readExportState } from "../extract/exportState.js";
import { paginate } from "../extract/paginate.js";
import { PaginationAnomaly } from "../extract/paginationAnomaly.js";
import type { StartPoint } from "../extract/startPoint.js";
import {
  type ApiCallLoader,
  type Batch,
  noteRecord,
  serializeReject,
  serializeRow,
} from "../load/apiCallLoader.js";
import type { Warehouse } from "../load/database.js";
import { writeDirtyPartitions } from "../load/parquetExport.js";
import { type Partitioning, partitionOf } from "../load/partitioning.js";
import { sqlFile } from "../load/sqlFiles.js";
import type { Logger } from "../log/logger.js";
import type { SecretBox } from "../secrets/secretBox.js";
import { isEarlier, rawForRejects, type TransformContext, toMicros, toRow } from "../transform/apiCallRow.js";
import { isBulkLoadable } from "../transform/bulkLoadable.js";
import type { DurationUnit } from "../transform/durationUnit.js";
import type { PrivacyPolicy } from "../transform/privacy.js";
import { checkPage } from "./checkPage.js";
import { CursorGuard } from "./cursorGuard.js";
import type { FutureCalls } from "./futureCalls.js";
import type { Progress } from "./progress.js";
import type { RunSummary } from "./runSummary.js";

/**
 * The smallest batch committed early (while the previous commit is done before the batch is full).
 * A commit has a fixed cost of ~20 ms of CPU: committing every page at 50 ms latency cost 1.35x the
 * CPU of 10k-record commits (14.6 s vs 10.9 s for 200k calls).
 */
const EAGER_COMMIT_RECORDS = 10_000;

/**
 * The most pages one scan reads, whatever the API does: a scan of 100 million calls fits at any
 * page size (the API serves 1 to 10,000 items a page), plus room for short pages.
 */
export function defaultMaxPages(limit: number): number {
  return 10_000 + Math.ceil(100_000_000 / limit);
}

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
  /**
   * Operations never stored are fetched for calls created this long before the run's clock (stored
   * ones not yet final whatever their age); null: the whole history (`--operations all`).
   */
  operationsWindowMs: number | null;
  /** Stored calls pending billing from before the lookback window re-read per run (0: none). */
  maxPendingRereads: number;
  /** Pages one scan reads at most (default: defaultMaxPages of the limit). */
  maxPages?: number | undefined;
}

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

/** What a scan needs from the run around it. */
export interface ScanContext {
  deps: ExportDeps;
  options: ExportOptions;
  summary: RunSummary;
  loader: ApiCallLoader;
  transform: TransformContext;
  /** Calls dated after the run's clock: the checkpoint notes them as created now. */
  future: FutureCalls;
  /** `kind` groups repeats of one warning (RunWarnings). */
  warn: (message: string, kind?: string) => void;
}

/**
 * One scan of GET /user/api-calls from a start point to the end: every page is transformed into
 * rows and rejects, batched, and committed with its checkpoint (one commit in flight while the
 * next pages are fetched). Counts go to the run's summary.
 */
export class ApiCallScanner {
  /**
   * created_at of the first call the latest scan read. A keyset scan lists every call after its
   * start, so the calls from this one on were read; only those before it (or tied with it) were not.
   */
  firstCreatedAt: string | undefined;

  constructor(
    private readonly context: ScanContext,
    /** The user whose history the database holds (null before the first record ever). */
    private knownUser: string | null,
  ) {}

  async scan(from: StartPoint): Promise<void> {
    const { deps, options, summary, loader, transform: context, future, warn } = this.context;
    const { warehouse, secrets, progress } = deps;
    let batch = loader.newBatch(null);
    this.firstCreatedAt = undefined;
    let inFlight: Promise<void> | undefined;
    let idle = true;
    let lastCreatedAt = "";
    const cursor = new CursorGuard();
    /** Pages of this scan whose records went into a batch. */
    let pagesTaken = 0;
    let anomaly: PaginationAnomaly | undefined;
    const commit = async (toCommit: Batch) => {
      const result = await loader.commit(toCommit);
      summary.records_new += result.inserted;
      summary.records_updated += result.updated;
      summary.records_rejected += result.refusedByDuckDb;
      progress.add({ rejected: result.refusedByDuckDb });
    };
    // The scan goes forward in created_at: the partitions before the last committed call's are
    // complete for this run, so they are written while the scan goes on rather than after it. A
    // call listed late dirties its partition again, and the end of the run rewrites it.
    const writePassedPartitions = async (committedUpTo: string | null) => {
      if (committedUpTo === null) return;
      summary.partitions_written += await writeDirtyPartitions(warehouse, {
        dataset: "api_calls",
        outDir: options.outDir,
        partitioning: options.partitioning,
        runId: options.runId,
        before: partitionOf(options.partitioning, committedUpTo),
        onPartition: () => progress.add({ partitions: 1 }),
        onWarning: warn,
      });
    };
    const startCommit = (toCommit: Batch) => {
      idle = false;
      inFlight = commit(toCommit)
        .then(() => writePassedPartitions(toCommit.maxCreatedAt))
        .finally(() => {
          idle = true;
        });
      // Its failure is thrown by the next `await inFlight`. Until then it needs a handler: a commit
      // that failed while the scan awaited a page crashed the process as an unhandled rejection.
      inFlight.catch(() => undefined);
    };
    const pages = paginate(
      (token, onNextPageSeen, signal) =>
        deps.client.listApiCalls({
          limit: options.limit,
          pageToken: token,
          sortBy: "created_at_ascending",
          onNextPageSeen,
          signal,
        }),
      from.token,
      { maxPages: options.maxPages ?? defaultMaxPages(options.limit) },
    );
    try {
      for await (const { page, requestToken } of pages) {
        summary.pages += 1;
        let pageRecords = 0;
        let pageRejects = 0;
        const checked = await checkPage(page.items, context);
        const calls = checked.flatMap((result) => (result.ok ? [result.call] : []));
        const cursorProblem = cursor.check(calls);
        // The page is not taken: the next run reads it again from the token that fetched it.
        if (cursorProblem !== undefined) throw new PaginationAnomaly(cursorProblem, requestToken);
        cursor.accept(calls);
        pagesTaken += 1;
        // A page whose records DuckDB reads raw to the same rows goes to the items spool as the
        // server sent it; any other page (a reject, an unknown field...) through the row path.
        const bulk =
          page.itemsJson !== undefined &&
          checked.every((result) => result.ok && isBulkLoadable(result.call, result.source));
        const pageRows: string[] = [];
        for (const [index, result] of checked.entries()) {
          summary.records_seen += 1;
          if (!result.ok) {
            pageRejects += 1;
            summary.records_rejected += 1;
            batch.rejects.push(
              serializeReject({
                run_id: options.runId,
                rejected_at: deps.now().toISOString(),
                record_id: result.recordId,
                reason: result.reason,
                raw_json: rawForRejects(page.items[index], context),
              }),
            );
            continue;
          }
          const { call } = result;
          if (this.knownUser !== null && call.user_id !== this.knownUser) {
            throw otherUserError(warehouse.path, this.knownUser, call.user_id);
          }
          if (this.knownUser === null) {
            this.knownUser = call.user_id;
            batch.userId = this.knownUser;
          }
          pageRecords += 1;
          const createdAt = toMicros(call.created_at);
          this.firstCreatedAt ??= createdAt;
          if (lastCreatedAt !== "" && isEarlier(createdAt, lastCreatedAt)) {
            warn(
              `call ${call.id} is listed after a newer call (${createdAt} < ${lastCreatedAt}); loaded anyway`,
              "listed after a newer call",
            );
          } else {
            lastCreatedAt = createdAt;
          }
          noteRecord(batch, future.checkpointTime(call.id, createdAt));
          if (bulk) batch.derived.add(call);
          else pageRows.push(serializeRow(toRow(call, result.source, context)));
        }
        if (bulk && page.itemsJson !== undefined) batch.items.append(page.itemsJson, pageRecords);
        else batch.rows.append(pageRows);
        const sealedNext = page.nextPage === null ? null : secrets.seal(page.nextPage);
        if (sealedNext !== null && lastCreatedAt !== "" && page.items.length > 0) {
          batch.rungs.push({ lastCreatedAt, sealedToken: sealedNext });
        }
        batch.resumeToken = sealedNext;
        batch.pages += 1;
        progress.add({ pages: 1, records: pageRecords, rejected: pageRejects });
        progress.update({ retries: deps.client.stats.retries });
        const size = batch.rows.count + batch.items.count + batch.rejects.length;
        if (shouldCommit({ size, batchRecords: options.batchRecords, idle, aborted: deps.signal.aborted })) {
          await inFlight;
          startCommit(batch);
          batch = loader.newBatch(batch.resumeToken);
        }
        if (deps.signal.aborted) {
          warn("interrupted: the current batch is committed and the next run resumes from it");
          break;
        }
      }
    } catch (error) {
      if (!(error instanceof PaginationAnomaly)) throw error;
      anomaly = error;
    } finally {
      // Whatever ended the scan, what was read and checkpointed so far is committed.
      await inFlight;
      // After an anomaly the checkpoint is where the good pages end, even in an otherwise empty batch.
      if (anomaly !== undefined && pagesTaken > 0)
        batch.resumeToken = anomaly.resumeFrom === null ? null : secrets.seal(anomaly.resumeFrom);
      if (batch.pages > 0 || (anomaly !== undefined && pagesTaken > 0)) await commit(batch);
    }
    // An anomalous scan is never marked complete.
    if (anomaly !== undefined) throw anomaly;
    if (!deps.signal.aborted) await finishScan(warehouse, deps.now(), options.lookbackMs);
  }
}

/**
 * Whether the scan commits its batch after a page: when the batch is full, when the run is stopping,
 * or as soon as the previous commit is done (idle) and the batch is worth a transaction. DuckDB then
 * works while the next pages arrive, and what is left to commit after the last page stays small.
 */
export function shouldCommit(batch: {
  size: number;
  batchRecords: number;
  idle: boolean;
  aborted: boolean;
}): boolean {
  if (batch.size >= batch.batchRecords || batch.aborted) return true;
  return batch.idle && batch.size >= Math.min(EAGER_COMMIT_RECORDS, batch.batchRecords);
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
