import { escapeHtml as esc } from "./escapeHtml.js";
import type { CallFigure, ReportFigures } from "./figures.js";
import { type BarRow, barChart } from "./htmlBars.js";
import { type ColumnKind, legend, statusColor, table } from "./htmlParts.js";
import { chartValue, groupCount, groupDigits } from "./usd.js";

export function callsSection(figures: ReportFigures): string {
  const note = figures.emails_shown
    ? ""
    : `<p class="note">Email addresses are personal data and not shown; <code>--show-email</code> adds them.</p>`;
  return `<section><h2>Most expensive calls</h2>${callsTable(figures.most_expensive_calls, figures.emails_shown)}${note}</section>`;
}

/** The most expensive calls, exact prices, every data field escaped; emails only when asked for. */
function callsTable(calls: CallFigure[], emails: boolean): string {
  if (calls.length === 0) return `<p class="note">No priced calls in this period.</p>`;
  const columns: { header: string; kind: ColumnKind; cell: (call: CallFigure) => string }[] = [
    {
      header: "price USD",
      kind: "num",
      cell: (call) => `${groupDigits(call.price_usd)}${call.billing_pending ? " (pending)" : ""}`,
    },
    {
      header: "created (UTC)",
      kind: "nowrap",
      cell: (call) => call.created_at.replace("T", " ").replace("Z", ""),
    },
    { header: "method", kind: "nowrap", cell: (call) => call.method },
    { header: "endpoint template", kind: "wrap", cell: (call) => call.endpoint_template ?? "(no template)" },
    {
      header: "status",
      kind: "num",
      cell: (call) => (call.status_code === null ? "-" : String(call.status_code)),
    },
    ...(emails
      ? [{ header: "email", kind: "wrap" as const, cell: (call: CallFigure) => call.email ?? "-" }]
      : []),
    { header: "call id", kind: "wrap", cell: (call) => call.id },
  ];
  return table(
    columns.map((column) => column.header),
    calls.map((call) => columns.map((column) => column.cell(call))),
    columns.map((column) => column.kind),
  );
}

/** Spend by operation type and status, and the failed operations billed anyway (when the views exist). */
export function operationsSection(figures: ReportFigures): string {
  const { operations } = figures;
  if (operations === null) return "";
  const { rows } = operations.by_type_and_status;
  const bars: BarRow[] = rows.map((row) => {
    const label = `${row.operation_type ?? "(unknown type)"} · ${row.status ?? "(no status)"}`;
    return {
      label,
      value: chartValue(row.cost_usd),
      text: `${groupDigits(row.cost_usd)} USD`,
      color: statusColor(row.status),
      title: `${label}: ${row.cost_usd} USD over ${row.operations} operations`,
    };
  });
  const statuses = [...new Set(rows.map((row) => row.status))];
  const failed = operations.billed_failed;
  const failedTable =
    failed.most_expensive.length === 0
      ? ""
      : table(
          ["price USD", "created (UTC)", "type", "error", "operation id"],
          failed.most_expensive.map((row) => [
            groupDigits(row.price_usd),
            (row.created_at ?? "-").replace("T", " ").replace("Z", ""),
            row.operation_type ?? "-",
            row.error ?? "-",
            row.id,
          ]),
          ["num", "nowrap", "nowrap", "wrap", "wrap"],
        );
  return `<section><h2>Spend by operation type and status</h2>${legend(
    statuses.map((status) => [status ?? "(no status)", statusColor(status)]),
  )}${barChart({ title: "Spend by async operation type and status, USD", rows: bars })}
<p class="note">Whole history: the view <code>cost_per_operation_type</code> has no date.</p>
<h3>Failed operations billed anyway</h3>
<p>${esc(`${groupCount(failed.operations)} operations, ${groupDigits(failed.cost_usd)} USD, created in this period.`)}</p>${failedTable}</section>`;
}

export function rejectsSection(figures: ReportFigures): string {
  const { rejects } = figures;
  if (rejects.records === 0) return "";
  return `<section><h2>Rejects</h2><p>${esc(
    `${groupCount(rejects.records)} records could not be loaded (latest ${rejects.latest_rejected_at ?? "-"}); the rejects table keeps their raw JSON.`,
  )}</p>${table(
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
    "The exact sum of price_usd (DECIMAL(18,6), to the micro-dollar) computed by DuckDB and shown unrounded. Daily and per-endpoint figures are the views cost_per_day and cost_per_day_endpoint (cost_per_endpoint without a period); a call without a price adds nothing.",
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
    "Spend per async operation type and status is the view cost_per_operation_type (whole history); failed operations billed anyway come from billed_failed_operations, by the UTC day they were created.",
  ],
  [
    "Months",
    "UTC calendar months, as finance reconciles by invoice month. --month 2026-10 reports one whole month; --from 2026-10 starts on its first day, --to 2026-12 ends on its last. A month the period cuts into shows the days it covers.",
  ],
  [
    "Money",
    "Headline figures are rounded to the cent (half away from zero); the tables, the tooltips and --json show the exact amounts.",
  ],
  ["Charts", "Bar heights are drawn from the exact figures; hover a bar to see its exact value."],
];

export function definitions(): string {
  return `<section><h2>Definitions</h2><dl>${DEFINITIONS.map(
    ([term, text]) => `<dt>${esc(term)}</dt><dd>${esc(text)}</dd>`,
  ).join("")}</dl></section>`;
}
