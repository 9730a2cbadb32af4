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
  if (month.status === "not_invoiced") return "not invoiced yet";
  if (month.status === "awaiting") return "part awaiting";
  return "all explained";
}

/** What a usage line that disagrees bills against its calls. */
export function lineText(line: InvoiceLineFigure): string {
  const sign = signedCents(line.difference_usd);
  const calls = `its ${groupCount(line.calls)} calls cost ${cents(line.calls_cost_usd)} (${sign})`;
  if (line.item_lines > 1)
    return `the item is billed on ${groupCount(line.item_lines)} lines, ${cents(line.item_lines_usd)} together; ${calls}`;
  return `bills ${cents(line.line_amount_usd)}; ${calls}`;
}

/** An other charge or credit, named by its description. */
export function otherLineText(line: InvoiceLineFigure): string {
  const kind = line.line_class === "credit" ? "credit or discount" : "other charge";
  return `${line.description ?? kind} (${kind})`;
}

/** Whether a month has anything unexplained. */
export function hasUnexplained(month: InvoiceMonthFigure): boolean {
  return !isZero(month.unexplained_usd) || month.lines_differing > 0;
}
