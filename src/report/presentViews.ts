import type { DuckDBConnection } from "@duckdb/node-api";
import { queryRows } from "./rowValues.js";

/**
 * The views the database has in its main schema. A report opens read-only and never adds a view,
 * so a warehouse written by an older version shows only the sections its views can fill.
 */
export async function presentViews(connection: DuckDBConnection): Promise<Set<string>> {
  const rows = await queryRows(
    connection,
    "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'",
    {},
  );
  return new Set(rows.map((row) => String(row.view_name)));
}

/** Whether every one of `names` is among the database's views. */
export async function hasViews(connection: DuckDBConnection, names: readonly string[]): Promise<boolean> {
  const present = await presentViews(connection);
  return names.every((name) => present.has(name));
}
