import { printable } from "../log/printable.js";
import {
  ellipsis,
  padEndTo,
  padStartTo,
  TERMINAL_COLUMNS,
  textWidth,
  wrapLine,
} from "../log/terminalText.js";
import { dayRange, isWholeMonth } from "./calendar.js";
import { cents } from "./cents.js";
import { creditLines } from "./creditsTerminal.js";
import type { DayFigure, MonthFigure, ReportFigures } from "./figures.js";
import { invoiceLines } from "./invoiceTerminal.js";
import { operationWindowText } from "./operationWindow.js";
import { sparkline } from "./sparkline.js";
import { spenderLines } from "./spenderSections.js";
import { chartValue, groupCount, percent } from "./usd.js";

/**
 * The report as terminal text: the same figures as `--json`, money exact, days UTC. Every line fits
 * an 80-column terminal: text is re-wrapped at spaces under its label, table columns of money and
 * counts are as wide as their values and the label column is cut instead.
 */
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
  return lines.flatMap(fitLine).join("\n");
}

const label = (name: string) => name.padEnd(10);

/** The labels of the report's text lines: a wrapped one continues under the text after them. */
const LABELS = ["period", "spend", "failures", "own calls", "pending", "rejects", "invoices", "credits"];

/**
 * A line re-wrapped to the terminal, continuing under the text after its label (or two columns in
 * from its own indent). A word wider than a line (a long path or template) is split, not cut.
 */
function fitLine(line: string): string[] {
  const lead = /^ */.exec(line)?.[0].length ?? 0;
  const labelled = LABELS.some((name) => line.startsWith(label(name)));
  const indent = " ".repeat(labelled ? 10 : lead + 2);
  return wrapLine(line, indent, { breakWords: true });
}

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
  const lines = [`${label("period")}${covered}`, `${label("")}${requested}; UTC days, both ends included`];
  if (period.first_call_at !== null) {
    lines.push(
      `${label("")}first call ${period.first_call_at}`,
      `${label("")}last call  ${period.last_call_at}`,
    );
  }
  return lines;
}

function totalLines(figures: ReportFigures): string[] {
  const { totals, pending_billing: pending } = figures;
  const unpriced = totals.calls - totals.priced_calls;
  return [
    `${label("spend")}${cents(totals.cost_usd)} USD over ${groupCount(totals.calls)} calls` +
      (unpriced > 0 ? ` (${groupCount(unpriced)} without a price)` : ""),
    `${label("failures")}${groupCount(totals.failed_calls)} calls answered with status >= 400 ` +
      `(${percent(totals.failed_calls, totals.calls)})`,
    ...ownCallLines(figures),
    pending.calls === 0
      ? `${label("pending")}none: every call's billing has completed`
      : `${label("pending")}${groupCount(pending.calls)} calls with billing pending, ` +
        `${cents(pending.cost_usd_so_far)} USD so far ` +
        `(their price may still change; oldest ${pending.oldest_created_at})`,
  ];
}

/** The exporter's own share: its requests come back as calls of the same user. */
function ownCallLines(figures: ReportFigures): string[] {
  const own = figures.own_calls;
  if (own === null || own.calls === 0) return [];
  return [
    `${label("own calls")}${groupCount(own.calls)} calls made by zoo-usage itself ` +
      `(${percent(own.calls, figures.totals.calls)}), ${cents(own.cost_usd)} USD; ` +
      `spend without them ${cents(own.cost_usd_excluding_own)} USD`,
  ];
}

/** Spend per UTC month of the period, to the cent, with the days a month covers when cut. */
function monthLines(figures: ReportFigures): string[] {
  return [
    "spend per UTC month",
    ...table(
      ["month", "cost USD", "calls", "failed", "pending", ""],
      figures.months.map((month) => [
        month.month,
        cents(month.cost_usd),
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
  const axis = `  ${first.padEnd(Math.max(first.length + 1, textWidth(line) - last.length))}${last}`;
  const highest = peak === undefined ? "" : `highest ${cents(peak.cost_usd)} USD on ${peak.day}`;
  const besideAxis = `${axis}   ${highest}`;
  const title = `spend per day, ${recent.first_day} .. ${recent.last_day} (${days.length} UTC days):`;
  const sum = `${cents(recent.cost_usd)} USD over ${groupCount(recent.calls)} calls`;
  return [
    ...(textWidth(`${title} ${sum}`) <= TERMINAL_COLUMNS ? [`${title} ${sum}`] : [title, `  ${sum}`]),
    `  ${line}`,
    ...(highest === ""
      ? [axis]
      : textWidth(besideAxis) <= TERMINAL_COLUMNS
        ? [besideAxis]
        : [axis, `  ${highest}`]),
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
    cost: cents(row.cost_usd),
    calls: groupCount(row.calls),
    name: row.endpoint_template ?? "(no template)",
  }));
  if (endpoints.other !== null) {
    rows.push({
      cost: cents(endpoints.other.cost_usd),
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
    ...rejects.reasons.map((row) => {
      const count = padStartTo(String(row.records), 7);
      return `${label("")}${count}  ${oneLine(row.reason, TERMINAL_COLUMNS - 12 - textWidth(count))}`;
    }),
  ];
}

function operationLines(operations: NonNullable<ReportFigures["operations"]>): string[] {
  const all = operations.by_type_and_status.rows;
  const rows = all.slice(0, TERMINAL_OPERATION_ROWS);
  const failed = operations.billed_failed;
  const more = all.length - rows.length;
  return [
    `async operations by type and status, by cost (${operationWindowText(operations.by_type_and_status, " .. ")}, all stored${more > 0 ? `; ${more} more rows in --json and --html` : ""})`,
    ...(rows.length === 0
      ? ["  none"]
      : table(
          ["cost USD", "operations", "type", "status"],
          rows.map((row) => [
            cents(row.cost_usd),
            groupCount(row.operations),
            row.operation_type ?? "-",
            row.status ?? "-",
          ]),
        )),
    `failed operations billed anyway, in the period: ${groupCount(failed.operations)}, ${cents(failed.cost_usd)} USD`,
  ];
}

/**
 * Right-aligned numeric columns (by index), left-aligned text columns; data made printable. Numeric
 * columns (money, counts) are always as wide as their values; when the row is wider than the
 * terminal, the widest text column is narrowed and its cells end in an ellipsis.
 */
function table(headers: string[], dataRows: string[][], numbers: number[] = [0, 1]): string[] {
  const rows = dataRows.map((row) => row.map(printable));
  const numeric = (i: number) => numbers.includes(i);
  const widths = headers.map((header, i) =>
    Math.max(textWidth(header), ...rows.map((row) => textWidth(row[i] ?? ""))),
  );
  const rowWidth = () => 2 + widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1);
  const floor = (i: number) => Math.max(textWidth(headers[i] ?? ""), 3);
  // One column at a time off the widest text column, so two long text columns end up alike.
  while (rowWidth() > TERMINAL_COLUMNS) {
    const narrowable = widths.map((width, i) => (numeric(i) || width <= floor(i) ? -1 : width));
    const widest = narrowable.indexOf(Math.max(...narrowable));
    if ((narrowable[widest] ?? -1) < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const format = (cells: string[]) =>
    `  ${cells
      .map((cell, i) =>
        numeric(i)
          ? padStartTo(cell, widths[i] ?? 0)
          : padEndTo(ellipsis(cell, widths[i] ?? 0), widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd()}`;
  return [format(headers), ...rows.map(format)];
}

function oneLine(text: string, max: number): string {
  return ellipsis(printable(text.replace(/\s+/g, " ").trim()), max);
}
