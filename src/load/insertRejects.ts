import type { DuckDBConnection } from "./duckdb.js";
import { type RejectRow, storableReject } from "./refusedRows.js";
import { sqlFile } from "./sqlFiles.js";

/** Rejects per statement: a statement holds its rows' JSON text at once. */
const REJECTS_PER_STATEMENT = 1000;

/**
 * Writes rejects a batch per statement, on the caller's connection (inside its transaction when it
 * has one): the account sources' records that did not validate or that DuckDB refused. The batch
 * loaders of the calls load theirs from a spool file instead. Texts are made storable as theirs are.
 */
export async function insertRejects(
  connection: DuckDBConnection,
  rejects: readonly RejectRow[],
): Promise<void> {
  for (let start = 0; start < rejects.length; start += REJECTS_PER_STATEMENT) {
    const rows = rejects.slice(start, start + REJECTS_PER_STATEMENT).map(storableReject);
    await connection.run(sqlFile("statements/insert_rejects.sql"), [JSON.stringify(rows)]);
  }
}
