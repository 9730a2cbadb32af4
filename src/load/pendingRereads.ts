import type { Warehouse } from "./database.js";
import { LIST, listValue, VARCHAR } from "./duckdb.js";
import { sqlFile } from "./sqlFiles.js";

/** The stored calls to re-read, and what the backlog they come from looks like. */
export interface PendingRereadCandidates {
  ids: string[];
  /** Calls pending billing before the window that are due now, these included. */
  backlog: number;
  /** How many pending calls before the window, due or waiting, were created before `staleBefore`. */
  stale: number;
  /** The oldest created_at (ISO) of those, or null when no call is due. */
  oldestCreatedAt: string | null;
}

/**
 * The stored calls whose billing has not landed to re-read (select_pending_rereads.sql): created
 * before `windowStart`, not after `scannedFrom` (null: no bound), not answered 404 before, and due
 * at `now` (a call asked before waits 2^(asks - 1) days, at most 16, or until a month has closed);
 * never asked first, oldest first, then those asked longest ago; at most `limit`.
 */
export async function selectPendingRereads(
  warehouse: Warehouse,
  options: {
    windowStart: string;
    scannedFrom: string | null;
    staleBefore: string;
    limit: number;
    /** The run's clock (ISO): when a call asked before is due again is measured from it. */
    now: string;
  },
): Promise<PendingRereadCandidates> {
  const reader = await warehouse.connection.runAndReadAll(sqlFile("statements/select_pending_rereads.sql"), {
    window_start: options.windowStart,
    scanned_from: options.scannedFrom,
    stale_before: options.staleBefore,
    limit: options.limit,
    now: options.now,
  });
  const rows = reader.getRowObjectsJS() as Array<{
    id: string;
    backlog: number;
    stale: number;
    oldest_created_at: string;
  }>;
  const first = rows[0];
  return {
    ids: rows.map((row) => row.id),
    backlog: first?.backlog ?? 0,
    stale: first?.stale ?? 0,
    oldestCreatedAt: first?.oldest_created_at ?? null,
  };
}

/** Notes that the calls of `asked` were asked now, `notFound` among them answered 404 (not asked again). */
export async function recordPendingRereads(
  warehouse: Warehouse,
  asked: { ids: readonly string[]; notFound: readonly string[]; now: () => Date },
): Promise<void> {
  const { ids, notFound } = asked;
  if (ids.length === 0) return;
  await warehouse.connection.run(
    sqlFile("statements/record_pending_rereads.sql"),
    {
      asked_at: asked.now().toISOString(),
      ids: listValue([...ids]),
      not_found_ids: listValue([...notFound]),
    },
    // An empty list has no item type to infer.
    { asked_at: VARCHAR, ids: LIST(VARCHAR), not_found_ids: LIST(VARCHAR) },
  );
}

/**
 * Forgets the calls whose billing has landed. Bookkeeping only (select_pending_rereads.sql starts
 * from the calls still pending), and it reads the whole id column of api_calls, which has no index:
 * once a run, after its re-reads.
 */
export async function forgetSettledRereads(warehouse: Warehouse): Promise<void> {
  await warehouse.connection.run(
    "DELETE FROM internal.pending_rereads WHERE id IN (SELECT id FROM api_calls WHERE completed_at IS NOT NULL)",
  );
}
