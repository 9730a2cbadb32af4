import { storeCallClasses } from "./callClasses.js";
import type { Warehouse } from "./database.js";
import { quotedString } from "./duckdb.js";
import { asStorageError } from "./storageError.js";
import { inTransaction } from "./transaction.js";

/** Rows per INSERT: a statement's text stays small whatever the run's request count. */
const CHUNK = 500;

/**
 * Stores the call ids a run received in x-api-call-id, in one transaction: the API lists those
 * requests as calls of this user, and the views mark them as the exporter's own. The ids were
 * checked to be UUIDs when received, so quoting them is all the escaping they need. A call stored
 * already under one of them counts as the exporter's own from now on: its day is marked with the
 * ids, and its rollup (call_grains.is_own_call) made again after they are committed, so that a
 * failure there leaves the ids stored and the day marked for the next run.
 */
export async function recordOwnCalls(
  warehouse: Warehouse,
  runId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const { connection } = warehouse;
  const run = quotedString(runId);
  let marked = 0;
  try {
    await inTransaction(connection, async () => {
      for (let start = 0; start < ids.length; start += CHUNK) {
        const values = ids
          .slice(start, start + CHUNK)
          .map((id) => `(${quotedString(id)}::UUID, ${run})`)
          .join(", ");
        await connection.run(`INSERT INTO internal.own_calls (id, run_id) VALUES ${values}`);
      }
      const days = await connection.run(
        `INSERT INTO internal.stale_class_days
         SELECT DISTINCT created_day FROM api_calls
         WHERE id IN (SELECT id FROM internal.own_calls WHERE run_id = ${run})
         EXCEPT SELECT day FROM internal.stale_class_days`,
      );
      marked = days.rowsChanged;
    });
    if (marked > 0) await storeCallClasses(connection);
  } catch (error) {
    throw asStorageError(error, `the exporter's own call ids to ${warehouse.path}`);
  }
}
