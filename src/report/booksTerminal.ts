import { printable } from "../log/printable.js";
import { padEndTo, padStartTo, TERMINAL_COLUMNS, textWidth, wrapLine } from "../log/terminalText.js";
import { cents, isZero } from "./cents.js";
import type { InvoiceMonthFigure } from "./readInvoiceFigures.js";

/** The indent of the block's rows, under the text after its "books" label. */
const INDENT = " ".repeat(10);

const HEADERS = ["charged", "paid", "refunded", "still owed", "written off"] as const;

/**
 * The books block: per month and currency, what the invoices charged and how it was settled, in the
 * words a finance reader closes a month with, then what the charges were made of (usage, discounts,
 * tax, other charges, credits, the customer balance). Months without an invoice are left out. A
 * table when it fits 80 columns, else one month a few lines.
 */
export function booksLines(months: readonly InvoiceMonthFigure[]): string[] {
  const invoiced = months.filter((month) => month.invoices > 0);
  if (invoiced.length === 0) return [];
  const rows = invoiced.map((month) => ({
    first: `${month.month} ${printable(month.currency)}`,
    cells: [
      cents(month.charged),
      cents(month.paid),
      cents(month.refunded),
      cents(month.outstanding),
      cents(month.written_off),
    ],
  }));
  const firstWidth = Math.max(...rows.map((row) => textWidth(row.first)));
  const widths = HEADERS.map((header, i) =>
    Math.max(textWidth(header), ...rows.map((row) => textWidth(row.cells[i] ?? ""))),
  );
  const format = (first: string, cells: readonly string[]) =>
    [padEndTo(first, firstWidth), ...cells.map((cell, i) => padStartTo(cell, widths[i] ?? 0))].join("  ");
  const title = "books     what the invoices charged, and how it was settled";
  const lines = wrapLine(title, INDENT);
  const tableWidth = textWidth(format("", HEADERS));
  if (tableWidth <= TERMINAL_COLUMNS) {
    // Under the label when it fits there, else from the first column.
    const indent = INDENT.length + tableWidth <= TERMINAL_COLUMNS ? INDENT : "";
    lines.push(
      `${indent}${format("month", HEADERS)}`,
      ...rows.map((row) => `${indent}${format(row.first, row.cells)}`),
    );
  } else {
    for (const row of rows) {
      const parts = HEADERS.map((header, i) => `${header} ${row.cells[i]}`);
      lines.push(...wrapLine(`${INDENT}${row.first}: ${parts.join(", ")}`, `${INDENT}  `));
    }
  }
  for (const month of invoiced) {
    const sentence = madeOf(month);
    if (sentence !== undefined) lines.push(...wrapLine(`${INDENT}${sentence}`, `${INDENT}  `));
  }
  return lines;
}

/** "2026-09 USD: charged 161.14 = usage 150.00, discounts -15.00, tax 11.14, ..." when more than usage. */
function madeOf(month: InvoiceMonthFigure): string | undefined {
  const parts: Array<[string, string]> = [
    ["usage", month.usage_lines],
    ["discounts", month.discounts],
    ["tax", month.tax],
    ["other charges", month.other_charges],
    ["credits", month.credits],
    ["lines not listed by the API", month.lines_not_listed],
    ["unexplained", month.difference],
  ];
  const shown = parts.filter(([, amount]) => !isZero(amount));
  const balance = isZero(month.balance_applied)
    ? ""
    : `; the customer balance paid ${cents(month.balance_applied)}, so ${cents(month.due)} was due`;
  if (shown.length <= 1 && balance === "") return undefined;
  const list = shown.map(([name, amount]) => `${name} ${cents(amount)}`).join(", ");
  return `${month.month} ${printable(month.currency)}: charged ${cents(month.charged)} = ${list}${balance}.`;
}
