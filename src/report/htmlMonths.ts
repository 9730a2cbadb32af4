import { isWholeMonth } from "./calendar.js";
import type { MonthFigure, ReportFigures } from "./figures.js";
import { type Cell, exactTable, money } from "./htmlExactTable.js";
import { COLORS } from "./htmlParts.js";
import { columnChart } from "./svgCharts.js";
import { chartValue, groupCount } from "./usd.js";

/** Room per month column in the chart, in SVG units: a `YYYY-MM` label fits under it. */
const MONTH_BAND = 56;
const MONTH_CHART_MARGINS = 82;

/**
 * Spend per UTC month (finance reconciles by invoice month): a chart and a table of the sums to
 * the cent (exact on hover), a total row, and the days a month covers when the period cuts into it.
 */
export function monthlySection(figures: ReportFigures): string {
  const { months } = figures;
  if (months.length === 0) return "";
  const chart = columnChart({
    title: "Spend per UTC month, USD",
    columns: months.map((month) => month.month),
    unit: "USD",
    label: (month) => month,
    labelWidth: 60,
    // Narrow for a few months (it then fits a phone), the page's width for many.
    width: Math.min(960, Math.max(360, MONTH_CHART_MARGINS + MONTH_BAND * months.length)),
    height: 220,
    series: [
      {
        name: "spend",
        color: COLORS.spend,
        values: months.map((month) => chartValue(month.cost_usd)),
        texts: months.map((month) => `${month.cost_usd} USD, ${month.calls} calls`),
      },
    ],
  });
  const { totals } = figures;
  const rows: Cell[][] = months.map((month) => [
    month.month,
    coveredDays(month),
    groupCount(month.calls),
    groupCount(month.priced_calls),
    groupCount(month.pending_calls),
    groupCount(month.failed_calls),
    money(month.cost_usd),
  ]);
  rows.push([
    "total",
    "",
    groupCount(totals.calls),
    groupCount(totals.priced_calls),
    groupCount(totals.pending_calls),
    groupCount(totals.failed_calls),
    money(totals.cost_usd),
  ]);
  return `<section class="months"><h2>Monthly spend</h2>${chart}${exactTable(
    ["month (UTC)", "days", "calls", "priced", "pending", "failed", "spend USD"],
    rows,
    ["nowrap", "nowrap", "num", "num", "num", "num", "num"],
  )}</section>`;
}

/** "whole month", or the days the period keeps of it ("10-15 to 10-31"). */
function coveredDays(month: MonthFigure): string {
  return isWholeMonth(month.first_day, month.last_day)
    ? "whole month"
    : `${month.first_day.slice(5)} to ${month.last_day.slice(5)}`;
}
