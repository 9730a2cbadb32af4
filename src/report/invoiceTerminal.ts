import { printable } from "../log/printable.js";
import type { InvoiceFigures } from "./readInvoiceFigures.js";
import { groupCount, groupDigits } from "./usd.js";

/** Lines that do not agree shown in the terminal; --json and the HTML page have them all. */
const TERMINAL_LINES = 10;

/** The invoices block: each month's spend with its invoice beside it, then what does not agree. */
export function invoiceLines(figures: InvoiceFigures): string[] {
  const lines = ["invoices  month     usage USD      invoiced USD   difference USD"];
  if (figures.months.length === 0) lines.push("          no months in this period");
  for (const month of figures.months) {
    const mark = month.lines_differing > 0 ? `  ${groupCount(month.lines_differing)} line(s) differ` : "";
    lines.push(
      `          ${month.month}  ${groupDigits(month.usage_cost_usd).padStart(13)}  ${groupDigits(month.invoiced_usd).padStart(13)}  ${signed(month.difference_usd).padStart(14)}${mark}`,
    );
  }
  const { in_period: total, agreeing, not_agreeing: open } = figures.lines;
  lines.push(
    `          ${groupCount(agreeing)} of ${groupCount(total)} invoice lines agree with their calls to the micro-dollar`,
  );
  for (const line of open.slice(0, TERMINAL_LINES)) {
    const what =
      line.status === "differs"
        ? `${groupDigits(line.line_amount_usd)} USD invoiced, calls cost ${groupDigits(line.calls_cost_usd)} USD: ${signed(line.difference_usd)} USD`
        : `${groupDigits(line.line_amount_usd)} USD invoiced, no stored call billed on it`;
    lines.push(
      `          ${line.month} ${printable(line.invoice_number ?? line.invoice_id)} ${printable(line.invoice_item ?? "(no item)")}: ${what}`,
    );
  }
  if (open.length > TERMINAL_LINES)
    lines.push(`          and ${groupCount(open.length - TERMINAL_LINES)} more (see --json)`);
  const missing = figures.calls_not_invoiced;
  if (missing.calls > 0)
    lines.push(
      `          ${groupCount(missing.calls)} priced calls (${groupDigits(missing.cost_usd)} USD) are on no invoice line although their month has closed`,
    );
  return lines;
}

/** A difference with its sign always shown: "+1.23", "-4.5", "0". */
function signed(decimal: string): string {
  const grouped = groupDigits(decimal);
  return decimal.startsWith("-") || /^0(?:\.0*)?$/.test(decimal) ? grouped : `+${grouped}`;
}
