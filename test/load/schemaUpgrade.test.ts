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

test("a warehouse made before price_raw, price_flags and token_last4 gains them, in the order a new one has", async () => {
  await withTempWarehouse(async (fresh, dir) => {
    fresh.close();
    const expected = await columns(fresh.path);
    // After the first version's columns, wherever later ones follow them.
    const added = expected.indexOf("price_raw");
    expect(expected.slice(added, added + 3)).toEqual(["price_raw", "price_flags", "token_last4"]);
    expect(added).toBe(expected.indexOf("last_changed_run_id") + 1);
    // The warehouse as the first version made it: every table, api_calls without the added columns.
    const old = path.join(dir, "old.duckdb");
    const instance = await DuckDBInstance.create(old);
    const connection = await instance.connect();
    const tables = (await readFile(FIXTURE, "utf8")).split("-- Views for finance.")[0] ?? "";
    const firstVersion = tables.replace(/^ALTER TABLE api_calls ADD COLUMN .*$/gm, "");
    await connection.run(firstVersion);
    connection.closeSync();
    instance.closeSync();
    expect(await columns(old)).toEqual(expected.slice(0, -3));
    const upgraded = await openWarehouse(old);
    upgraded.close();
    expect(await columns(old)).toEqual(expected);
  });
});
