import type { ZooClient } from "../api/client.js";
import { ZooUsageError } from "../errors.js";
import type { RejectRow } from "../load/apiCallLoader.js";
import type { Warehouse } from "../load/database.js";
import type { OperationLoader } from "../load/operationLoader.js";
import { fillSql, sqlFile, sqlListLiteral } from "../load/sqlFiles.js";
import type { Progress } from "../pipeline/progress.js";
import {
  notFoundOperation,
  OPERATION_STARTING_TEMPLATES,
  type OperationRow,
  rejectedOperation,
  transformOperation,
} from "../transform/operationRow.js";
import { AdaptiveConcurrency } from "./adaptiveConcurrency.js";
import { pipelinedFetch } from "./pipelinedFetch.js";

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
  concurrency: { start: number; peak: number; final: number };
}

/**
 * Operations per commit, at least. A commit has a fixed cost (a transaction, temp tables, the spool
 * file) that larger ones spread; an interrupted or crashed run fetches at most this many again.
 */
const COMMIT_ROWS = 5000;

/** Where the adaptive concurrency starts: low enough to be polite, high enough to get going. */
const START_CONCURRENCY = 4;

const EPOCH = { createdAt: "1970-01-01T00:00:00.000000Z", id: "00000000-0000-0000-0000-000000000000" };

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

interface Candidate {
  id: string;
  createdAt: string;
}

/** One operation's outcome: its row, and a reject when it was refused. */
interface Fetched {
  row: OperationRow;
  reject: RejectRow | undefined;
}

/**
 * Fetches GET /async/operations/{id} for the exported calls that started one and whose operation is
 * not yet stored in a final state (never stored ones only for calls inside the window), with up to `concurrency` requests in flight (adapted to how the
 * API answers), committing as it goes. A 404 is recorded as not found (and never asked again); a
 * body that fails validation goes to `rejects`. If the API keeps failing, what was fetched is
 * committed before the error propagates.
 */
export async function fetchOperations(
  deps: OperationFetchDeps,
  options: OperationFetchOptions,
): Promise<OperationFetchResult> {
  const controller = new AdaptiveConcurrency({
    start: Math.min(START_CONCURRENCY, options.concurrency),
    cap: options.concurrency,
  });
  const result: OperationFetchResult = {
    fetched: 0,
    changed: 0,
    notFound: 0,
    rejected: 0,
    window_start: options.windowStart,
    skipped_outside_window: 0,
    concurrency: { start: controller.limit, peak: controller.limit, final: controller.limit },
  };
  const templates = {
    templates: sqlListLiteral(OPERATION_STARTING_TEMPLATES),
  };
  const candidatesSql = fillSql(sqlFile("candidate_operations.sql"), templates);
  const windowStart = options.windowStart ?? EPOCH.createdAt;
  const chunkSize = options.chunkSize ?? 1000;
  let after = EPOCH;
  const nextChunk = async (): Promise<Candidate[]> => {
    const reader = await deps.warehouse.connection.runAndReadAll(candidatesSql, {
      window_start: windowStart,
      after_created: after.createdAt,
      after_id: after.id,
      limit: chunkSize,
    });
    const candidates = reader
      .getRows()
      .map(([id, createdAt]) => ({ id: String(id), createdAt: String(createdAt) }));
    const last = candidates.at(-1);
    if (last !== undefined) after = { createdAt: last.createdAt, id: last.id };
    return candidates;
  };
  const commit = async (batch: Fetched[]) => {
    const rejects = batch.flatMap(({ reject }) => (reject === undefined ? [] : [reject]));
    const committed = await deps.loader.commit(
      batch.map(({ row }) => row),
      rejects,
    );
    result.changed += committed.changed;
    result.rejected += committed.refusedByDuckDb;
    deps.progress.add({
      operations: batch.length,
      rejected: rejects.length + committed.refusedByDuckDb,
    });
  };
  try {
    await pipelinedFetch<Candidate, Fetched>({
      nextChunk,
      fetch: async ({ id }, refused) => {
        const fetched = await fetchOne(deps, options.runId, id, refused);
        result.fetched += 1;
        if (fetched.row.fetch_status === "not_found") result.notFound += 1;
        if (fetched.reject !== undefined) result.rejected += 1;
        return fetched;
      },
      commit,
      controller,
      signal: deps.signal,
      commitSize: options.commitRows ?? COMMIT_ROWS,
    });
  } finally {
    result.concurrency.peak = controller.peak;
    result.concurrency.final = controller.limit;
  }
  if (options.windowStart !== null) {
    const skipped = await deps.warehouse.connection.runAndReadAll(
      fillSql(sqlFile("operations_outside_window.sql"), templates),
      { window_start: options.windowStart },
    );
    result.skipped_outside_window = Number(skipped.getRows()[0]?.[0] ?? 0);
  }
  return result;
}

/** One operation: its row (found, not found or rejected), or the error that should stop the run. */
async function fetchOne(
  deps: OperationFetchDeps,
  runId: string,
  id: string,
  refused: () => void,
): Promise<Fetched> {
  try {
    const { body, outputSizes } = await deps.client.getAsyncOperationRaw(id, { onRetry: refused });
    const fetchedAt = deps.now().toISOString();
    const transformed = transformOperation(id, body, fetchedAt, outputSizes);
    if (transformed.ok) return { row: transformed.row, reject: undefined };
    return rejected(runId, id, fetchedAt, transformed.reason, safeJson(body));
  } catch (error) {
    if (error instanceof ZooUsageError && error.code === "api.not_found") {
      return { row: notFoundOperation(id, deps.now().toISOString()), reject: undefined };
    }
    if (error instanceof ZooUsageError && error.code === "api.response_too_large") {
      // The same body is as large next time: recorded as rejected, so later runs move on.
      return rejected(runId, id, deps.now().toISOString(), error.message, "null");
    }
    throw error;
  }
}

/** An operation recorded as rejected (never asked again), and its reject with the reason. */
function rejected(runId: string, id: string, fetchedAt: string, reason: string, rawJson: string): Fetched {
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

/** Runs `work` over the items with at most `concurrency` in flight; stops taking new ones when aborted. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/** Output files are dropped from a rejected body too: the database never holds CAD data. */
function safeJson(body: unknown): string {
  try {
    if (body !== null && typeof body === "object" && "outputs" in body) {
      return JSON.stringify({
        ...(body as Record<string, unknown>),
        outputs: "[removed: output files are not stored]",
      });
    }
    return JSON.stringify(body) ?? String(body);
  } catch {
    return String(body);
  }
}
