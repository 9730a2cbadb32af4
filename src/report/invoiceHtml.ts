import { escapeHtml as esc } from "./escapeHtml.js";
import { exactTable, money, moneyText, signedMoney } from "./htmlExactTable.js";
import type { InvoiceFigures } from "./readInvoiceFigures.js";
import { classText, lineText, monthStatusText, otherLineText, reasonText } from "./reconciliationWords.js";
import { groupCount } from "./usd.js";

/**
 * The invoices section: each month's usage split into the classes that add up to it, what the
 * classes mean, the usage lines and calls that make an unexplained amount, and the other charges
 * and credits, shown apart. Amounts in cents, the exact value on hover.
 */
export function invoicesSection(figures: InvoiceFigures | null): string {
  if (figures === null) return "";
  const months = exactTable(
    [
      "month (UTC)",
      "calls",
      "usage USD",
      "invoiced USD",
      "not billed USD",
      "awaiting USD",
      "unexplained USD",
      "",
    ],
    figures.months.map((month) => [
      month.month,
      groupCount(month.calls),
      money(month.usage_cost_usd),
      money(month.invoiced_usage_usd),
      money(month.not_billed_usd),
      money(month.awaiting_usd),
      money(month.unexplained_usd),
      monthStatusText(month),
    ]),
    ["nowrap", "num", "num", "num", "num", "num", "num", "nowrap"],
  );
  const classes = figures.not_invoiced.map(
    (group) =>
      `<li>${esc(`${classText(group.billing_class)}, ${reasonText(group.reason)}: ${groupCount(group.calls)} calls, `)}${moneyText(group.cost_usd)} USD.</li>`,
  );
  const credits = figures.months
    .filter((month) => month.credits_paid_usd !== undefined)
    .map(
      (month) =>
        `<li>${esc(`${month.month}: the balance snapshots show credits paying `)}${moneyText(month.credits_paid_usd ?? "0")} of the ${moneyText(month.not_billed_usd)} USD not billed${month.monthly_allowance_usd === undefined ? "" : ` (the plan's monthly allowance is ${moneyText(month.monthly_allowance_usd)} USD)`}.</li>`,
    );
  const { usage_lines: total, agreeing, not_agreeing: open, other } = figures.lines;
  const lineTable =
    open.length === 0
      ? ""
      : exactTable(
          ["month", "invoice", "invoice item", "line USD", "calls", "calls USD", "unexplained USD", ""],
          open.map((line) => [
            line.month,
            line.invoice_number ?? line.invoice_id,
            line.invoice_item ?? "-",
            money(line.line_amount_usd),
            groupCount(line.calls),
            money(line.calls_cost_usd),
            signedMoney(line.difference_usd),
            lineText(line),
          ]),
          ["nowrap", "nowrap", "wrap", "num", "num", "num", "num", "wrap"],
        );
  const callTable =
    figures.unexplained_calls.length === 0
      ? ""
      : `<p>${esc("Unexplained calls: their invoice item is on no line of their whole, final invoice.")}</p>${exactTable(
          ["call", "created (UTC)", "USD", "invoice item", "invoice"],
          figures.unexplained_calls.map((call) => [
            call.id,
            call.created_at,
            money(call.price_usd),
            call.invoice_item ?? "-",
            call.invoice_id ?? "-",
          ]),
          ["nowrap", "nowrap", "num", "wrap", "nowrap"],
        )}`;
  const otherTable =
    other.length === 0
      ? ""
      : `<p>${esc("Other charges and credits on the invoices: not usage, never a difference.")}</p>${exactTable(
          ["month", "invoice", "line", "USD"],
          other.map((line) => [
            line.month,
            line.invoice_number ?? line.invoice_id,
            otherLineText(line),
            money(line.line_amount_usd),
          ]),
          ["nowrap", "nowrap", "wrap", "num"],
        )}`;
  return `<section><h2>Invoices against spend</h2>${months}
<p class="note">${esc(`Each month's usage = invoiced + not billed + awaiting an invoice + unexplained, exactly. Amounts to the cent; hover for the exact value. ${groupCount(agreeing)} of ${groupCount(total)} usage lines agree with the calls billed on their item to the micro-dollar.`)}</p>${
    classes.length + credits.length === 0 ? "" : `<ul>${[...classes, ...credits].join("")}</ul>`
  }${lineTable}${callTable}${otherTable}</section>`;
}
