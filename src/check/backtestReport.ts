import type { DuckDBConnection } from "../load/duckdb.js";
import { backtestFigures, backtestForecasts } from "./backtest.js";

/**
 * `check --backtest`: the month-end forecast replayed over the stored history's complete months,
 * as lines for people or one JSON object (the figures, then every forecast).
 */
export async function backtestReport(connection: DuckDBConnection, json: boolean): Promise<string> {
  const forecasts = await backtestForecasts(connection);
  const figures = backtestFigures(forecasts);
  if (json) return JSON.stringify({ figures, forecasts });
  if (forecasts.length === 0) {
    return "backtest: no complete month with 14 days of history before its 7th day: nothing to replay yet";
  }
  return figures
    .map(
      (f) =>
        `day ${f.day}: MAPE ${f.mapePercent.toFixed(1)}% over ${f.months} months, ${f.coveragePercent.toFixed(0)}% of month-ends inside the interval`,
    )
    .join("\n");
}
