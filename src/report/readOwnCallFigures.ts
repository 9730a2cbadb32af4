import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlFile } from "../load/sqlFiles.js";
import type { OwnCallFigures } from "./figures.js";
import { count, queryRows, text } from "./rowValues.js";

/**
 * The exporter's own calls in the period, or null when the database predates the is_own_call
 * column (a report never changes the views, and opens the database read-only anyway).
 */
export async function readOwnCallFigures(
  connection: DuckDBConnection,
  period: { from: string | null; to: string | null },
): Promise<OwnCallFigures | null> {
  const present = await queryRows(
    connection,
    "SELECT count(*)::BIGINT AS n FROM duckdb_columns() WHERE table_name = 'api_calls_enriched' AND column_name = 'is_own_call'",
    {},
  );
  if (present[0] === undefined || count(present[0], "n") === 0) return null;
  const [row = {}] = await queryRows(connection, sqlFile("report/own_calls.sql"), period);
  return {
    calls: count(row, "calls"),
    cost_usd: text(row, "cost_usd"),
    cost_usd_excluding_own: text(row, "cost_usd_excluding_own"),
  };
}
