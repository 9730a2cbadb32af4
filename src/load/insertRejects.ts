import type { DuckDBConnection } from "./duckdb.js";
import { type RejectRow, storableReject } from "./refusedRows.js";

/**
 * Writes a few rejects one statement each, on the caller's connection (inside its transaction when
 * it has one): the account listings' items that did not validate. The batch loaders, with many,
 * load theirs from a spool file instead. Texts are made storable as the spooled ones are.
 */
export async function insertRejects(
  connection: DuckDBConnection,
  rejects: readonly RejectRow[],
): Promise<void> {
  for (const reject of rejects) {
    const row = storableReject(reject);
    await connection.run(
      `INSERT INTO rejects (run_id, rejected_at, record_id, reason, raw_json)
       VALUES ($run, $at::TIMESTAMPTZ, $id, $reason, $raw)`,
      { run: row.run_id, at: row.rejected_at, id: row.record_id, reason: row.reason, raw: row.raw_json },
    );
  }
}
