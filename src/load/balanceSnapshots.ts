import type { BalanceRow } from "../transform/balanceRow.js";
import type { Warehouse } from "./database.js";
import { sqlFile } from "./sqlFiles.js";

/**
 * Stores one run's balance snapshot (balance_snapshots), every value bound as text and cast in SQL;
 * returns the remaining monetary value (monthly + stable) as DuckDB sums it, exact decimal text.
 */
export async function insertBalanceSnapshot(warehouse: Warehouse, row: BalanceRow): Promise<string> {
  const values: Record<string, string | null> = {};
  for (const [column, value] of Object.entries(row)) values[column] = value === null ? null : String(value);
  const reader = await warehouse.connection.runAndReadAll(
    sqlFile("statements/insert_balance_snapshot.sql"),
    values,
  );
  return String(reader.getRowsJS()[0]?.[0]);
}
