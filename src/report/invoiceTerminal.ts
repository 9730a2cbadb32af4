import { printable } from "../log/printable.js";
import type { InvoiceFigures, InvoiceMonthFigure } from "./readInvoiceFigures.js";
import { groupCount, groupDigits, signedDigits } from "./usd.js";

/** Lines that do not agree shown in the terminal; --json and the HTML page have them all. */
const TERMINAL_LINES = 10;

/** The indent of the block's rows, under the text after its "invoices" label. */
const INDENT = " ".repeat(10);

/**
 * The invoices block: each month's spend with its invoice beside it, then what does not agree.
 * Columns are as wide as their widest value, and long facts are split over lines, so the block
 * fits an 80-column terminal. A month with no invoice line yet (the current month, or a closed one
 * whose invoice waits for late billing) says so instead of showing its whole spend as a shortfall.
 */
export function invoiceLines(figures: InvoiceFigures): string[] {
  const lines = [...monthTable(figures.months)];
  const { in_period: total, agreeing, not_agreeing: open } = figures.lines;
  lines.push(
    `${INDENT}${groupCount(agreeing)} of ${groupCount(total)} invoice lines agree with their calls to the micro-dollar`,
  );
  for (const line of open.slice(0, TERMINAL_LINES)) {
    const invoice = printable(line.invoice_number ?? line.invoice_id);
    const head =
      line.status === "differs"
        ? `${line.month} invoice ${invoice}: ${signedDigits(line.difference_usd)} USD`
        : `${line.month} invoice ${invoice}: no stored call billed on it`;
    const amounts =
      line.status === "differs"
        ? `${groupDigits(line.line_amount_usd)} USD invoiced, calls cost ${groupDigits(line.calls_cost_usd)} USD`
        : `${groupDigits(line.line_amount_usd)} USD invoiced`;
    lines.push(
      `${INDENT}${head}`,
      `${INDENT}  item ${printable(line.invoice_item ?? "(none)")}`,
      `${INDENT}  ${amounts}`,
    );
  }
  if (open.length > TERMINAL_LINES)
    lines.push(`${INDENT}and ${groupCount(open.length - TERMINAL_LINES)} more (see --json)`);
  const missing = figures.calls_not_invoiced;
  if (missing.calls > 0)
    lines.push(
      `${INDENT}${groupCount(missing.calls)} priced calls (${groupDigits(missing.cost_usd)} USD) are on no invoice line`,
      `${INDENT}although their month has closed (view calls_not_invoiced)`,
    );
  return lines;
}

/** The months, right-aligned numbers under headers that end where their values end. */
function monthTable(months: InvoiceMonthFigure[]): string[] {
  if (months.length === 0) return ["invoices  no months in this period"];
  const rows = months.map((month) => ({
    month: month.month,
    usage: groupDigits(month.usage_cost_usd),
    invoiced: month.invoice_lines === 0 ? "" : groupDigits(month.invoiced_usd),
    difference: month.invoice_lines === 0 ? "" : signedDigits(month.difference_usd),
    note:
      month.invoice_lines === 0
        ? "not invoiced yet"
        : month.lines_differing > 0
          ? `${groupCount(month.lines_differing)} differ${month.lines_differing === 1 ? "s" : ""}`
          : "",
  }));
  const width = (header: string, values: string[]) => Math.max(header.length, ...values.map((v) => v.length));
  const usage = width(
    "usage USD",
    rows.map((row) => row.usage),
  );
  const invoiced = width(
    "invoiced USD",
    rows.map((row) => row.invoiced),
  );
  const difference = width(
    "difference USD",
    rows.map((row) => row.difference),
  );
  const format = (cells: [string, string, string, string], note: string) =>
    `${cells[0].padEnd(7)}  ${cells[1].padStart(usage)}  ${cells[2].padStart(invoiced)}  ${cells[3].padStart(difference)}  ${note}`.trimEnd();
  return [
    `invoices  ${format(["month", "usage USD", "invoiced USD", "difference USD"], "")}`,
    ...rows.map((row) =>
      row.invoiced === ""
        ? `${INDENT}${row.month.padEnd(7)}  ${row.usage.padStart(usage)}  ${row.note}`
        : `${INDENT}${format([row.month, row.usage, row.invoiced, row.difference], row.note)}`,
    ),
  ];
}
