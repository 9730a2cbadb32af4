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
  const usd = figures.months.filter((month) => month.currency === "USD");
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
    usd.map((month) => [
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
  const credits = usd
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
          ["month", "invoice", "invoice item", "line", "calls", "calls USD", "unexplained", ""],
          open.map((line) => [
            line.month,
            line.invoice_number ?? line.invoice_id,
            line.invoice_item ?? "-",
            money(line.line_amount, line.currency),
            groupCount(line.calls),
            money(line.calls_cost_usd),
            signedMoney(line.difference, line.currency),
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
      : `<p>${esc("Other lines of the invoices (other charges, credits, tax, usage of rejected calls): never a difference.")}</p>${exactTable(
          ["month", "invoice", "line", "amount", "currency"],
          other.map((line) => [
            line.month,
            line.invoice_number ?? line.invoice_id,
            otherLineText(line),
            money(line.line_amount, line.currency),
            line.currency,
          ]),
          ["nowrap", "nowrap", "wrap", "num", "nowrap"],
        )}`;
  return `<section><h2>Invoices against spend</h2>${months}
<p class="note">${esc(`Each month's usage = invoiced + not billed + awaiting an invoice + unexplained, exactly. Amounts to the cent; hover for the exact value. ${groupCount(agreeing)} of ${groupCount(total)} usage lines agree with the calls billed on their item to the micro-dollar.`)}</p>${
    classes.length + credits.length === 0 ? "" : `<ul>${[...classes, ...credits].join("")}</ul>`
  }${lineTable}${callTable}${otherTable}${booksTable(figures)}</section>`;
}

/** What the invoices charged each month, and how it was settled, in each invoice's currency. */
function booksTable(figures: InvoiceFigures): string {
  const invoiced = figures.months.filter((month) => month.invoices > 0);
  if (invoiced.length === 0) return "";
  return `<h3>${esc("Charged, paid and owed")}</h3>${exactTable(
    [
      "month (UTC)",
      "currency",
      "charged",
      "of it usage",
      "discounts",
      "tax",
      "other charges",
      "paid",
      "refunded",
      "still owed",
      "written off",
    ],
    invoiced.map((month) => {
      const cell = (amount: string) => money(amount, month.currency);
      return [
        month.month,
        month.currency,
        cell(month.charged),
        cell(month.usage_lines),
        cell(month.discounts),
        cell(month.tax),
        cell(month.other_charges),
        cell(month.paid),
        cell(month.refunded),
        cell(month.outstanding),
        cell(month.written_off),
      ];
    }),
    ["nowrap", "nowrap", "num", "num", "num", "num", "num", "num", "num", "num", "num"],
  )}<p class="note">${esc("Charged is each invoice's total, after discounts and tax; still owed is what open invoices have not been paid; written off is what uncollectible invoices left unpaid.")}</p>`;
}
