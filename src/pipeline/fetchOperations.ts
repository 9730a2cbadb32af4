import type { ZooClient } from "../api/client.js";
import {
  type ConcurrencyTrace,
  fetchOperationBodies,
  type OperationAnswer,
} from "../extract/fetchOperationBodies.js";
import type { RejectRow } from "../load/apiCallLoader.js";
import type { Warehouse } from "../load/database.js";
import { countOperationsOutsideWindow, OperationCandidates } from "../load/operationCandidates.js";
import type { OperationLoader } from "../load/operationLoader.js";
import { rawOperationJson } from "../transform/operationRawJson.js";
import {
  notFoundOperation,
  type OperationRow,
  rejectedOperation,
  transformOperation,
} from "../transform/operationRow.js";
import type { Progress } from "./progress.js";

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
  notFound: number;
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
 * file) that larger ones spread; an interrupted or crashed run fetches at most this many again.
 */
const COMMIT_ROWS = 5000;

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

/** One operation's outcome: its row, and a reject when it was refused. */
interface Stored {
  row: OperationRow;
  reject: RejectRow | undefined;
}

/**
 * The operations phase: fetches GET /async/operations/{id} for the exported calls that started one
 * and whose operation is not yet stored in a final state (never stored ones only for calls inside
 * the window), committing as it goes. Four pieces: which operations (OperationCandidates), the
 * fetch (fetchOperationBodies), each answer's row (toStored), and the commit (OperationLoader). A
 * 404 is recorded as not found (and never asked again); a body that fails validation goes to
 * `rejects`. If the API keeps failing, what was fetched is committed before the error propagates.
 */
export async function fetchOperations(
  deps: OperationFetchDeps,
  options: OperationFetchOptions,
): Promise<OperationFetchResult> {
  const counts = { fetched: 0, changed: 0, notFound: 0, rejected: 0 };
  const candidates = new OperationCandidates(deps.warehouse, {
    windowStart: options.windowStart,
    chunkSize: options.chunkSize ?? 1000,
  });
  const concurrency = await fetchOperationBodies<Stored>(deps.client, {
    nextIds: () => candidates.next(),
    each: (answer) => {
      const stored = toStored(options.runId, answer);
      counts.fetched += 1;
      if (stored.row.fetch_status === "not_found") counts.notFound += 1;
      if (stored.reject !== undefined) counts.rejected += 1;
      return stored;
    },
    commit: async (batch) => {
      const committed = await commitBatch(deps, batch);
      counts.changed += committed.changed;
      counts.rejected += committed.refusedByDuckDb;
    },
    concurrency: options.concurrency,
    commitSize: options.commitRows ?? COMMIT_ROWS,
    signal: deps.signal,
    now: deps.now,
  });
  const skipped =
    options.windowStart === null
      ? 0
      : await countOperationsOutsideWindow(deps.warehouse, options.windowStart);
  return {
    ...counts,
    window_start: options.windowStart,
    skipped_outside_window: skipped,
    concurrency,
  };
}

/** The row an answer is stored as, and its reject when the body cannot be. */
function toStored(runId: string, answer: OperationAnswer): Stored {
  switch (answer.kind) {
    case "found": {
      const { id, body, fetchedAt } = answer;
      const transformed = transformOperation(id, body, fetchedAt, answer.outputSizes);
      if (transformed.ok) return { row: transformed.row, reject: undefined };
      return rejected(runId, id, fetchedAt, transformed.reason, rawOperationJson(body));
    }
    case "not_found":
      return { row: notFoundOperation(answer.id, answer.fetchedAt), reject: undefined };
    case "too_large":
      // The same body is as large next time: recorded as rejected, so later runs move on.
      return rejected(runId, answer.id, answer.fetchedAt, answer.reason, "null");
  }
}

/** An operation recorded as rejected (never asked again), and its reject with the reason. */
function rejected(runId: string, id: string, fetchedAt: string, reason: string, rawJson: string): Stored {
  return {
    row: rejectedOperation(id, fetchedAt),
    reject: {
      run_id: runId,
      rejected_at: fetchedAt,
      record_id: id,
      reason: `async operation: ${reason}`,
      raw_json: rawJson,
    },
  };
}

/** Commits a batch's rows and rejects in one transaction, and counts it in the progress line. */
async function commitBatch(deps: OperationFetchDeps, batch: readonly Stored[]) {
  const rejects = batch.flatMap(({ reject }) => (reject === undefined ? [] : [reject]));
  const committed = await deps.loader.commit(
    batch.map(({ row }) => row),
    rejects,
  );
  deps.progress.add({
    operations: batch.length,
    rejected: rejects.length + committed.refusedByDuckDb,
  });
  return committed;
}
