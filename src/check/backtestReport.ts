import type { DuckDBConnection } from "../load/duckdb.js";
import {
  BACKTEST_SPIKE_RULE,
  type BacktestFigure,
  type BacktestForecast,
  backtestFigures,
  backtestMonths,
  isoDay,
  replayForecasts,
  replaySpikes,
  type SpikeReplay,
} from "./backtest.js";
import type { DailySeries } from "./rateModel.js";
import { readDailySeries } from "./readDailySeries.js";

/** A backtest of one history: the months judged, the forecast's figures, the spike alerts replayed. */
export interface BacktestSummary {
  months: string[];
  figures: BacktestFigure[];
  forecasts: BacktestForecast[];
  spikes: SpikeReplay;
}

/**
 * The backtest of a history whose days before `endDay` are complete, over the months `keep` keeps
 * (every judgeable month by default): the month-end forecast replayed on day 7, 14 and 21, and
 * the spike rule (BACKTEST_SPIKE_RULE) on every day of those months.
 */
export function backtestSummary(
  series: DailySeries,
  endDay: number,
  keep: (month: string) => boolean = () => true,
): BacktestSummary {
  const months = backtestMonths(series, endDay).filter((month) => keep(isoDay(month).slice(0, 7)));
  const forecasts = replayForecasts(series, months);
  return {
    months: months.map((month) => isoDay(month).slice(0, 7)),
    figures: backtestFigures(forecasts),
    forecasts,
    spikes: replaySpikes(series, months),
  };
}

/**
 * `check --backtest`: the stored history's complete months (the last stored day counts when an
 * export started after it ended), as lines for people or one JSON object.
 */
export async function backtestReport(connection: DuckDBConnection, json: boolean): Promise<string> {
  const reader = await connection.runAndReadAll(
    "SELECT strftime(as_of, '%Y-%m-%d') AS as_of FROM forecast_as_of",
  );
  const asOf = reader.getRowObjectsJS()[0]?.as_of;
  const series = await readDailySeries(connection, typeof asOf === "string" ? asOf : null);
  const endDay = series.firstDay + series.micros.length;
  const summary = backtestSummary(series, endDay);
  if (json) return JSON.stringify(summary);
  if (summary.forecasts.length === 0) {
    return "backtest: no complete month with 14 days of history before its 7th day: nothing to replay yet";
  }
  return backtestLines(summary).join("\n");
}

/** The summary for people: one line per day of the month, then the spike alerts. */
export function backtestLines(summary: BacktestSummary): string[] {
  const span = `${summary.months[0]} to ${summary.months.at(-1)}`;
  const lines = summary.figures.map(
    (f) =>
      `day ${f.day}: error ${percent(f.mapePercent, 1)} over ${f.months} months (${span}), ${percent(f.coveragePercent, 0)} of month-ends inside the 90% interval`,
  );
  const { fired, daysJudged } = summary.spikes;
  lines.push(
    `spike alerts (x${Number(BACKTEST_SPIKE_RULE.factorMillionths) / 1e6} the same weekday): ${fired.length} of ${daysJudged} days${fired.length === 0 ? "" : `: ${fired.join(", ")}`}`,
  );
  return lines;
}

export function percent(value: number, places: number): string {
  return Number.isNaN(value) ? "-" : `${value.toFixed(places)}%`;
}
