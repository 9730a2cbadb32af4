import type { DuckDBConnection } from "../load/duckdb.js";
import { sqlFile } from "../load/sqlFiles.js";

/** The days of a month the forecast is judged at: as of the start of day k + 1, k days known. */
export const BACKTEST_DAYS = [7, 14, 21] as const;

/** One forecast of a complete month, made k days in, beside what the month came to. */
export interface BacktestForecast {
  month: string;
  day: number;
  actualUsd: string;
  forecastUsd: string;
  lowUsd: string;
  highUsd: string;
}

/** Accuracy at one day of the month: mean absolute percentage error and interval coverage. */
export interface BacktestFigure {
  day: number;
  months: number;
  /** Mean of |forecast - actual| / actual, in percent (months whose actual is 0 are left out). */
  mapePercent: number;
  /** Share of the months whose actual month-end lies inside [low, high], in percent. */
  coveragePercent: number;
}

/**
 * Replays the month-end forecast (forecast_month_at) over the complete months of a history: what it
 * said on day 7, 14 and 21 of each, against what the month came to. Reads cost_per_day only, so it
 * runs on a warehouse or on any database with that relation and the forecast macros.
 */
export async function backtestForecasts(connection: DuckDBConnection): Promise<BacktestForecast[]> {
  const months = (await connection.runAndReadAll(sqlFile("check/backtest_months.sql"))).getRowObjectsJS();
  const forecasts: BacktestForecast[] = [];
  for (const row of months) {
    const month = String(row.month);
    for (const day of BACKTEST_DAYS) {
      const reader = await connection.runAndReadAll(
        "SELECT CAST(forecast_usd AS VARCHAR) AS f, CAST(forecast_low_usd AS VARCHAR) AS lo, CAST(forecast_high_usd AS VARCHAR) AS hi FROM forecast_month_at(CAST($day AS DATE) + CAST($k AS INTEGER))",
        { day: month, k: day },
      );
      const forecast = reader.getRowObjectsJS()[0];
      if (forecast === undefined || forecast.f === null) continue;
      forecasts.push({
        month: month.slice(0, 7),
        day,
        actualUsd: String(row.cost_usd),
        forecastUsd: String(forecast.f),
        lowUsd: String(forecast.lo),
        highUsd: String(forecast.hi),
      });
    }
  }
  return forecasts;
}

/**
 * MAPE and coverage per day of the month. The error of a forecast is a ratio, not money: a binary
 * float is fine for it.
 */
export function backtestFigures(forecasts: readonly BacktestForecast[]): BacktestFigure[] {
  return BACKTEST_DAYS.map((day) => {
    const at = forecasts.filter((f) => f.day === day);
    const judged = at.filter((f) => Number(f.actualUsd) !== 0);
    const errors = judged.map(
      (f) => Math.abs(Number(f.forecastUsd) - Number(f.actualUsd)) / Number(f.actualUsd),
    );
    const inside = at.filter(
      (f) => Number(f.lowUsd) <= Number(f.actualUsd) && Number(f.actualUsd) <= Number(f.highUsd),
    );
    return {
      day,
      months: at.length,
      mapePercent:
        judged.length === 0 ? Number.NaN : (100 * errors.reduce((a, b) => a + b, 0)) / judged.length,
      coveragePercent: at.length === 0 ? Number.NaN : (100 * inside.length) / at.length,
    };
  });
}
