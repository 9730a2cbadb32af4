import { INVOICES_DIGEST, storeCallClasses } from "./callClasses.js";
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
 * Whether the database holds calls but no completed classification: one an older version made, or
 * one whose classification stopped (an upgrade's forgets the last one's record first).
 */
async function classificationUnfinished(connection: DuckDBConnection): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM api_calls)
       AND (SELECT classified_invoices FROM internal.export_state) IS NULL`,
  );
  return reader.getRows()[0]?.[0] === true;
}

/**
 * Classifies every day at the open for writing when the classification is unfinished:
 * an upgrade's first, or one a stopped run left, so that no later open finds the rollups half
 * made. Days marked stale and changed invoices are left to the export's own classification, at its
 * end. A checkpoint after each batch lets the batch's updates go from memory, and `releaseCache`
 * the blocks it read, so the peak is one batch's, not the history's.
 */
export async function finishClassifications(
  connection: DuckDBConnection,
  releaseCache: () => Promise<void>,
): Promise<void> {
  if (!(await classificationUnfinished(connection))) return;
  await storeCallClasses(connection, {
    all: true,
    afterBatch: async () => {
      await connection.run("CHECKPOINT");
      await releaseCache();
    },
  });
}

/**
 * What a reader should know when a stopped run left the calls' classes and rollups behind: the
 * classification unfinished, the invoices changed since it (a run stopped after storing them), or
 * days a run marked stale and did not classify. A read-only reader cannot finish them, so this is
 * a sentence for it, or undefined when they are up to date or the database is of a version without
 * them. The invoices' digest is read here only, not at every open for writing.
 */
export async function laggingRollupsNote(connection: DuckDBConnection): Promise<string | undefined> {
  let row: unknown[] | undefined;
  try {
    const reader = await connection.runAndReadAll(
      `SELECT EXISTS (SELECT 1 FROM api_calls), (SELECT classified_invoices FROM internal.export_state),
         (${INVOICES_DIGEST}), (SELECT count(*) FROM internal.stale_class_days)::INTEGER`,
    );
    row = reader.getRows()[0];
  } catch {
    return undefined;
  }
  const [calls, recorded, digest, days] = row ?? [];
  if (calls !== true) return undefined;
  const until = "until the next `zoo-usage export` makes them again";
  if (recorded === null || recorded === undefined)
    return `the calls' billing classes and rollups were never completed (an upgrade or an export stopped half-way): figures read from them may be missing calls ${until}`;
  if (recorded !== digest)
    return `the invoices changed since the calls' billing classes were made (an export stopped before it made them again): the reconciliation may lag the invoices ${until}`;
  if (Number(days) > 0)
    return `${days} UTC day${Number(days) === 1 ? "" : "s"} of calls changed since their rollups were made (an export stopped before it made them again): figures read from them may lag those days ${until}`;
  return undefined;
}
