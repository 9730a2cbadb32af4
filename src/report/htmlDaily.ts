import { dayRange, daySpan } from "./calendar.js";
import type { ReportFigures } from "./figures.js";
import { FORECAST_COLOR, withForecast } from "./forecastHtml.js";
import { COLORS, legend } from "./htmlParts.js";
import { columnChart } from "./svgCharts.js";
import { chartValue } from "./usd.js";

/** Longest run of days drawn as columns; a longer period shows its last days (and says so). */
export const MAX_CHART_DAYS = 366;

/**
 * The UTC days the column charts span: every day of the requested period (its first day included;
 * an open end is the first or last day with calls), or its last MAX_CHART_DAYS days.
 */
export function chartDays(figures: ReportFigures): { days: string[]; truncated: boolean } {
  const first = figures.period.from ?? figures.period.first_day;
  const last = figures.period.to ?? figures.period.last_day;
  if (first === null || last === null) return { days: [], truncated: false };
  const days = dayRange(first, last);
  return daySpan(first, last) > MAX_CHART_DAYS
    ? { days: days.slice(-MAX_CHART_DAYS), truncated: true }
    : { days, truncated: false };
}

function truncationNote(truncated: boolean): string {
  return truncated ? `<p class="note">The last ${MAX_CHART_DAYS} days of the period are drawn.</p>` : "";
}

/** Spend per UTC day; a day without calls is a zero column, not a gap in the axis. */
export function dailySpendSection(figures: ReportFigures): string {
  const { days: spent, truncated } = chartDays(figures);
  const byDay = new Map(figures.days.map((day) => [day.day, day]));
  // The month-end forecast's days ahead, as a line (and columns past the last day when open-ended).
  const { columns: days, line } = withForecast(spent, figures.forecast, figures.period.to === null);
  const chart = columnChart({
    title: "Spend per UTC day, USD",
    columns: days,
    line,
    unit: "USD",
    series: [
      {
        name: "spend",
        color: COLORS.spend,
        values: days.map((day) => chartValue(byDay.get(day)?.cost_usd ?? "0")),
        texts: days.map(
          (day) => `${byDay.get(day)?.cost_usd ?? "0.000000"} USD, ${byDay.get(day)?.calls ?? 0} calls`,
        ),
      },
    ],
  });
  const key =
    line === undefined
      ? ""
      : legend([
          ["spend", COLORS.spend],
          ["forecast", FORECAST_COLOR],
        ]);
  return `<section><h2>Daily spend</h2>${key}${chart}${truncationNote(truncated)}</section>`;
}

/** Calls per UTC day, the failed ones stacked on top. */
export function dailyCallsSection(figures: ReportFigures): string {
  const { days, truncated } = chartDays(figures);
  const byDay = new Map(figures.days.map((day) => [day.day, day]));
  const calls = (day: string) => byDay.get(day)?.calls ?? 0;
  const failed = (day: string) => byDay.get(day)?.failed_calls ?? 0;
  const chart = columnChart({
    title: "Calls per UTC day, failures (status ≥ 400) on top",
    columns: days,
    unit: "calls",
    series: [
      {
        name: "calls answered below 400 (or without status)",
        color: COLORS.ok,
        values: days.map((day) => calls(day) - failed(day)),
        texts: days.map((day) => `${calls(day) - failed(day)} calls`),
      },
      {
        name: "failed calls (status ≥ 400)",
        color: COLORS.failed,
        values: days.map(failed),
        texts: days.map((day) => `${failed(day)} of ${calls(day)} calls`),
      },
    ],
  });
  return `<section><h2>Calls and failures per day</h2>${legend([
    ["calls (status < 400 or none)", COLORS.ok],
    ["failures (status ≥ 400)", COLORS.failed],
  ])}${chart}${truncationNote(truncated)}</section>`;
}
