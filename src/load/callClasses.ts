import type { DuckDBConnection } from "./duckdb.js";
import { quotedIdentifier } from "./duckdb.js";
import { sqlFile } from "./sqlFiles.js";
import { inTransaction } from "./transaction.js";

/**
 * Marks the UTC months of the calls in `table` (from `since` on) as holding calls whose stored
 * billing classes may be out of date: in the transaction that stores or changes those calls.
 */
export async function markStaleClasses(
  connection: DuckDBConnection,
  rows: { table: string; since?: string | null },
): Promise<void> {
  const since =
    rows.since === undefined || rows.since === null ? "" : " WHERE created_at >= $since::TIMESTAMPTZ";
  await connection.run(
    `INSERT INTO internal.stale_class_months
     SELECT DISTINCT utc_month(created_at) AS month FROM ${quotedIdentifier(rows.table)}${since}
     EXCEPT SELECT month FROM internal.stale_class_months`,
    since === "" ? {} : { since: rows.since as string },
  );
}

/**
 * What the classes read of the invoices, as one text: a sum of row hashes of invoices and
 * invoice_lines, their run ids left out (a listing marks every invoice it sees, changed or not).
 */
const INVOICES_DIGEST = `SELECT
  (SELECT coalesce(sum(hash(x)), 0) FROM (SELECT * EXCLUDE (first_seen_run_id, last_seen_run_id) FROM invoices) AS x)::VARCHAR
  || '/' || (SELECT coalesce(sum(hash(x)), 0) FROM (SELECT * EXCLUDE (last_seen_run_id) FROM invoice_lines) AS x)::VARCHAR`;

/** What a classification did: the months classified, and the calls whose stored class changed. */
export interface ClassesStored {
  months: number;
  changed: number;
}

/**
 * Stores each priced call's billing class, reason and invoice (sql/statements/classify_calls.sql)
 * on the call, and the ledger's usage grains of their months (sql/tables/usage_grains.sql), for the months marked stale, or for every month when the invoices changed since the
 * classes were last stored (or `all`). Only rows whose class changed are written. One transaction:
 * a crash leaves the marks, and the next run classifies those months again. A call's class depends
 * on its own row and the invoices only, so the months not classified keep classes that are right.
 */
export async function storeCallClasses(
  connection: DuckDBConnection,
  options: { all?: boolean } = {},
): Promise<ClassesStored> {
  return inTransaction(connection, () => classifyCalls(connection, options));
}

/** storeCallClasses in the caller's transaction. */
export async function classifyCalls(
  connection: DuckDBConnection,
  options: { all?: boolean } = {},
): Promise<ClassesStored> {
  const digest = String((await connection.runAndReadAll(INVOICES_DIGEST)).getRows()[0]?.[0]);
  const recorded = (
    await connection.runAndReadAll("SELECT classified_invoices FROM internal.export_state")
  ).getRows()[0]?.[0];
  const every = options.all === true || recorded !== digest;
  // Every month: those of the calls, and of the grains, so that a month whose calls are gone leaves
  // no grains behind.
  await connection.run(
    every
      ? `CREATE OR REPLACE TEMP TABLE class_months AS
           SELECT DISTINCT created_month AS month FROM api_calls UNION SELECT DISTINCT month FROM usage_grains`
      : "CREATE OR REPLACE TEMP TABLE class_months AS SELECT month FROM internal.stale_class_months",
  );
  try {
    const months = Number(
      (await connection.runAndReadAll("SELECT count(*) FROM class_months")).getRows()[0]?.[0] ?? 0,
    );
    let changed = 0;
    if (months > 0) {
      changed = await classifyMonths(connection);
      await rebuildUsageGrains(connection);
    }
    await connection.run(
      "DELETE FROM internal.stale_class_months WHERE month IN (SELECT month FROM class_months)",
    );
    await connection.run(
      `INSERT INTO internal.export_state (singleton, classified_invoices) VALUES (true, $digest)
         ON CONFLICT (singleton) DO UPDATE SET classified_invoices = excluded.classified_invoices`,
      { digest },
    );
    return { months, changed };
  } finally {
    // After a failure the transaction refuses every statement: the failure is the one to report.
    await connection.run("DROP TABLE IF EXISTS class_months").catch(() => undefined);
  }
}

/**
 * The ledger's usage grains of the months in class_months, made again from their calls: only the
 * grains that changed are deleted and inserted (a nightly run changes the newest days' few), so the
 * table does not gain a row group of a whole month every night.
 */
async function rebuildUsageGrains(connection: DuckDBConnection): Promise<void> {
  const columns = (await connection.runAndReadAll("SELECT * FROM usage_grains LIMIT 0")).columnNames();
  const list = columns.join(", ");
  const same = columns.map((column) => `g.${column} IS NOT DISTINCT FROM f.${column}`).join(" AND ");
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE fresh_grains AS SELECT ${list} FROM (${sqlFile("statements/usage_grains.sql").replace(/;\s*$/, "")})`,
  );
  try {
    await connection.run(
      `DELETE FROM usage_grains WHERE rowid IN (
         SELECT g.rowid FROM usage_grains AS g ANTI JOIN fresh_grains AS f ON ${same}
         WHERE g.month IN (SELECT month FROM class_months))`,
    );
    await connection.run(
      `INSERT INTO usage_grains (${list})
       SELECT f.* FROM fresh_grains AS f
       ANTI JOIN (SELECT * FROM usage_grains WHERE month IN (SELECT month FROM class_months)) AS g ON ${same}`,
    );
  } finally {
    await connection.run("DROP TABLE IF EXISTS fresh_grains").catch(() => undefined);
  }
}

/** Classifies the calls of the months in class_months; returns how many stored classes changed. */
async function classifyMonths(connection: DuckDBConnection): Promise<number> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE classified AS ${sqlFile("statements/classify_calls.sql")}`,
  );
  try {
    const set = await connection.run(
      `UPDATE api_calls SET billing_class = c.billing_class, billing_reason = c.reason, billing_invoice_id = c.invoice_id
       FROM classified AS c
       WHERE api_calls.id = c.id AND (api_calls.billing_class IS DISTINCT FROM c.billing_class
         OR api_calls.billing_reason IS DISTINCT FROM c.reason OR api_calls.billing_invoice_id IS DISTINCT FROM c.invoice_id)`,
    );
    // A call whose price went away has no class any more.
    const cleared = await connection.run(
      `UPDATE api_calls SET billing_class = NULL, billing_reason = NULL, billing_invoice_id = NULL
       WHERE price_usd IS NULL AND billing_class IS NOT NULL AND created_month IN (SELECT month FROM class_months)`,
    );
    return set.rowsChanged + cleared.rowsChanged;
  } finally {
    await connection.run("DROP TABLE IF EXISTS classified").catch(() => undefined);
  }
}
