import type { ZooClient } from "../api/client.js";
import { ZooUsageError } from "../errors.js";
import { readExportState } from "../extract/exportState.js";
import { paginate } from "../extract/paginate.js";
import type { StartPoint } from "../extract/startPoint.js";
import {
  type ApiCallLoader,
  type Batch,
  emptyBatch,
  serializeReject,
  serializeRow,
} from "../load/apiCallLoader.js";
import type { Warehouse } from "../load/database.js";
import type { Partitioning } from "../load/partitioning.js";
import { sqlFile } from "../load/sqlFiles.js";
import type { Logger } from "../log/logger.js";
import type { SecretBox } from "../secrets/secretBox.js";
import { rawForRejects, type TransformContext, transformApiCall } from "../transform/apiCallRow.js";
import type { DurationUnit } from "../transform/durationUnit.js";
import type { PrivacyPolicy } from "../transform/privacy.js";
import type { Progress } from "./progress.js";
import type { RunSummary } from "./runSummary.js";

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
  warn: (message: string) => void;
}

/**
 * One scan of GET /user/api-calls from a start point to the end: every page is transformed into
 * rows and rejects, batched, and committed with its checkpoint (one commit in flight while the
 * next pages are fetched). Counts go to the run's summary.
 */
export class ApiCallScanner {
  constructor(
    private readonly context: ScanContext,
    /** The user whose history the database holds (null before the first record ever). */
    private knownUser: string | null,
  ) {}

  async scan(from: StartPoint): Promise<void> {
    const { deps, options, summary, loader, transform: context, warn } = this.context;
    const { warehouse, secrets, progress } = deps;
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
          if (result.ok && this.knownUser !== null && result.row.user_id !== this.knownUser) {
            throw otherUserError(warehouse.path, this.knownUser, result.row.user_id);
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
          if (this.knownUser === null) {
            this.knownUser = result.row.user_id;
            batch.userId = this.knownUser;
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
