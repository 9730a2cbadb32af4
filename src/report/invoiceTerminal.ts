import { printable } from "../log/printable.js";
import { padEndTo, padStartTo, TERMINAL_COLUMNS, textWidth, wrapLine } from "../log/terminalText.js";
import { booksLines } from "./booksTerminal.js";
import { cents, isZero, signedCents } from "./cents.js";
import type { InvoiceFigures, InvoiceLineFigure, InvoiceMonthFigure } from "./readInvoiceFigures.js";
import { classText, lineText, monthStatusText, reasonText } from "./reconciliationWords.js";
import { groupCount } from "./usd.js";

/** Lines and calls that make an unexplained amount shown in the terminal; --json and --html have all. */
const TERMINAL_LINES = 10;

/** The indent of the block's rows, under the text after its "invoices" label. */
const INDENT = " ".repeat(10);

/**
 * The invoices block: each month's usage split into the classes that add up to it (invoiced, not
 * billed, awaiting an invoice, unexplained), in cents, then what each class means and what makes
 * an unexplained amount. Columns are as wide as their widest value and sentences are wrapped, so the
 * block fits an 80-column terminal; months too wide for a table are listed one figure a line.
 */
export function invoiceLines(figures: InvoiceFigures): string[] {
  const usd = figures.months.filter((month) => month.currency === "USD");
  const lines = monthTable(usd);
  const say = (sentence: string) => lines.push(...wrapLine(`${INDENT}${sentence}`, `${INDENT}  `));
  say("Amounts in USD to the cent; exact values in --json and --html.");
  for (const group of figures.not_invoiced)
    if (group.billing_class !== "unexplained")
      say(
        `${classText(group.billing_class)}, ${reasonText(group.reason)}: ${groupCount(group.calls)} calls, ${cents(group.cost_usd)}.`,
      );
  for (const month of usd) {
    if (month.credits_paid_usd !== undefined && !isZero(month.not_billed_usd))
      say(
        `${month.month}: the balance snapshots show credits paying ${cents(month.credits_paid_usd)} of the ${cents(month.not_billed_usd)} not billed.`,
      );
    if (month.other_currency_calls > 0)
      say(
        `${month.month}: ${groupCount(month.other_currency_calls)} calls (${cents(month.other_currency_usd)}) were invoiced in another currency: not compared with their USD prices.`,
      );
  }
  for (const month of figures.months)
    if (month.status === "calls_missing")
      say(
        `${month.month} ${printable(month.currency)}: the invoices bill calls the warehouse does not hold${month.rejected_calls > 0 ? ` (${groupCount(month.rejected_calls)} calls of the month were rejected: see the rejects table)` : ""}; what the month agrees or differs by is not known.`,
      );
  const { usage_lines: total, agreeing, not_agreeing: open } = figures.lines;
  say(
    `${groupCount(agreeing)} of ${groupCount(total)} usage lines agree with their calls to the micro-dollar.`,
  );
  for (const line of open.slice(0, TERMINAL_LINES)) lines.push(...lineLines(line));
  if (open.length > TERMINAL_LINES)
    say(`and ${groupCount(open.length - TERMINAL_LINES)} more lines (see --json)`);
  const unexplained = figures.not_invoiced.find((group) => group.billing_class === "unexplained");
  if (unexplained !== undefined) {
    say(
      `Unexplained: ${groupCount(unexplained.calls)} calls (${cents(unexplained.cost_usd)}) have an invoice item that no line of their whole, final invoice names.`,
    );
    for (const call of figures.unexplained_calls.slice(0, TERMINAL_LINES))
      say(`  call ${call.id} ${cents(call.price_usd)} on ${printable(call.invoice_id ?? "-")}`);
  }
  const books = booksLines(figures.months);
  return books.length === 0 ? lines : [...lines, "", ...books];
}

function lineLines(line: InvoiceLineFigure): string[] {
  const invoice = printable(line.invoice_number ?? line.invoice_id);
  return [
    ...wrapLine(
      `${INDENT}${line.month} invoice ${invoice}: ${signedCents(line.difference)} ${printable(line.currency)} unexplained`,
      INDENT,
    ),
    ...wrapLine(`${INDENT}  item ${printable(line.invoice_item ?? "(none)")}`, `${INDENT}  `, {
      breakWords: true,
    }),
    ...wrapLine(`${INDENT}  ${lineText(line)}`, `${INDENT}  `),
  ];
}

const HEADERS = ["usage", "invoiced", "not billed", "awaiting", "unexplained"] as const;

/** The months as a table in USD cents, right-aligned under headers that end where their values end. */
function monthTable(months: InvoiceMonthFigure[]): string[] {
  if (months.length === 0) return ["invoices  no months in this period"];
  const rows = months.map((month) => ({
    month: month.month,
    cells: [
      cents(month.usage_cost_usd),
      cents(month.invoiced_usage_usd),
      cents(month.not_billed_usd),
      cents(month.awaiting_usd),
      cents(month.unexplained_usd),
    ],
    note: monthStatusText(month),
  }));
  const widths = HEADERS.map((header, i) =>
    Math.max(textWidth(header), ...rows.map((row) => textWidth(row.cells[i] ?? ""))),
  );
  const format = (first: string, cells: readonly string[]) =>
    [padEndTo(first, 7), ...cells.map((cell, i) => padStartTo(cell, widths[i] ?? 0))].join("  ");
  const tableWidth = textWidth(format("", HEADERS));
  const title = "invoices  USD a month: usage = invoiced + not billed + awaiting + unexplained";
  if (INDENT.length + tableWidth <= TERMINAL_COLUMNS || tableWidth <= TERMINAL_COLUMNS) {
    // The table under the label when it fits there, else from the first column; each month's
    // status after it, months of one status together.
    const indent = INDENT.length + tableWidth <= TERMINAL_COLUMNS ? INDENT : "";
    return [
      ...wrapLine(title, INDENT),
      `${indent}${format("month", HEADERS)}`,
      ...rows.map((row) => `${indent}${format(row.month, row.cells)}`),
      ...statusLines(rows),
    ];
  }
  // Too wide for a table: one month a few lines, each figure named.
  const lines = ["invoices  each month's usage, and the classes that add up to it (USD)"];
  for (const row of rows) {
    lines.push(`${INDENT}${row.month}  ${row.note}`);
    const parts = HEADERS.map((header, i) => `${header} ${row.cells[i]}`);
    lines.push(...wrapLine(`${INDENT}  ${parts.join(", ")}`, `${INDENT}  `));
  }
  return lines;
}

/** "2026-08, 2026-09: all explained." for each status, in the order the months first show it. */
function statusLines(rows: { month: string; note: string }[]): string[] {
  const byNote = new Map<string, string[]>();
  for (const row of rows) byNote.set(row.note, [...(byNote.get(row.note) ?? []), row.month]);
  return [...byNote].flatMap(([note, months]) =>
    wrapLine(`${INDENT}${months.join(", ")}: ${note}.`, `${INDENT}  `),
  );
}
