import type { DuckDBConnection } from "./duckdb.js";
import { quotedIdentifier, quotedString } from "./duckdb.js";

/**
 * The exporter's bookkeeping tables (sql/internal/), kept in the `internal` schema so that
 * a BI tool browsing `main` sees only data. `runs` and `rejects` stay in main: people read them.
 */
export const INTERNAL_TABLES = [
  "export_state",
  "page_ladder",
  "parquet_dirty",
  "own_calls",
  "pending_rereads",
  "warehouse_identity",
] as const;

/**
 * Moves the bookkeeping of a database made before the internal schema (the same tables in main)
 * into the internal ones: rows copied by column name (an older table may lack later columns, which
 * stay at their default), then the main table dropped. Runs inside the open's schema transaction,
 * after sql/internal/ has created the internal tables and before anything reads them, so
 * the checkpoint, the ladder, the dirty partitions and the own-call marks carry over whole or not
 * at all. A database that has no such table in main (new, or already moved) is left untouched.
 */
export async function moveInternalState(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name FROM duckdb_tables()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary
       AND table_name IN (${INTERNAL_TABLES.map((table) => quotedString(table)).join(", ")})`,
  );
  const moved = reader.getRowsJS().map((row) => String(row[0]));
  for (const table of moved) {
    const name = quotedIdentifier(table);
    await connection.run(`INSERT INTO internal.${name} BY NAME SELECT * FROM main.${name}`);
    await connection.run(`DROP TABLE main.${name}`);
  }
  return moved;
}
