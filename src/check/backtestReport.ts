import { isoDay } from "../forecast/epochDay.js";
import type { DailySeries } from "../forecast/rateModel.js";
import { readDailySeries } from "../forecast/readDailySeries.js";
import type { DuckDBConnection } from "../load/duckdb.js";
import {
  BACKTEST_SPIKE_RULE,
  type BacktestFigure,
  type BacktestForecast,
  backtestFigures,
  backtestMonths,
  replayForecasts,
  replaySpikes,
  type SpikeReplay,
} from "./backtest.js";

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

/** One history's backtest beside the spike days planted in it (none known on a real account). */
export interface BacktestRun {
  summary: BacktestSummary;
  planted: readonly string[] | null;
}

/**
 * The backtest as a table for people, one row per history or shape: the months judged, the mean
 * absolute percentage error at day 7, 14 and 21, the share of month-ends inside the 90% interval,
 * and the spike alerts replayed, against the spikes planted where they are known ("-" else).
 * docs/check.md's table is this table of the simulator's shapes.
 */
export function backtestTable(
  first: string,
  rows: readonly { name: string; runs: readonly BacktestRun[] }[],
): string[] {
  return [
    `| ${first} | months | error day 7 | error day 14 | error day 21 | inside the 90% interval (day 7 / 14 / 21) | spikes alerted | alerts on other days |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(({ name, runs }) => backtestRow(name, runs)),
  ];
}

function backtestRow(name: string, runs: readonly BacktestRun[]): string {
  const forecasts = runs.flatMap((run) => run.summary.forecasts);
  const figures = backtestFigures(forecasts);
  const known = runs.every((run) => run.planted !== null);
  const planted = (run: BacktestRun) => run.planted ?? [];
  const caught = runs.reduce(
    (sum, run) => sum + planted(run).filter((d) => run.summary.spikes.fired.includes(d)).length,
    0,
  );
  const other = runs.reduce(
    (sum, run) => sum + run.summary.spikes.fired.filter((d) => !planted(run).includes(d)).length,
    0,
  );
  const cells = [
    name,
    String(figures[0]?.months ?? 0),
    ...figures.map((f) => percent(f.mapePercent, 1)),
    figures.map((f) => percent(f.coveragePercent, 0)).join(" / "),
    known ? `${caught} of ${runs.reduce((sum, run) => sum + planted(run).length, 0)}` : "-",
    String(other),
  ];
  return `| ${cells.join(" | ")} |`;
}

/** The summary for people: the table of this history, then the days a spike alert fired on. */
export function backtestLines(summary: BacktestSummary): string[] {
  const span = `${summary.months[0]} to ${summary.months.at(-1)}`;
  const { fired, daysJudged } = summary.spikes;
  return [
    ...backtestTable("history", [{ name: span, runs: [{ summary, planted: null }] }]),
    `spike alerts replayed (x${Number(BACKTEST_SPIKE_RULE.factorMillionths) / 1e6} the same weekday, at least ${BACKTEST_SPIKE_RULE.minMicros / 1e6} USD) on ${daysJudged} days${fired.length === 0 ? ": none" : `: ${fired.join(", ")}`}`,
  ];
}

export function percent(value: number, places: number): string {
  return Number.isNaN(value) ? "-" : `${value.toFixed(places)}%`;
}
