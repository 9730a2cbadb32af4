import { printable } from "../log/printable.js";
import { dayRange, isWholeMonth } from "./calendar.js";
import { creditLines } from "./creditsTerminal.js";
import type { DayFigure, MonthFigure, ReportFigures } from "./figures.js";
import { invoiceLines } from "./invoiceTerminal.js";
import { sparkline } from "./sparkline.js";
import { spenderLines } from "./spenderSections.js";
import { chartValue, groupCount, groupDigits, percent } from "./usd.js";

/** The report as terminal text: the same figures as `--json`, money exact, days UTC. */
export function renderTerminal(figures: ReportFigures): string {
  const lines = [`zoo-usage report: ${printable(figures.database)}`, ...periodLines(figures), ""];
  if (figures.totals.calls === 0) {
    lines.push("no calls in this period");
  } else {
    lines.push(
      ...totalLines(figures),
      "",
      ...monthLines(figures),
      "",
      ...recentLines(figures),
      "",
      ...endpointLines(figures),
    );
  }
  lines.push(...spenderLines(figures), "", ...rejectLines(figures));
  if (figures.operations !== null) lines.push("", ...operationLines(figures.operations));
  if (figures.invoices !== null) lines.push("", ...invoiceLines(figures.invoices));
  if (figures.credits !== null) lines.push("", ...creditLines(figures.credits));
  return lines.join("\n");
}

const label = (name: string) => name.padEnd(10);

/** Operation rows shown in the terminal; --json and --html have them all. */
const TERMINAL_OPERATION_ROWS = 12;

function periodLines(figures: ReportFigures): string[] {
  const { period } = figures;
  const requested =
    period.from === null && period.to === null
      ? "all stored calls"
      : `requested ${period.from ?? "start"} .. ${period.to ?? "end"}`;
  const covered =
    period.first_day === null
      ? "no calls"
      : `${period.first_day} .. ${period.last_day} (${groupCount(period.days_with_calls)} days with calls)`;
  const lines = [`${label("period")}${covered}; ${requested}; UTC days, both ends included`];
  if (period.first_call_at !== null) {
    lines.push(`${label("")}first call ${period.first_call_at}, last call ${period.last_call_at}`);
  }
  return lines;
}

function totalLines(figures: ReportFigures): string[] {
  const { totals, pending_billing: pending } = figures;
  const unpriced = totals.calls - totals.priced_calls;
  return [
    `${label("spend")}${groupDigits(totals.cost_usd)} USD over ${groupCount(totals.calls)} calls` +
      (unpriced > 0 ? ` (${groupCount(unpriced)} without a price)` : ""),
    `${label("failures")}${groupCount(totals.failed_calls)} calls answered with status >= 400 ` +
      `(${percent(totals.failed_calls, totals.calls)})`,
    ...ownCallLines(figures),
    pending.calls === 0
      ? `${label("pending")}none: every call's billing has completed`
      : `${label("pending")}${groupCount(pending.calls)} calls with billing pending, ` +
        `${groupDigits(pending.cost_usd_so_far)} USD so far ` +
        `(their price may still change; oldest ${pending.oldest_created_at})`,
  ];
}

/** The exporter's own share: its requests come back as calls of the same user. */
function ownCallLines(figures: ReportFigures): string[] {
  const own = figures.own_calls;
  if (own === null || own.calls === 0) return [];
  return [
    `${label("own calls")}${groupCount(own.calls)} calls made by zoo-usage itself ` +
      `(${percent(own.calls, figures.totals.calls)}), ${groupDigits(own.cost_usd)} USD; ` +
      `spend without them ${groupDigits(own.cost_usd_excluding_own)} USD`,
  ];
}

/** Spend per UTC month of the period, exact, with the days a month covers when cut. */
function monthLines(figures: ReportFigures): string[] {
  return [
    "spend per UTC month",
    ...table(
      ["month", "cost USD", "calls", "failed", "pending", ""],
      figures.months.map((month) => [
        month.month,
        groupDigits(month.cost_usd),
        groupCount(month.calls),
        groupCount(month.failed_calls),
        groupCount(month.pending_calls),
        partialMonth(month),
      ]),
      [1, 2, 3, 4],
    ),
  ];
}

function partialMonth(month: MonthFigure): string {
  return isWholeMonth(month.first_day, month.last_day)
    ? ""
    : `${month.first_day.slice(5)} .. ${month.last_day.slice(5)} only`;
}

function recentLines(figures: ReportFigures): string[] {
  const { recent } = figures;
  if (recent === null) return [];
  const byDay = new Map(figures.days.map((day) => [day.day, day]));
  const days = dayRange(recent.first_day, recent.last_day);
  const values = days.map((day) => chartValue(byDay.get(day)?.cost_usd ?? "0"));
  const line = sparkline(values);
  const peak = maxDay(days.map((day) => byDay.get(day)).filter((day) => day !== undefined));
  const first = days[0]?.slice(5) ?? "";
  const last = days[days.length - 1]?.slice(5) ?? "";
  return [
    `spend per day, ${recent.first_day} .. ${recent.last_day} (${days.length} UTC days): ` +
      `${groupDigits(recent.cost_usd)} USD over ${groupCount(recent.calls)} calls`,
    `  ${line}`,
    `  ${first.padEnd(Math.max(first.length + 1, line.length - last.length))}${last}` +
      (peak === undefined ? "" : `   highest ${groupDigits(peak.cost_usd)} USD on ${peak.day}`),
  ];
}

function maxDay(days: DayFigure[]): DayFigure | undefined {
  return days.reduce<DayFigure | undefined>(
    (best, day) => (best === undefined || chartValue(day.cost_usd) > chartValue(best.cost_usd) ? day : best),
    undefined,
  );
}

function endpointLines(figures: ReportFigures): string[] {
  const { endpoints } = figures;
  const rows = endpoints.top.map((row) => ({
    cost: groupDigits(row.cost_usd),
    calls: groupCount(row.calls),
    name: row.endpoint_template ?? "(no template)",
  }));
  if (endpoints.other !== null) {
    rows.push({
      cost: groupDigits(endpoints.other.cost_usd),
      calls: groupCount(endpoints.other.calls),
      name: `(${groupCount(endpoints.other.templates)} other templates)`,
    });
  }
  return [
    `top endpoint templates by cost (${groupCount(endpoints.templates)} templates)`,
    ...table(
      ["cost USD", "calls", "endpoint template"],
      rows.map((row) => [row.cost, row.calls, row.name]),
    ),
  ];
}

function rejectLines(figures: ReportFigures): string[] {
  const { rejects } = figures;
  if (rejects.records === 0) return [`${label("rejects")}none: every record read was loaded`];
  return [
    `${label("rejects")}${groupCount(rejects.records)} records could not be loaded (latest ${rejects.latest_rejected_at}); see the rejects table`,
    ...rejects.reasons.map(
      (row) => `${label("")}${String(row.records).padStart(7)}  ${oneLine(row.reason, 90)}`,
    ),
  ];
}

function operationLines(operations: NonNullable<ReportFigures["operations"]>): string[] {
  const all = operations.by_type_and_status.rows;
  const rows = all.slice(0, TERMINAL_OPERATION_ROWS);
  const failed = operations.billed_failed;
  const more = all.length - rows.length;
  return [
    `async operations by type and status, by cost (whole history${more > 0 ? `; ${more} more rows in --json and --html` : ""})`,
    ...(rows.length === 0
      ? ["  none"]
      : table(
          ["cost USD", "operations", "type", "status"],
          rows.map((row) => [
            groupDigits(row.cost_usd),
            groupCount(row.operations),
            row.operation_type ?? "-",
            row.status ?? "-",
          ]),
        )),
    `failed operations billed anyway, in the period: ${groupCount(failed.operations)}, ${groupDigits(failed.cost_usd)} USD`,
  ];
}

/** Right-aligned numeric columns (by index), left-aligned text columns; data made printable. */
function table(headers: string[], dataRows: string[][], numbers: number[] = [0, 1]): string[] {
  const rows = dataRows.map((row) => row.map(printable));
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const numeric = (i: number) => numbers.includes(i);
  const format = (cells: string[]) =>
    `  ${cells
      .map((cell, i) => (numeric(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd()}`;
  return [format(headers), ...rows.map(format)];
}

function oneLine(text: string, max: number): string {
  const flat = printable(text.replace(/\s+/g, " ").trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
