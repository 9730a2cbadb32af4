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
 * Finishes what a stopped run left of the classification, at the open for writing, so that
 * `check`, which opens for writing too, never judges a half-made rollup: every day when the
 * database holds calls but no completed classification (one an older version made, or one whose
 * classification stopped), else the days a run marked stale and was stopped before classifying. A
 * checkpoint after each batch lets the batch's updates go from memory, and `releaseCache` the
 * blocks it read, so the peak is one batch's, not the history's.
 */
export async function finishClassifications(
  connection: DuckDBConnection,
  releaseCache: () => Promise<void>,
): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM api_calls),
       (SELECT classified_invoices FROM internal.export_state) IS NULL,
       EXISTS (SELECT 1 FROM internal.stale_class_days)`,
  );
  const [calls, unrecorded, staleDays] = reader.getRows()[0] ?? [];
  if (calls !== true || (unrecorded !== true && staleDays !== true)) return;
  await storeCallClasses(connection, {
    all: unrecorded === true,
    afterBatch: async () => {
      await connection.run("CHECKPOINT");
      await releaseCache();
    },
  });
}

/**
 * What a reader should know when a stopped run left the calls' rollups behind their calls (a
 * read-only reader cannot finish them): a sentence, or undefined when they are up to date or the
 * database is of a version without them.
 */
export async function laggingRollupsNote(connection: DuckDBConnection): Promise<string | undefined> {
  let row: unknown[] | undefined;
  try {
    const reader = await connection.runAndReadAll(
      `SELECT EXISTS (SELECT 1 FROM api_calls) AND (SELECT classified_invoices FROM internal.export_state) IS NULL,
         (SELECT count(*) FROM internal.stale_class_days)::INTEGER`,
    );
    row = reader.getRows()[0];
  } catch {
    return undefined;
  }
  const [unfinished, staleDays] = row ?? [];
  const until = "until the next `zoo-usage export` or `zoo-usage check` finishes them";
  if (unfinished === true)
    return `the calls' billing classes and rollups were never completed (an upgrade or an export stopped half-way): figures read from them may be missing calls ${until}`;
  if (typeof staleDays === "number" && staleDays > 0)
    return `${staleDays} UTC day${staleDays === 1 ? "" : "s"} of calls changed since their rollups were made (an export stopped before it made them again): figures read from them may lag those days ${until}`;
  return undefined;
}
