import type { DuckDBConnection } from "../load/duckdb.js";
import type { DailySeries } from "./rateModel.js";

/**
 * The stored daily spend (cost_per_day) of the days before UTC day `before` (YYYY-MM-DD; every
 * stored day when null), as whole micro-dollars from the first stored day on, days without calls
 * as 0. The DECIMAL is scaled to an integer in SQL: exact.
 */
export async function readDailySeries(
  connection: DuckDBConnection,
  before: string | null,
): Promise<DailySeries> {
  const rows = (
    await connection.runAndReadAll(
      "SELECT CAST(day - DATE '1970-01-01' AS INTEGER) AS d, CAST(cost_usd * 1000000 AS BIGINT) AS micros FROM cost_per_day WHERE $before IS NULL OR day < CAST($before AS DATE) ORDER BY day",
      { before },
    )
  ).getRowObjectsJS();
  const first = rows[0];
  if (first === undefined) return { firstDay: 0, micros: [] };
  const firstDay = Number(first.d);
  const micros: number[] = [];
  for (const row of rows) micros[Number(row.d) - firstDay] = Number(row.micros);
  return { firstDay, micros: Array.from(micros, (m) => m ?? 0) };
}
