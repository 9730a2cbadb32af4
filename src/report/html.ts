import { basename } from "node:path";
import { cents } from "./cents.js";
import { creditsSection } from "./creditsHtml.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import type { ReportFigures } from "./figures.js";
import { forecastCard } from "./forecastHtml.js";
import { type BarRow, barChart } from "./htmlBars.js";
import { callsSection } from "./htmlCalls.js";
import { dailyCallsSection, dailySpendSection } from "./htmlDaily.js";
import { monthlySection } from "./htmlMonths.js";
import { COLORS, card } from "./htmlParts.js";
import { definitions, operationsSection, rejectsSection } from "./htmlSections.js";
import { PAGE_CSS } from "./htmlStyle.js";
import { invoicesSection } from "./invoiceHtml.js";
import { spenderSection } from "./spenderSections.js";
import { centsHeadline, chartValue, groupCount, groupDigits, percent } from "./usd.js";

/** A part of the page: HTML text, or "" when it has nothing to show. */
export type HtmlSection = (figures: ReportFigures) => string;

/**
 * The page, top to bottom. A new part is one function here: the stylesheet lays out any section's
 * tables and charts (scroll containers by class), so it reads at 400 px like the others.
 */
export const HTML_SECTIONS: HtmlSection[] = [
  heading,
  cards,
  monthlySection,
  dailySpendSection,
  dailyCallsSection,
  endpointSection,
  operationsSection,
  spenderSection,
  (figures) => invoicesSection(figures.invoices),
  (figures) => creditsSection(figures.credits),
  callsSection,
  rejectsSection,
  definitions,
];

/**
 * The report as one self-contained HTML page: inline CSS, inline SVG, no script, and a
 * Content-Security-Policy that forbids fetching anything, so it opens the same offline or mailed.
 */
export function renderHtml(figures: ReportFigures): string {
  const body = HTML_SECTIONS.map((section) => section(figures)).filter((part) => part !== "");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`Zoo API spend, ${coveredDays(figures)}`)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
${body.join("\n")}
</main>
</body>
</html>
`;
}

function coveredDays(figures: ReportFigures): string {
  const { period } = figures;
  return period.first_day === null ? "no calls" : `${period.first_day} to ${period.last_day}`;
}

function heading(figures: ReportFigures): string {
  const { period } = figures;
  const requested =
    period.from === null && period.to === null
      ? ""
      : `; requested ${period.from ?? "start"} to ${period.to ?? "end"}`;
  // Only the database's file name: a shared page need not show the server's directories.
  const source = `generated ${figures.generated_at} from ${basename(figures.database)}`;
  return `<h1>Zoo API spend</h1>
<p class="sub">${esc(`${coveredDays(figures)} (UTC days)${requested} · ${source}`)}</p>`;
}

/** The headline figures: money to the cent, each card's note and tooltip with the exact value. */
function cards(figures: ReportFigures): string {
  const { totals, pending_billing: pending, rejects, own_calls: own } = figures;
  return `<div class="cards">${[
    card(
      "Spend",
      centsHeadline(totals.cost_usd),
      `exactly ${groupDigits(totals.cost_usd)} USD, ${groupCount(totals.priced_calls)} priced calls`,
      `${totals.cost_usd} USD`,
    ),
    ...(figures.forecast ? [forecastCard(figures.forecast)] : []),
    card("Calls", groupCount(totals.calls), `${groupCount(figures.period.days_with_calls)} days with calls`),
    card(
      "Failures",
      groupCount(totals.failed_calls),
      `status ≥ 400, ${percent(totals.failed_calls, totals.calls)} of calls`,
    ),
    card(
      "Billing pending",
      centsHeadline(pending.cost_usd_so_far),
      `${groupCount(pending.calls)} calls, exactly ${groupDigits(pending.cost_usd_so_far)} USD so far, may change`,
      `${pending.cost_usd_so_far} USD`,
    ),
    card("Rejects", groupCount(rejects.records), "records not loaded"),
    ...(own === null || own.calls === 0
      ? []
      : [
          card(
            "Own calls",
            groupCount(own.calls),
            `made by zoo-usage, ${percent(own.calls, totals.calls)} of calls, ${cents(own.cost_usd)} USD`,
          ),
        ]),
  ].join("")}</div>`;
}

function endpointSection(figures: ReportFigures): string {
  const { endpoints } = figures;
  const rows: BarRow[] = endpoints.top.map((row) => {
    const name = row.endpoint_template ?? "(no template)";
    return {
      label: name,
      value: chartValue(row.cost_usd),
      text: `${cents(row.cost_usd)} USD`,
      money: true,
      color: COLORS.spend,
      title: `${name}: ${row.cost_usd} USD over ${row.calls} calls (${row.priced_calls} priced)`,
    };
  });
  if (endpoints.other !== null) {
    const label = `(${endpoints.other.templates} other templates)`;
    rows.push({
      label,
      value: chartValue(endpoints.other.cost_usd),
      text: `${cents(endpoints.other.cost_usd)} USD`,
      money: true,
      color: COLORS.other,
      title: `${label}: ${endpoints.other.cost_usd} USD over ${endpoints.other.calls} calls`,
    });
  }
  return `<section><h2>Spend by endpoint template</h2>${barChart({ title: "Spend by endpoint template, USD", rows })}</section>`;
}
