import type { DuckDBConnection } from "@duckdb/node-api";
import { expect } from "vitest";
import { sqlFile } from "../../src/load/sqlFiles.js";

/**
 * The billing classes stored on the calls equal a classification of every call made now from the
 * calls and invoices (sql/statements/classify_calls.sql): what the runs kept up to date, month by
 * month, is what recomputing it whole gives. `connection` has the warehouse as its default catalog.
 */
export async function expectStoredClassesFresh(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    "CREATE OR REPLACE TEMP TABLE class_months AS SELECT DISTINCT created_month AS month FROM api_calls",
  );
  const differing = await connection.runAndReadAll(
    `WITH fresh AS (${sqlFile("statements/classify_calls.sql").replace(/;\s*$/, "")})
     SELECT a.id::VARCHAR AS id, a.billing_class, a.billing_reason, a.billing_invoice_id,
       f.billing_class AS fresh_class, f.reason AS fresh_reason, f.invoice_id AS fresh_invoice_id
     FROM api_calls AS a FULL JOIN fresh AS f ON f.id = a.id
     WHERE (a.price_usd IS NOT NULL OR f.id IS NOT NULL)
       AND (a.billing_class IS DISTINCT FROM f.billing_class OR a.billing_reason IS DISTINCT FROM f.reason
         OR a.billing_invoice_id IS DISTINCT FROM f.invoice_id)
     LIMIT 5`,
  );
  await connection.run("DROP TABLE class_months");
  expect(differing.getRowObjectsJS()).toEqual([]);
}
