import type { DuckDBConnection } from "@duckdb/node-api";

/**
 * Typed reads of DuckDB result rows (`getRowObjectsJS`): BIGINT arrives as bigint, which
 * JSON.stringify rejects, so counts become numbers here, and only when they are exact.
 */
export type Row = Record<string, unknown>;

/** Runs a query with bound parameters and returns its rows as plain JS values. */
export async function queryRows(
  connection: DuckDBConnection,
  sql: string,
  params: Record<string, string | number | null>,
): Promise<Row[]> {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.getRowObjectsJS() as Row[];
}

export function count(row: Row, key: string): number {
  const value = row[key];
  if (typeof value === "bigint") {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < 0n) {
      throw new Error(`count ${key} = ${value} is out of the exact range of a JS number`);
    }
    return Number(value);
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  throw new Error(`expected a count in column ${key}, got ${String(value)}`);
}

export function text(row: Row, key: string): string {
  const value = row[key];
  if (typeof value !== "string") throw new Error(`expected text in column ${key}, got ${String(value)}`);
  return value;
}

export function optionalText(row: Row, key: string): string | null {
  const value = row[key];
  return value === null || value === undefined ? null : String(value);
}

export function optionalInteger(row: Row, key: string): number | null {
  const value = row[key];
  if (value === null || value === undefined) return null;
  return count(row, key);
}
