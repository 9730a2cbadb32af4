import { escapeHtml as esc } from "./escapeHtml.js";
import { table } from "./htmlParts.js";
import type { InvoiceFigures } from "./readInvoiceFigures.js";
import { groupCount, groupDigits, signedDigits } from "./usd.js";

/** The invoices section: monthly spend with the invoice beside it, then the lines that do not agree. */
export function invoicesSection(figures: InvoiceFigures | null): string {
  if (figures === null) return "";
  const months = table(
    ["month (UTC)", "calls", "usage USD", "invoiced USD", "difference USD", "lines differing"],
    figures.months.map((month) => [
      month.month,
      groupCount(month.calls),
      groupDigits(month.usage_cost_usd),
      // No invoice line yet: its spend is not a shortfall (monthly_reconciliation shows it as one).
      month.invoice_lines === 0 ? "not invoiced yet" : groupDigits(month.invoiced_usd),
      month.invoice_lines === 0 ? "-" : signedDigits(month.difference_usd),
      groupCount(month.lines_differing),
    ]),
    ["nowrap", "num", "num", "num", "num", "num"],
  );
  const { in_period: total, agreeing, not_agreeing: open } = figures.lines;
  const openTable =
    open.length === 0
      ? ""
      : table(
          [
            "month",
            "invoice",
            "invoice item",
            "status",
            "invoiced USD",
            "calls",
            "calls USD",
            "difference USD",
          ],
          open.map((line) => [
            line.month,
            line.invoice_number ?? line.invoice_id,
            line.invoice_item ?? "-",
            line.status,
            groupDigits(line.line_amount_usd),
            groupCount(line.calls),
            groupDigits(line.calls_cost_usd),
            signedDigits(line.difference_usd),
          ]),
          ["nowrap", "nowrap", "wrap", "nowrap", "num", "num", "num", "num"],
        );
  const missing = figures.calls_not_invoiced;
  const missingNote =
    missing.calls === 0
      ? ""
      : `<p>${esc(`${groupCount(missing.calls)} priced calls (${groupDigits(missing.cost_usd)} USD) are on no invoice line although their month has closed (view calls_not_invoiced).`)}</p>`;
  return `<section><h2>Invoices against spend</h2>${months}
<p class="note">${esc(`Difference = invoiced - usage, exact (+: invoiced more than the calls cost). ${groupCount(agreeing)} of ${groupCount(total)} invoice lines agree with the calls billed on their item to the micro-dollar.`)}</p>${openTable}${missingNote}</section>`;
}
