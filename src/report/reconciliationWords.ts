import { cents, isZero, signedCents } from "./cents.js";
import type { CallClassFigure, InvoiceLineFigure, InvoiceMonthFigure } from "./readInvoiceFigures.js";
import { groupCount } from "./usd.js";

/**
 * The reconciliation's classes and reasons in words a finance reader uses, for the terminal and
 * the page alike (the views' codes stay in --json).
 */

/** A class of calls that are not invoiced. */
export function classText(billingClass: CallClassFigure["billing_class"]): string {
  if (billingClass === "not_billed") return "Not billed (paid by API credits or a free allowance)";
  if (billingClass === "awaiting_invoice") return "Awaiting an invoice";
  return "Unexplained";
}

const REASONS: Record<string, string> = {
  no_invoice_item: "the calls carry no invoice item",
  billing_pending: "their billing has not completed",
  month_open: "their month is not invoiced yet",
  invoice_draft: "their invoice is still a draft",
  invoice_void: "their invoice was voided and not reissued",
  reissued: "on the invoice that reissued their void one",
  other_currency: "on an invoice in another currency, not comparable with their USD price",
  billed_late: "billed after their month's invoice, due on the next one",
  invoice_incomplete: "on an invoice whose lines, as the API lists them, fall short of its subtotal",
  item_not_on_any_line: "their invoice item is on no line of their whole, final invoice",
};

/** Why calls are in their class. */
export function reasonText(reason: string): string {
  return REASONS[reason] ?? reason;
}

/** A month's status in a few words. */
export function monthStatusText(month: InvoiceMonthFigure): string {
  if (month.status === "differs") {
    const parts = [];
    if (month.unexplained_calls > 0) parts.push(`${groupCount(month.unexplained_calls)} calls`);
    if (month.lines_differing > 0) parts.push(`${groupCount(month.lines_differing)} lines`);
    return `check ${parts.join(" and ")}`;
  }
  if (month.status === "calls_missing") return "calls missing";
  if (month.status === "other_currency") return "invoiced in another currency";
  if (month.status === "not_invoiced") return "not invoiced yet";
  if (month.status === "awaiting") return "part awaiting";
  return "all explained";
}

/** What a usage line that disagrees bills against its calls. */
export function lineText(line: InvoiceLineFigure): string {
  const sign = signedCents(line.difference);
  const net = isZero(line.item_discount) ? "" : ` less a ${cents(line.item_discount)} item discount`;
  const calls = `its ${groupCount(line.calls)} calls cost ${cents(line.calls_cost_usd)}${net} (${sign})`;
  if (line.item_lines > 1)
    return `${line.line_class === "reissued_usage" ? "the reissue bills them" : "the item is billed"} on ${groupCount(line.item_lines)} lines, ${cents(line.item_lines_amount)} together; ${calls}`;
  return `bills ${cents(line.line_amount)}; ${calls}`;
}

/** An other charge or credit, named by its description. */
const LINE_KINDS: Record<string, string> = {
  credit: "credit or discount",
  tax: "tax",
  rejected_usage: "usage of calls the export rejected",
  other_charge: "other charge",
};

export function otherLineText(line: InvoiceLineFigure): string {
  const kind = LINE_KINDS[line.line_class] ?? line.line_class;
  return `${line.description ?? kind} (${kind})`;
}
