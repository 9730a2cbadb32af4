import { basename } from "node:path";
import { dayRange, daySpan } from "./calendar.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import type { ReportFigures } from "./figures.js";
import { COLORS, legend } from "./htmlParts.js";
import { callsTable, definitions, operationsSection, rejectsSection } from "./htmlSections.js";
import { PAGE_CSS } from "./htmlStyle.js";
import { spenderSection } from "./spenderSections.js";
import { type BarRow, barChart, columnChart } from "./svgCharts.js";
import { chartValue, groupCount, groupDigits, percent } from "./usd.js";

/** Longest run of days drawn as columns; a longer period shows its last days (and says so). */
export const MAX_CHART_DAYS = 366;

/**
 * The report as one self-contained HTML page: inline CSS, inline SVG, no script, and a
 * Content-Security-Policy that forbids fetching anything, so it opens the same offline or mailed.
 */
export function renderHtml(figures: ReportFigures): string {
  const { period } = figures;
  const covered = period.first_day === null ? "no calls" : `${period.first_day} to ${period.last_day}`;
  const requested =
    period.from === null && period.to === null
      ? ""
      : `; requested ${period.from ?? "start"} to ${period.to ?? "end"}`;
  // Only the database's file name: a shared page need not show the server's directories.
  const source = `generated ${figures.generated_at} from ${basename(figures.database)}`;
  const body = [
    `<h1>Zoo API spend</h1>`,
    `<p class="sub">${esc(`${covered} (UTC days)${requested} · ${source}`)}</p>`,
    cards(figures),
    ...dailySections(figures),
    endpointSection(figures),
    operationsSection(figures),
    spenderSection(figures),
    `<section><h2>Most expensive calls</h2>${callsTable(figures.most_expensive_calls)}</section>`,
    rejectsSection(figures),
    definitions(),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`Zoo API spend, ${covered}`)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
${body.filter((part) => part !== "").join("\n")}
</main>
</body>
</html>
`;
}

function cards(figures: ReportFigures): string {
  const { totals, pending_billing: pending, rejects, own_calls: own } = figures;
  const card = (key: string, value: string, note: string) =>
    `<div class="card"><div class="k">${esc(key)}</div><div class="v">${esc(value)}</div><div class="n">${esc(note)}</div></div>`;
  return `<div class="cards">${[
    card("Spend, USD", groupDigits(totals.cost_usd), `${groupCount(totals.priced_calls)} priced calls`),
    card("Calls", groupCount(totals.calls), `${groupCount(figures.period.days_with_calls)} days with calls`),
    card(
      "Failures",
      groupCount(totals.failed_calls),
      `status ≥ 400, ${percent(totals.failed_calls, totals.calls)} of calls`,
    ),
    card(
      "Billing pending",
      groupCount(pending.calls),
      `${groupDigits(pending.cost_usd_so_far)} USD so far, may change`,
    ),
    card("Rejects", groupCount(rejects.records), "records not loaded"),
    ...(own === null || own.calls === 0
      ? []
      : [
          card(
            "Own calls",
            groupCount(own.calls),
            `made by zoo-usage, ${percent(own.calls, totals.calls)} of calls, ${groupDigits(own.cost_usd)} USD`,
          ),
        ]),
  ].join("")}</div>`;
}

/** The UTC days the column charts span: the period, or its last MAX_CHART_DAYS days. */
function chartDays(figures: ReportFigures): { days: string[]; truncated: boolean } {
  const first = figures.period.from ?? figures.period.first_day;
  const last = figures.period.to ?? figures.period.last_day;
  if (first === null || last === null) return { days: [], truncated: false };
  const days = dayRange(first, last);
  return daySpan(first, last) > MAX_CHART_DAYS
    ? { days: days.slice(-MAX_CHART_DAYS), truncated: true }
    : { days, truncated: false };
}

function dailySections(figures: ReportFigures): string[] {
  const { days, truncated } = chartDays(figures);
  const byDay = new Map(figures.days.map((day) => [day.day, day]));
  const at = (day: string) => byDay.get(day);
  const note = truncated
    ? `<p class="note">The last ${MAX_CHART_DAYS} days of the period are drawn.</p>`
    : "";
  const spend = columnChart({
    title: "Spend per UTC day, USD",
    days,
    unit: "USD",
    series: [
      {
        name: "spend",
        color: COLORS.spend,
        values: days.map((day) => chartValue(at(day)?.cost_usd ?? "0")),
        texts: days.map((day) => `${at(day)?.cost_usd ?? "0"} USD, ${at(day)?.calls ?? 0} calls`),
      },
    ],
  });
  const calls = columnChart({
    title: "Calls per UTC day, failures (status ≥ 400) on top",
    days,
    unit: "calls",
    series: [
      {
        name: "calls answered below 400 (or without status)",
        color: COLORS.ok,
        values: days.map((day) => (at(day)?.calls ?? 0) - (at(day)?.failed_calls ?? 0)),
        texts: days.map((day) => `${(at(day)?.calls ?? 0) - (at(day)?.failed_calls ?? 0)} calls`),
      },
      {
        name: "failed calls (status ≥ 400)",
        color: COLORS.failed,
        values: days.map((day) => at(day)?.failed_calls ?? 0),
        texts: days.map((day) => `${at(day)?.failed_calls ?? 0} of ${at(day)?.calls ?? 0} calls`),
      },
    ],
  });
  return [
    `<section><h2>Daily spend</h2>${spend}${note}</section>`,
    `<section><h2>Calls and failures per day</h2>${legend([
      ["calls (status < 400 or none)", COLORS.ok],
      ["failures (status ≥ 400)", COLORS.failed],
    ])}${calls}${note}</section>`,
  ];
}

function endpointSection(figures: ReportFigures): string {
  const { endpoints } = figures;
  const rows: BarRow[] = endpoints.top.map((row) => {
    const name = row.endpoint_template ?? "(no template)";
    return {
      label: name,
      value: chartValue(row.cost_usd),
      text: `${groupDigits(row.cost_usd)} USD`,
      color: COLORS.spend,
      title: `${name}: ${row.cost_usd} USD over ${row.calls} calls (${row.priced_calls} priced)`,
    };
  });
  if (endpoints.other !== null) {
    const label = `(${endpoints.other.templates} other templates)`;
    rows.push({
      label,
      value: chartValue(endpoints.other.cost_usd),
      text: `${groupDigits(endpoints.other.cost_usd)} USD`,
      color: COLORS.other,
      title: `${label}: ${endpoints.other.cost_usd} USD over ${endpoints.other.calls} calls`,
    });
  }
  return `<section><h2>Spend by endpoint template</h2>${barChart({ title: "Spend by endpoint template, USD", rows })}</section>`;
}
