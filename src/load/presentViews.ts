import type { DuckDBConnection } from "@duckdb/node-api";

/**
 * The views the database has in its main schema. A reader (report, check) opens read-only and
 * never adds a view, so a warehouse written by an older version shows only what its views hold.
 */
async function presentViews(connection: DuckDBConnection): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(
    "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'",
  );
  return new Set(reader.getRows().map(([name]) => String(name)));
}

/** Those of `names` that are not among the database's views, in the order given. */
export async function missingViews(
  connection: DuckDBConnection,
  names: readonly string[],
): Promise<string[]> {
  const present = await presentViews(connection);
  return names.filter((name) => !present.has(name));
}

/** Whether every one of `names` is among the database's views. */
export async function hasViews(connection: DuckDBConnection, names: readonly string[]): Promise<boolean> {
  return (await missingViews(connection, names)).length === 0;
}
