import { OPERATION_STARTING_TEMPLATES } from "../transform/operationRow.js";
import type { Warehouse } from "./database.js";
import { fillSql, sqlFile, sqlListLiteral } from "./sqlFiles.js";

const EPOCH = { createdAt: "1970-01-01T00:00:00.000000Z", id: "00000000-0000-0000-0000-000000000000" };

/** The endpoints that start an operation, as the list literal both queries filter on. */
const TEMPLATES = {
  templates: sqlListLiteral(OPERATION_STARTING_TEMPLATES),
};

/** An operation to fetch, and when the call that started it was created (fixed-width UTC text). */
export interface OperationCandidate {
  id: string;
  callCreatedAt: string;
}

/**
 * The ids of the operations to fetch, read in chunks (candidate_operations.sql): operations of
 * exported calls that started one and are not stored yet (for calls created at or after
 * `windowStart`, an ISO instant; null for the whole history), or stored but not final. Keyset-paged
 * by (created_at, id), so each candidate comes once even though the fetched ones stay candidates
 * until their operation ends.
 */
export class OperationCandidates {
  private readonly sql = fillSql(sqlFile("statements/candidate_operations.sql"), TEMPLATES);
  private after = EPOCH;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: { windowStart: string | null; chunkSize: number },
  ) {}

  /** The next chunk of candidates, empty when there are none left. */
  async next(): Promise<OperationCandidate[]> {
    const reader = await this.warehouse.connection.runAndReadAll(this.sql, {
      window_start: this.options.windowStart ?? EPOCH.createdAt,
      after_created: this.after.createdAt,
      after_id: this.after.id,
      limit: this.options.chunkSize,
    });
    // The query reads much of api_calls: a nightly run may not commit for a while after it.
    await this.warehouse.releaseCache();
    const rows = reader.getRows();
    const last = rows.at(-1);
    if (last !== undefined) this.after = { createdAt: String(last[1]), id: String(last[0]) };
    return rows.map(([id, createdAt]) => ({ id: String(id), callCreatedAt: String(createdAt) }));
  }
}

/**
 * Calls created before `windowStart` (ISO) whose operation was never fetched: what
 * `--operations all` would fetch on top of the window (operations_outside_window.sql).
 */
export async function countOperationsOutsideWindow(
  warehouse: Warehouse,
  windowStart: string,
): Promise<number> {
  const reader = await warehouse.connection.runAndReadAll(
    fillSql(sqlFile("statements/operations_outside_window.sql"), TEMPLATES),
    { window_start: windowStart },
  );
  return Number(reader.getRows()[0]?.[0] ?? 0);
}

/**
 * How many candidates OperationCandidates reads in all for `windowStart` (ISO, or null for the
 * whole history), counted before the fetch (count_candidate_operations.sql).
 */
export async function countOperationCandidates(
  warehouse: Warehouse,
  windowStart: string | null,
): Promise<number> {
  const reader = await warehouse.connection.runAndReadAll(
    fillSql(sqlFile("statements/count_candidate_operations.sql"), TEMPLATES),
    { window_start: windowStart ?? EPOCH.createdAt },
  );
  return Number(reader.getRows()[0]?.[0] ?? 0);
}
