import { cents } from "./cents.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import type { ReportFigures } from "./figures.js";
import { type BarRow, barChart } from "./htmlBars.js";
import { exactTable, money, moneyText } from "./htmlExactTable.js";
import { legend, statusColor } from "./htmlParts.js";
import { OPERATION_WINDOW_NOTE, operationWindowText } from "./operationWindow.js";
import { chartValue, groupCount } from "./usd.js";

/**
 * Spend by operation type and status, its heading naming the days of the operations it covers (the
 * stored ones, whatever the period), and the failed operations billed anyway in the period (when
 * the views exist).
 */
export function operationsSection(figures: ReportFigures): string {
  const { operations } = figures;
  if (operations === null) return "";
  const { rows } = operations.by_type_and_status;
  const bars: BarRow[] = rows.map((row) => {
    const label = `${row.operation_type ?? "(unknown type)"} · ${row.status ?? "(no status)"}`;
    return {
      label,
      value: chartValue(row.cost_usd),
      text: `${cents(row.cost_usd)} USD`,
      money: true,
      color: statusColor(row.status),
      title: `${label}: ${row.cost_usd} USD over ${row.operations} operations`,
    };
  });
  const statuses = [...new Set(rows.map((row) => row.status))];
  const failed = operations.billed_failed;
  const failedTable =
    failed.most_expensive.length === 0
      ? ""
      : exactTable(
          ["price USD", "created (UTC)", "type", "error", "operation id"],
          failed.most_expensive.map((row) => [
            money(row.price_usd),
            (row.created_at ?? "-").replace("T", " ").replace("Z", ""),
            row.operation_type ?? "-",
            row.error ?? "-",
            row.id,
          ]),
          ["num", "nowrap", "nowrap", "wrap", "wrap"],
        );
  const window = operationWindowText(operations.by_type_and_status);
  return `<section class="operations"><h2>${esc(`Spend by operation type and status, ${window}`)}</h2>${legend(
    statuses.map((status) => [status ?? "(no status)", statusColor(status)]),
  )}${barChart({ title: "Spend by async operation type and status, USD", rows: bars })}
<p class="note">${esc(OPERATION_WINDOW_NOTE)}</p>
<h3>Failed operations billed anyway</h3>
<p>${esc(`${groupCount(failed.operations)} operations, `)}${moneyText(failed.cost_usd)} USD, created in this period.</p>${failedTable}</section>`;
}

export function rejectsSection(figures: ReportFigures): string {
  const { rejects } = figures;
  if (rejects.records === 0) return "";
  return `<section><h2>Rejects</h2><p>${esc(
    `${groupCount(rejects.records)} records could not be loaded (latest ${rejects.latest_rejected_at ?? "-"}); the rejects table keeps their raw JSON.`,
  )}</p>${exactTable(
    ["records", "reason"],
    rejects.reasons.map((row) => [groupCount(row.records), row.reason]),
    ["num", "wrap"],
  )}</section>`;
}

const DEFINITIONS: [string, string][] = [
  [
    "UTC days",
    "A call counts on the UTC calendar day of its created_at, whatever the reader's time zone. --from and --to are UTC days, both included.",
  ],
  [
    "Spend",
    "The exact sum of price_usd (DECIMAL(18,6), to the micro-dollar) computed by DuckDB, shown to the cent with the exact sum on hover. Daily and per-endpoint figures are the views cost_per_day and cost_per_day_endpoint (cost_per_endpoint without a period); a call without a price adds nothing.",
  ],
  [
    "Failures",
    "Calls answered with status_code ≥ 400. A call without a status code is not counted as a failure.",
  ],
  [
    "Billing pending",
    "Calls whose completed_at is still empty (the pending_billing view): their price may still change, and the next export re-reads them.",
  ],
  [
    "Rejects",
    "Records an export could not load, counted on the UTC day they were rejected; see the rejects table.",
  ],
  [
    "Operations",
    "Spend per async operation type and status is the view cost_per_operation_type: the operations stored, whatever the period, so its heading names the days they were created on (an export fetches those of the last --operations-window, 35 days by default; --operations all the rest). Failed operations billed anyway come from billed_failed_operations, by the UTC day they were created.",
  ],
  [
    "Months",
    "UTC calendar months, as finance reconciles by invoice month. --month 2026-10 reports one whole month; --from 2026-10 starts on its first day, --to 2026-12 ends on its last. A month the period cuts into shows the days it covers.",
  ],
  [
    "Money",
    "Amounts are shown to the cent, rounded half to even; a non-zero amount under half a cent shows as <0.01. Hover an amount for its exact value (to the micro-dollar), which --json has too.",
  ],
  ["Charts", "Bar heights are drawn from the exact figures; hover a bar to see its exact value."],
];

export function definitions(): string {
  return `<section><h2>Definitions</h2><dl>${DEFINITIONS.map(
    ([term, text]) => `<dt>${esc(term)}</dt><dd>${esc(text)}</dd>`,
  ).join("")}</dl></section>`;
}
