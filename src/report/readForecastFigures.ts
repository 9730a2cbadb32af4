import type { DuckDBConnection } from "@duckdb/node-api";
import { epochDay, isoDay } from "../forecast/epochDay.js";
import { microsText } from "../forecast/microsText.js";
import { intervalLabel, monthForecast } from "../forecast/monthForecast.js";
import { readDailySeries } from "../forecast/readDailySeries.js";
import { hasViews } from "../load/presentViews.js";
import { queryRows } from "./rowValues.js";

/**
 * The month-end forecast (`forecast` in --json), the one `check` judges budgets with
 * (src/forecast/monthForecast.ts): the month of the last complete stored day, its exact
 * month-to-date spend, the forecast and its interval, and each day ahead. Money is exact decimal
 * text; the days ahead are estimates rounded to the micro-dollar.
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
  /** How the interval was made and the coverage it is labelled with, e.g. "90% nominal: the errors of 64 past forecasts". */
  interval: string;
  /** The first day of a change in usage level the forecast follows (YYYY-MM-DD), or null. */
  level_shift_day: string | null;
  /** Each day from as_of to the month's end, with its forecast spend. */
  days: { day: string; forecast_usd: string }[];
}

/**
 * The forecast, or null: a database made before the forecast views (a report opens read-only and
 * never adds a view), or a history under the 14 days the forecast needs.
 */
export async function readForecastFigures(connection: DuckDBConnection): Promise<ForecastFigures | null> {
  if (!(await hasViews(connection, ["forecast_as_of", "cost_per_day"]))) return null;
  const [row] = await queryRows(
    connection,
    "SELECT strftime(as_of, '%Y-%m-%d') AS as_of FROM forecast_as_of WHERE as_of IS NOT NULL",
    {},
  );
  const asOfText = row?.as_of;
  if (typeof asOfText !== "string") return null;
  const asOf = epochDay(asOfText);
  const forecast = monthForecast(await readDailySeries(connection, asOfText), asOf);
  if (forecast === null) return null;
  return {
    month: isoDay(forecast.monthDay).slice(0, 7),
    as_of: asOfText,
    days_known: Math.min(asOf, forecast.nextMonthDay) - forecast.monthDay,
    days_ahead: forecast.days.length,
    month_to_date_usd: microsText(forecast.monthToDateMicros),
    forecast_usd: microsText(forecast.forecastMicros),
    forecast_low_usd: microsText(forecast.lowMicros),
    forecast_high_usd: microsText(forecast.highMicros),
    interval: intervalLabel(forecast.interval),
    level_shift_day: forecast.shiftDay === null ? null : isoDay(forecast.shiftDay),
    days: forecast.days.map((d) => ({ day: isoDay(d.day), forecast_usd: microsText(d.micros) })),
  };
}
