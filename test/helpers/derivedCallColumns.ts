import type { DuckDBConnection } from "@duckdb/node-api";
import { storeCallClasses } from "../../src/load/callClasses.js";

/**
 * What the loader derives from the calls (insert_api_calls.sql, callClasses.ts), for a test that
 * writes api_calls or invoices rows itself: the views group by the stored day and month and read
 * the stored billing classes, never recomputing them from created_at or the invoices.
 */
export async function deriveCallColumns(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    "UPDATE api_calls SET created_day = utc_day(created_at), created_month = utc_month(created_at) WHERE created_day IS NULL",
  );
  // In the test's own transaction where it holds one (a fixture it rolls back); else statement by
  // statement.
  await storeCallClasses(connection, { all: true, inCallersTransaction: true });
}
