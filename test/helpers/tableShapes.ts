import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Warehouse } from "../../src/load/database.js";

// Helpers of the shape tests: a table's columns as DuckDB made them, and the columns a sql/ file
// spells out, in one comparable form.

const here = import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url));

export type Column = readonly [name: string, type: string];

export function sqlText(file: string): Promise<string> {
  return readFile(path.resolve(here, "../../sql", file), "utf8");
}

/** A table's columns and types, in the table's order, as DuckDB describes them. */
export async function tableColumns(warehouse: Warehouse, table: string): Promise<Column[]> {
  const reader = await warehouse.connection.runAndReadAll(
    "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = $table ORDER BY column_index",
    { table },
  );
  return reader.getRows().map(([name, type]) => [String(name), normalType(String(type))] as const);
}

/** The columns of a query's result; `{{start}}` and `{{end}}` placeholders are filled with a time. */
export async function describeQuery(warehouse: Warehouse, sql: string): Promise<Column[]> {
  const query = sql
    .replace(/--.*$/gm, "")
    .replace(/\{\{(start|end)\}\}/g, "'2026-01-01T00:00:00Z'")
    .trim()
    .replace(/;$/, "");
  const reader = await warehouse.connection.runAndReadAll(`DESCRIBE ${query}`);
  return reader.getRows().map(([name, type]) => [String(name), normalType(String(type))] as const);
}

/** The `columns = {name: 'TYPE', ...}` of the read_json in a sql/ file (it must have exactly one). */
export function readJsonColumns(sql: string): Column[] {
  const blocks = [...sql.matchAll(/columns\s*=\s*\{([^}]*)\}/g)];
  if (blocks.length !== 1) throw new Error(`expected one read_json column list, found ${blocks.length}`);
  return [...(blocks[0]?.[1] ?? "").matchAll(/(\w+)\s*:\s*'([^']+)'/g)].map(
    ([, name, type]) => [String(name), normalType(String(type))] as const,
  );
}

/** "name TYPE" for each column, sorted: the same columns with the same types compare equal. */
export function typed(columns: readonly Column[]): string[] {
  return columns.map(([name, type]) => `${name} ${normalType(type)}`).sort();
}

/** One spelling per type: DuckDB describes TIMESTAMPTZ in words, and DECIMAL(18,6) without a space. */
function normalType(type: string): string {
  return type.toUpperCase().replace("TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ").replace(/\s+/g, "");
}
