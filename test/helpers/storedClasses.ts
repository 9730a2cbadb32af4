import type { DuckDBConnection } from "@duckdb/node-api";
import { expect } from "vitest";
import { sqlFile } from "../../src/load/sqlFiles.js";

/**
 * The billing classes stored on the calls equal a classification of every call made now from the
 * calls and invoices (sql/statements/classify_calls.sql), and the stored usage grains a grouping
 * made now (sql/statements/usage_grains.sql), and the calls' rollup likewise
 * (sql/statements/call_grains.sql): what the runs kept up to date, day by day, is
 * what recomputing it whole gives. `connection` has the warehouse as its default catalog.
 */
export async function expectStoredClassesFresh(
  connection: DuckDBConnection,
): Promise<{ labelledUsageRows: number }> {
  await connection.run(
    "CREATE OR REPLACE TEMP TABLE class_days AS SELECT DISTINCT created_day AS day FROM api_calls",
  );
  const differing = await connection.runAndReadAll(
    `WITH fresh AS (${sqlFile("statements/classify_calls.sql")})
     SELECT a.id::VARCHAR AS id, a.billing_class, a.billing_reason, a.billing_invoice_id,
       f.billing_class AS fresh_class, f.reason AS fresh_reason, f.invoice_id AS fresh_invoice_id
     FROM api_calls AS a FULL JOIN fresh AS f ON f.id = a.id
     WHERE (a.price_usd IS NOT NULL OR f.id IS NOT NULL)
       AND (a.billing_class IS DISTINCT FROM f.billing_class OR a.billing_reason IS DISTINCT FROM f.reason
         OR a.billing_invoice_id IS DISTINCT FROM f.invoice_id)
     LIMIT 5`,
  );
  // The usage grains and the calls' rollup, rebuilt from the calls, are the stored ones, row for row.
  const grains = [];
  for (const table of ["usage_grains", "call_grains"]) {
    const columns = (await connection.runAndReadAll(`SELECT * FROM ${table} LIMIT 0`))
      .columnNames()
      .join(", ");
    const fresh = `SELECT ${columns} FROM (${sqlFile(`statements/${table}.sql`)})`;
    const stored = `SELECT ${columns} FROM ${table}`;
    const differing = await connection.runAndReadAll(
      `SELECT '${table} stored only' AS side, * FROM (${stored} EXCEPT ALL ${fresh})
       UNION ALL
       SELECT '${table} fresh only', * FROM (${fresh} EXCEPT ALL ${stored})
       LIMIT 5`,
    );
    grains.push(...differing.getRowObjectsJson());
  }
  // Each usage row's token label, matched at the grain, is the one call_token_match gives its calls.
  const labels = await connection.runAndReadAll(
    `WITH per_call AS (
       SELECT DISTINCT a.created_day AS day, a.user_id::VARCHAR AS member_id, a.token_hash,
         coalesce(a.org_id, a.user_id)::VARCHAR AS billing_account_id, m.token_label
       FROM api_calls AS a JOIN call_token_match AS m ON m.id = a.id
     )
     SELECT u.day::VARCHAR AS day, u.member_id, u.token_label FROM usage_charges AS u
     WHERE u.kind = 'usage' AND NOT EXISTS (
       SELECT 1 FROM per_call AS c
       WHERE c.day = u.day AND c.member_id = u.member_id AND c.token_hash IS NOT DISTINCT FROM u.token_hash
         AND c.billing_account_id = u.billing_account_id AND c.token_label IS NOT DISTINCT FROM u.token_label)
     LIMIT 5`,
  );
  const labelled = await connection.runAndReadAll(
    "SELECT count(*) FILTER (WHERE token_label IS NOT NULL)::INTEGER AS n FROM usage_charges",
  );
  await connection.run("DROP TABLE class_days");
  expect(differing.getRowObjectsJS()).toEqual([]);
  expect(grains).toEqual([]);
  expect(labels.getRowObjectsJson()).toEqual([]);
  return { labelledUsageRows: Number(labelled.getRows()[0]?.[0]) };
}
