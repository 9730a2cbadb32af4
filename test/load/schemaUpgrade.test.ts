import { readFile } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

/** The tables of the first versions, all in main (before the internal schema). */
const FIXTURE = path.resolve(import.meta.dirname, "fixtures/mainSchemaWarehouse.sql");

/** The api_calls columns in table order. */
async function columns(db: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(db);
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      "SELECT column_name FROM duckdb_columns() WHERE table_name = 'api_calls' ORDER BY column_index",
    );
    return reader.getRowsJS().map((row) => String(row[0]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The columns added after the first version, in the order a new warehouse has them. */
const ADDED = [
  "price_raw",
  "price_flags",
  "token_last4",
  "created_day",
  "created_month",
  "billing_class",
  "billing_reason",
  "billing_invoice_id",
];

/** Instants whose UTC day a time zone or the calendar could get wrong. */
const EDGES = [
  "2024-02-29 23:59:59.999999+00",
  "2024-03-01 00:00:00+00",
  "2025-12-31 23:30:00-05:00",
  "1969-12-31 23:59:59.999999+00",
  "2026-10-25 01:30:00+00",
];

test("a warehouse made before the added columns gains them in a new one's order, its rows' days filled", async () => {
  await withTempWarehouse(async (fresh, dir) => {
    fresh.close();
    const expected = await columns(fresh.path);
    // After the first version's columns, wherever later ones follow them.
    const added = expected.indexOf("price_raw");
    expect(expected.slice(added)).toEqual(ADDED);
    expect(added).toBe(expected.indexOf("last_changed_run_id") + 1);
    // The warehouse as the first version made it: every table, api_calls without the added columns,
    // and calls at instants whose UTC day is easy to get wrong.
    const old = path.join(dir, "old.duckdb");
    const instance = await DuckDBInstance.create(old);
    const connection = await instance.connect();
    const tables = (await readFile(FIXTURE, "utf8")).split("-- Views for finance.")[0] ?? "";
    const firstVersion = tables.replace(/^ALTER TABLE api_calls ADD COLUMN .*$/gm, "");
    await connection.run(firstVersion);
    await connection.run("SET TimeZone = 'America/New_York'");
    for (const at of EDGES)
      await connection.run(
        `INSERT INTO api_calls (id, user_id, method, created_at, updated_at, first_seen_run_id, last_changed_run_id)
         VALUES (uuid(), uuid(), 'GET', $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, 'old', 'old')`,
        { at },
      );
    connection.closeSync();
    instance.closeSync();
    expect(await columns(old)).toEqual(expected.slice(0, -ADDED.length));
    const upgraded = await openWarehouse(old);
    try {
      const days = await upgraded.connection.runAndReadAll(
        `SELECT strftime(created_day, '%Y-%m-%d') AS day, strftime(created_month, '%Y-%m-%d') AS month,
           strftime(timezone('UTC', created_at), '%Y-%m-%d') AS utc_day
         FROM api_calls ORDER BY created_at`,
      );
      expect(days.getRowObjectsJS()).toEqual(
        ["1969-12-31", "2024-02-29", "2024-03-01", "2026-01-01", "2026-10-25"].map((day) => ({
          day,
          month: `${day.slice(0, 7)}-01`,
          utc_day: day,
        })),
      );
    } finally {
      upgraded.close();
    }
    expect(await columns(old)).toEqual(expected);
  });
});
