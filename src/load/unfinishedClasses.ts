import { storeCallClasses } from "./callClasses.js";
import type { DuckDBConnection } from "./duckdb.js";

/**
 * Whether the database lacks rows this version derives from the calls (the stored billing classes,
 * the usage grains, the calls' rollup): one an older version made.
 */
export async function lacksDerivedRows(connection: DuckDBConnection): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM api_calls WHERE price_usd IS NOT NULL AND billing_class IS NULL)
       OR (EXISTS (SELECT 1 FROM api_calls) AND NOT EXISTS (SELECT 1 FROM usage_grains))
       OR (EXISTS (SELECT 1 FROM api_calls) AND NOT EXISTS (SELECT 1 FROM call_grains))`,
  );
  return reader.getRows()[0]?.[0] === true;
}

/**
 * Forgets that the calls were classified: every day is then due, at this open and, should that
 * stop half-way (a crash, memory), at each later one until a classification completes.
 */
export async function forgetClassifications(connection: DuckDBConnection): Promise<void> {
  await connection.run("UPDATE internal.export_state SET classified_invoices = NULL");
}

/**
 * Classifies every day when the database holds calls but no completed classification (one an
 * older version made, or one whose classification stopped): at the open for writing, so that
 * `check`, which opens for writing too, never judges a half-made rollup. A checkpoint after each
 * batch lets the batch's updates go from memory, and `releaseCache` the blocks it read, so the
 * peak is one batch's, not the history's.
 */
export async function finishClassifications(
  connection: DuckDBConnection,
  releaseCache: () => Promise<void>,
): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM api_calls)
       AND (SELECT classified_invoices FROM internal.export_state) IS NULL`,
  );
  if (reader.getRows()[0]?.[0] !== true) return;
  await storeCallClasses(connection, {
    all: true,
    afterBatch: async () => {
      await connection.run("CHECKPOINT");
      await releaseCache();
    },
  });
}
