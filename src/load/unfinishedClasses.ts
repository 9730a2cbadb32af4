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

type ClassesDue = { due: "unfinished" | "invoices" } | { due: "days"; days: number };

/**
 * What a stopped run left of the classification: `unfinished` when the database holds calls but no
 * completed classification (one an older version made, or one whose classification stopped),
 * `invoices` when the invoices changed since the classes were made (a run stopped after storing
 * them), `days` when only the days a run marked stale are due, undefined when nothing is.
 */
async function classesDue(connection: DuckDBConnection): Promise<ClassesDue | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM api_calls),
       (SELECT classified_invoices FROM internal.export_state),
       (${INVOICES_DIGEST}),
       (SELECT count(*) FROM internal.stale_class_days)::INTEGER`,
  );
  const [calls, recorded, digest, days] = reader.getRows()[0] ?? [];
  if (calls !== true) return undefined;
  if (recorded === null || recorded === undefined) return { due: "unfinished" };
  if (recorded !== digest) return { due: "invoices" };
  return Number(days) > 0 ? { due: "days", days: Number(days) } : undefined;
}

/**
 * Classifies every day at the open for writing when the classification is unfinished (classesDue):
 * an upgrade's first, or one a stopped run left, so that no later open finds the rollups half
 * made. Days marked stale and changed invoices are left to the export's own classification, at its
 * end. A checkpoint after each batch lets the batch's updates go from memory, and `releaseCache`
 * the blocks it read, so the peak is one batch's, not the history's.
 */
export async function finishClassifications(
  connection: DuckDBConnection,
  releaseCache: () => Promise<void>,
): Promise<void> {
  if ((await classesDue(connection))?.due !== "unfinished") return;
  await storeCallClasses(connection, {
    all: true,
    afterBatch: async () => {
      await connection.run("CHECKPOINT");
      await releaseCache();
    },
  });
}

/**
 * What a reader should know when a stopped run left the calls' classes and rollups behind its
 * calls or invoices (a read-only reader cannot finish them): a sentence, or undefined when they are
 * up to date or the database is of a version without them.
 */
export async function laggingRollupsNote(connection: DuckDBConnection): Promise<string | undefined> {
  let due: ClassesDue | undefined;
  try {
    due = await classesDue(connection);
  } catch {
    return undefined;
  }
  const until = "until the next `zoo-usage export` makes them again";
  if (due?.due === "unfinished")
    return `the calls' billing classes and rollups were never completed (an upgrade or an export stopped half-way): figures read from them may be missing calls ${until}`;
  if (due?.due === "invoices")
    return `the invoices changed since the calls' billing classes were made (an export stopped before it made them again): the reconciliation may lag the invoices ${until}`;
  if (due?.due === "days")
    return `${due.days} UTC day${due.days === 1 ? "" : "s"} of calls changed since their rollups were made (an export stopped before it made them again): figures read from them may lag those days ${until}`;
  return undefined;
}
