import type { DuckDBConnection } from "./duckdb.js";
import { quotedIdentifier } from "./duckdb.js";
import { sqlFile } from "./sqlFiles.js";
import { inTransaction } from "./transaction.js";

/**
 * Marks the UTC days of the calls in `table` (from `since` on) as holding calls whose stored
 * billing classes may be out of date: in the transaction that stores or changes those calls.
 */
export async function markStaleClasses(
  connection: DuckDBConnection,
  rows: { table: string; since?: string | null },
): Promise<void> {
  const since =
    rows.since === undefined || rows.since === null ? "" : " WHERE created_at >= $since::TIMESTAMPTZ";
  await connection.run(
    `INSERT INTO internal.stale_class_days
     SELECT DISTINCT utc_day(created_at) AS day FROM ${quotedIdentifier(rows.table)}${since}
     EXCEPT SELECT day FROM internal.stale_class_days`,
    since === "" ? {} : { since: rows.since as string },
  );
}

/**
 * What the classes read of the invoices, as one text: a sum of row hashes of invoices and
 * invoice_lines, their run ids left out (a listing marks every invoice it sees, changed or not).
 */
export const INVOICES_DIGEST = `SELECT
  (SELECT coalesce(sum(hash(x)), 0) FROM (SELECT * EXCLUDE (first_seen_run_id, last_seen_run_id) FROM invoices) AS x)::VARCHAR
  || '/' || (SELECT coalesce(sum(hash(x)), 0) FROM (SELECT * EXCLUDE (last_seen_run_id) FROM invoice_lines) AS x)::VARCHAR`;

/** What a classification did: the days classified, and the calls whose stored class changed. */
export interface ClassesStored {
  days: number;
  changed: number;
}

/**
 * Stores each priced call's billing class, reason and invoice (sql/statements/classify_calls.sql)
 * on the call, and the ledger's usage grains and the calls' rollup of their days
 * (sql/tables/usage_grains.sql, sql/tables/call_grains.sql): for the days marked stale, or for
 * every day when the invoices changed since the classes were last stored (or `all`). Only rows
 * whose class changed are written. A transaction per batch of days, which clears their marks: a
 * crash leaves the marks of the days not done, and when every day was due the invoices' digest
 * unrecorded, so the next run classifies them again. A call's class depends on its own row and
 * the invoices only, so the days not classified keep classes that are right. `afterBatch` runs
 * after each batch's commit, in both passes (the writer lets DuckDB's cached blocks go there).
 * `inCallersTransaction` runs every batch in the transaction the caller holds instead.
 * `batchCalls`: see BATCH_CALLS.
 */
export async function storeCallClasses(
  connection: DuckDBConnection,
  options: {
    all?: boolean;
    afterBatch?: () => Promise<void>;
    inCallersTransaction?: boolean;
    batchCalls?: number;
  } = {},
): Promise<ClassesStored> {
  const batchTransaction = (work: () => Promise<void>): Promise<void> =>
    options.inCallersTransaction === true ? work() : inTransaction(connection, work);
  const digest = String((await connection.runAndReadAll(INVOICES_DIGEST)).getRows()[0]?.[0]);
  const recorded = (
    await connection.runAndReadAll("SELECT classified_invoices FROM internal.export_state")
  ).getRows()[0]?.[0];
  const every = options.all === true || recorded !== digest;
  // Every day: those of the calls, and of the grains, so that a day whose calls are gone leaves
  // no grains behind.
  await connection.run(
    every
      ? `CREATE OR REPLACE TEMP TABLE all_class_days AS
           SELECT DISTINCT created_day AS day FROM api_calls UNION SELECT DISTINCT day FROM usage_grains
           UNION SELECT DISTINCT day FROM call_grains`
      : "CREATE OR REPLACE TEMP TABLE all_class_days AS SELECT day FROM internal.stale_class_days",
  );
  try {
    const batches = await dayBatches(connection, options.batchCalls ?? BATCH_CALLS);
    let changed = 0;
    // The classes read which items the calls carry and their last month (invoice_item_calls, from
    // call_grains): the calls' rollup of every day is made first for that, then again with the
    // classes. A batch of days at a time (class_days): classifying every call in one statement, or
    // one transaction, would hold them all, and the run's memory would grow with its history.
    for (const batch of batches) {
      await batchTransaction(async () => {
        await useClassDays(connection, batch);
        await rebuildGrains(connection, CALL_GRAINS);
      });
      await options.afterBatch?.();
    }
    for (const batch of batches) {
      await batchTransaction(async () => {
        await useClassDays(connection, batch);
        changed += await classifyDays(connection);
        for (const grains of GRAINS) await rebuildGrains(connection, grains);
        await connection.run(
          "DELETE FROM internal.stale_class_days WHERE day IN (SELECT day FROM class_days)",
        );
      });
      await options.afterBatch?.();
    }
    await connection.run(
      `INSERT INTO internal.export_state (singleton, classified_invoices) VALUES (true, $digest)
         ON CONFLICT (singleton) DO UPDATE SET classified_invoices = excluded.classified_invoices`,
      { digest },
    );
    return { days: batches.reduce((sum, batch) => sum + batch.days, 0), changed };
  } finally {
    // After a failure the transaction refuses every statement: the failure is the one to report.
    await connection.run("DROP TABLE IF EXISTS class_days").catch(() => undefined);
    await connection.run("DROP TABLE IF EXISTS all_class_days").catch(() => undefined);
  }
}

/**
 * Calls classified together, at most (plus the calls of the batch's last day): a batch's update is
 * held in memory until its commit and the checkpoint after it, so a batch is bounded by its calls,
 * not its days. A month of a large account holds millions of calls, and as one batch it would
 * need more memory than the writer's limit. Every call of a batch holds memory at the batch's peak
 * (its new class, the update's old values, its place in the usage grains), which this bounds;
 * smaller batches cost time, as each reads the invoices again and ends with a checkpoint.
 */
const BATCH_CALLS = 100_000;

interface DayBatch {
  first: string;
  last: string;
  days: number;
}

/**
 * The days of all_class_days in order, cut into batches of about `batchCalls` calls: a day joins
 * the batch in which the calls of the days before it begin, so a batch holds at most `batchCalls`
 * plus its last day's calls, and a day of more calls than that is a batch of its own.
 */
async function dayBatches(connection: DuckDBConnection, batchCalls: number): Promise<DayBatch[]> {
  const reader = await connection.runAndReadAll(
    `WITH per_day AS (
       SELECT d.day, coalesce(c.calls, 0) AS calls
       FROM all_class_days AS d
       LEFT JOIN (
         SELECT created_day AS day, count(*) AS calls FROM api_calls
         WHERE created_day IN (SELECT day FROM all_class_days) GROUP BY created_day
       ) AS c USING (day)
     ),
     placed AS (
       SELECT day, (sum(calls) OVER (ORDER BY day ROWS UNBOUNDED PRECEDING) - calls) // ${Math.max(1, Math.trunc(batchCalls))} AS batch
       FROM per_day
     )
     SELECT min(day)::VARCHAR, max(day)::VARCHAR, count(*)::INTEGER
     FROM placed GROUP BY batch ORDER BY batch`,
  );
  return reader.getRows().map(([first, last, days]) => ({
    first: String(first),
    last: String(last),
    days: Number(days),
  }));
}

/** Makes class_days, which the statements read, the days of one batch. */
async function useClassDays(connection: DuckDBConnection, batch: DayBatch): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE class_days AS
     SELECT day FROM all_class_days WHERE day BETWEEN $first::DATE AND $last::DATE`,
    { first: batch.first, last: batch.last },
  );
}

/** The tables kept per day with the classes, each made by its statement from the calls. */
const CALL_GRAINS = { table: "call_grains", statement: "statements/call_grains.sql" };
const GRAINS = [{ table: "usage_grains", statement: "statements/usage_grains.sql" }, CALL_GRAINS];

/**
 * The grains of the days in class_days, made again from their calls: only the grains that changed
 * are deleted and inserted (a nightly run changes the newest days' few), so the table does not
 * gain a row group of a whole month every night.
 */
async function rebuildGrains(
  connection: DuckDBConnection,
  grains: { table: string; statement: string },
): Promise<void> {
  const table = quotedIdentifier(grains.table);
  const columns = (await connection.runAndReadAll(`SELECT * FROM ${table} LIMIT 0`)).columnNames();
  const list = columns.join(", ");
  const same = columns.map((column) => `g.${column} IS NOT DISTINCT FROM f.${column}`).join(" AND ");
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE fresh_grains AS SELECT ${list} FROM (${sqlFile(grains.statement)})`,
  );
  try {
    await connection.run(
      `DELETE FROM ${table} WHERE rowid IN (
         SELECT g.rowid FROM ${table} AS g ANTI JOIN fresh_grains AS f ON ${same}
         WHERE g.day IN (SELECT day FROM class_days))`,
    );
    await connection.run(
      `INSERT INTO ${table} (${list})
       SELECT f.* FROM fresh_grains AS f
       ANTI JOIN (SELECT * FROM ${table} WHERE day IN (SELECT day FROM class_days)) AS g ON ${same}`,
    );
  } finally {
    await connection.run("DROP TABLE IF EXISTS fresh_grains").catch(() => undefined);
  }
}

/** Classifies the calls of the days in class_days; returns how many stored classes changed. */
async function classifyDays(connection: DuckDBConnection): Promise<number> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE classified AS ${sqlFile("statements/classify_calls.sql")}`,
  );
  try {
    // The days' filter lets the scan skip the calls of other days: joined by id alone, every stored
    // call would be read for each batch.
    const set = await connection.run(
      `UPDATE api_calls SET billing_class = c.billing_class, billing_reason = c.reason, billing_invoice_id = c.invoice_id
       FROM classified AS c
       WHERE api_calls.id = c.id AND api_calls.created_day IN (SELECT day FROM class_days)
         AND (api_calls.billing_class IS DISTINCT FROM c.billing_class
         OR api_calls.billing_reason IS DISTINCT FROM c.reason OR api_calls.billing_invoice_id IS DISTINCT FROM c.invoice_id)`,
    );
    // A call whose price went away has no class any more.
    const cleared = await connection.run(
      `UPDATE api_calls SET billing_class = NULL, billing_reason = NULL, billing_invoice_id = NULL
       WHERE price_usd IS NULL AND billing_class IS NOT NULL AND created_day IN (SELECT day FROM class_days)`,
    );
    return set.rowsChanged + cleared.rowsChanged;
  } finally {
    await connection.run("DROP TABLE IF EXISTS classified").catch(() => undefined);
  }
}
