import type { DuckDBConnection } from "@duckdb/node-api";
import { hasViews } from "../load/presentViews.js";
import { count, queryRows, text } from "./rowValues.js";

/**
 * The month-end forecast (`forecast` in --json), as the forecast_month and forecast_days views give
 * it: the month of the last complete stored day, its exact month-to-date spend, the forecast and its
 * interval, and each day ahead. Money is exact decimal text.
 */
export interface ForecastFigures {
  /** The month forecast, YYYY-MM. */
  month: string;
  /** The first UTC day not known (forecast_as_of: the last stored day, or the day after it once a completed export started after it ended). */
  as_of: string;
  days_known: number;
  days_ahead: number;
  month_to_date_usd: string;
  forecast_usd: string;
  forecast_low_usd: string;
  forecast_high_usd: string;
  /** Each day from as_of to the month's end, with its forecast spend. */
  days: { day: string; forecast_usd: string }[];
}

/**
 * The forecast, or null: a database made before the forecast views (a report opens read-only and
 * never adds a view), or a history under the 14 days the forecast needs.
 */
export async function readForecastFigures(connection: DuckDBConnection): Promise<ForecastFigures | null> {
  if (!(await hasViews(connection, ["forecast_month", "forecast_days"]))) return null;
  const [row] = await queryRows(
    connection,
    "SELECT strftime(month, '%Y-%m') AS month, strftime(as_of, '%Y-%m-%d') AS as_of, days_known, days_ahead, CAST(month_to_date_usd AS VARCHAR) AS month_to_date_usd, CAST(forecast_usd AS VARCHAR) AS forecast_usd, CAST(forecast_low_usd AS VARCHAR) AS forecast_low_usd, CAST(forecast_high_usd AS VARCHAR) AS forecast_high_usd FROM forecast_month WHERE forecast_usd IS NOT NULL",
    {},
  );
  if (row === undefined) return null;
  const days = await queryRows(
    connection,
    "SELECT strftime(day, '%Y-%m-%d') AS day, CAST(forecast_usd AS VARCHAR) AS forecast_usd FROM forecast_days WHERE forecast_usd IS NOT NULL ORDER BY day",
    {},
  );
  return {
    month: text(row, "month"),
    as_of: text(row, "as_of"),
    days_known: count(row, "days_known"),
    days_ahead: count(row, "days_ahead"),
    month_to_date_usd: text(row, "month_to_date_usd"),
    forecast_usd: text(row, "forecast_usd"),
    forecast_low_usd: text(row, "forecast_low_usd"),
    forecast_high_usd: text(row, "forecast_high_usd"),
    days: days.map((day) => ({ day: text(day, "day"), forecast_usd: text(day, "forecast_usd") })),
  };
}
