import type { ZooClient } from "../../api/client.js";
import type { ConcurrencyTrace } from "../../extract/fetchOperationBodies.js";
import type { Warehouse } from "../../load/database.js";
import { countOperationCandidates, countOperationsOutsideWindow } from "../../load/operationCandidates.js";
import type { OperationLoader } from "../../load/operationLoader.js";
import type { Progress } from "../../log/progress.js";
import { runSource } from "../runSource.js";
import { OperationsSource } from "./operationsSource.js";

export interface OperationFetchDeps {
  client: ZooClient;
  warehouse: Warehouse;
  loader: OperationLoader;
  progress: Progress;
  signal: AbortSignal;
  now: () => Date;
}

export interface OperationFetchResult {
  /** Operations asked for and answered (found or not found). */
  fetched: number;
  changed: number;
  not_found: number;
  rejected: number;
  /** Calls created from then on had their operations fetched; null with `--operations all`. */
  window_start: string | null;
  /** Calls created before the window whose operation was never fetched (`--operations all` would). */
  skipped_outside_window: number;
  /** Requests in flight allowed at the start, at most and at the end (AdaptiveConcurrency). */
  concurrency: ConcurrencyTrace;
}

/**
 * Operations per commit, at least. A commit has a fixed cost (a transaction, temp tables, the spool
 * file, a checkpoint) that larger ones spread, but the batch waiting for it is held as objects, as
 * JSON and in DuckDB's staging table at once, which sets the phase's peak memory; an interrupted or
 * crashed run fetches at most this many again.
 */
const COMMIT_ROWS = 2000;

/**
 * Candidate ids read per query. Each read scans the window's calls and the stored operations
 * whatever its size, so larger reads are fewer scans; the ids a read holds are a few hundred KB.
 */
const CANDIDATES_PER_READ = 5000;

export interface OperationFetchOptions {
  runId: string;
  concurrency: number;
  /**
   * Operations never stored are fetched for calls created at or after this instant (ISO), measured
   * by the caller from the run's clock; null fetches them for the whole history.
   */
  windowStart: string | null;
  chunkSize?: number;
  /** Rows per commit; an interrupted run fetches at most these again. */
  commitRows?: number;
}

/**
 * The operations phase: fetches GET /async/operations/{id} for the exported calls that started one
 * and whose operation is not yet stored in a final state (never stored ones only for calls inside
 * the window), as the operations source run by runSource: committed in batches as answers arrive.
 * A 404 is recorded as not found (and never asked again); a body that fails validation goes to
 * `rejects`. If the API keeps failing, what was fetched is committed before the error propagates.
 */
export async function fetchOperations(
  deps: OperationFetchDeps,
  options: OperationFetchOptions,
): Promise<OperationFetchResult> {
  deps.progress.update({ total: await countOperationCandidates(deps.warehouse, options.windowStart) });
  const source = new OperationsSource({
    ...deps,
    runId: options.runId,
    concurrency: options.concurrency,
    windowStart: options.windowStart,
    chunkSize: options.chunkSize ?? CANDIDATES_PER_READ,
  });
  const run = await runSource(source, {
    batchRecords: options.commitRows ?? COMMIT_ROWS,
    signal: deps.signal,
    // Answers as they are taken, so the rate is current; rows refused at load time after commits.
    onPage: ({ records, rejected }) => deps.progress.add({ operations: records + rejected, rejected }),
    afterCommit: async (_batch, committed) => {
      if (committed.refused > 0) deps.progress.add({ rejected: committed.refused });
    },
  });
  if (run.ended === "failed") throw run.failure;
  const skipped =
    options.windowStart === null
      ? 0
      : await countOperationsOutsideWindow(deps.warehouse, options.windowStart);
  return {
    fetched: run.counts.seen,
    changed: run.counts.inserted + run.counts.updated,
    not_found: source.notFound,
    rejected: run.counts.rejected,
    window_start: options.windowStart,
    skipped_outside_window: skipped,
    concurrency: source.concurrency(),
  };
}
