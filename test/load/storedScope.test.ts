import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { sqlFile } from "../../src/load/sqlFiles.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * stored_scope.sql tells whether a warehouse holds calls, and whether it holds any exported data at
 * all (a refusal names the owner of data only then): one row in any one of the exported tables
 * must count, and nothing else.
 */

const EXPORTED_TABLES = [
  "api_calls",
  "async_operations",
  "invoices",
  "balance_snapshots",
  "api_tokens",
  "service_accounts",
  "org_members",
];

/** A literal of the column's type, for a column that takes no NULL. */
function literalFor(type: string): string {
  if (type === "UUID") return "gen_random_uuid()";
  if (type.startsWith("TIMESTAMP")) return "now()";
  if (type === "BOOLEAN") return "false";
  if (type === "JSON") return "'{}'";
  if (/INT|DECIMAL|DOUBLE|FLOAT/.test(type)) return "0";
  return "'x'";
}

const workspace = await tempWorkspace();
let warehouse: Warehouse;
beforeAll(async () => {
  warehouse = await openWarehouse(workspace.db);
});
afterAll(async () => {
  warehouse.close();
  await workspace.cleanup();
});

async function storedScope(): Promise<{ hasCalls: unknown; holdsData: unknown }> {
  const reader = await warehouse.connection.runAndReadAll(sqlFile("statements/stored_scope.sql"));
  const [, , , hasCalls, holdsData] = reader.getRows()[0] ?? [];
  return { hasCalls, holdsData };
}

/** Inserts one row of NULLs and of a literal for each column that takes no NULL, then runs `check`. */
async function withOneRow(table: string, check: () => Promise<void>): Promise<void> {
  const reader = await warehouse.connection.runAndReadAll(
    `SELECT column_name, data_type, is_nullable FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main' AND table_name = '${table}'
     ORDER BY column_index`,
  );
  const columns = reader.getRows().map(([name, type, nullable]) => ({
    name: `"${String(name)}"`,
    value: nullable === true ? "NULL" : literalFor(String(type)),
  }));
  await warehouse.connection.run("BEGIN TRANSACTION");
  try {
    await warehouse.connection.run(
      `INSERT INTO ${table} (${columns.map((column) => column.name).join(", ")})
       VALUES (${columns.map((column) => column.value).join(", ")})`,
    );
    await check();
  } finally {
    await warehouse.connection.run("ROLLBACK");
  }
}

describe("stored_scope.sql", () => {
  test("an empty warehouse holds neither calls nor data", async () => {
    expect(await storedScope()).toEqual({ hasCalls: false, holdsData: false });
  });

  test.each(EXPORTED_TABLES)("one row in %s is data, and calls only in api_calls", async (table) => {
    await withOneRow(table, async () => {
      expect(await storedScope()).toEqual({ hasCalls: table === "api_calls", holdsData: true });
    });
  });

  test("a row in a table that is not exported data (runs) is not data", async () => {
    await withOneRow("runs", async () => {
      expect(await storedScope()).toEqual({ hasCalls: false, holdsData: false });
    });
  });
});
