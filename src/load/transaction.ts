import type { DuckDBConnection } from "./duckdb.js";

/**
 * Runs `work` in one transaction: committed when it returns, rolled back when it (or the commit)
 * throws. A rollback that fails too (DuckDB has already ended a transaction whose commit failed)
 * is ignored, so the error that stopped the work is the one the caller sees.
 */
export async function inTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run("BEGIN TRANSACTION");
  try {
    const result = await work();
    await connection.run("COMMIT");
    return result;
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
