import {
  balanceApplied,
  type InvoiceStatus,
  refundOf,
  type SimInvoiceLine,
  settle,
} from "./invoiceAmounts.js";
import { derivedStripeId } from "./invoiceItems.js";
import type { InvoiceShape } from "./invoiceShape.js";
import type { SimInvoice } from "./simInvoice.js";
import { US_PER_DAY } from "./time.js";

/** Whose listing, when, in which shape. */
export interface ListingContext {
  seed: number;
  account: string;
  nowUs: number;
  shape: InvoiceShape;
}

/** The statuses whose amounts are invoiced: a draft is not final yet, a void invoice never is. */
const FINAL: ReadonlySet<InvoiceStatus> = new Set(["open", "paid", "uncollectible"]);

/**
 * An account's invoices as the listing serves them, oldest first, from its closed invoices (paid as
 * built) and the open period's draft: the status each has, the copies the shape adds, and what each
 * was paid. With statuses, the oldest closed invoice was issued once before, as a void copy listed
 * before it; with voidReissue, the oldest invoice with usage was voided and its reissue follows it
 * a day later. A copy has its own invoice, line and item ids; the calls keep the items of the
 * invoice they were billed on (the void original's, not the reissue's).
 */
export function listedInvoices(
  context: ListingContext,
  closed: readonly SimInvoice[],
  draft: SimInvoice | null,
): SimInvoice[] {
  const { shape, nowUs } = context;
  const reissued = shape.voidReissue ? closed.findIndex(hasUsage) : -1;
  const listed: SimInvoice[] = [];
  closed.forEach((invoice, k) => {
    const status = statusOf(k, closed.length, shape);
    const reissue = k === reissued ? reissueOf(context, invoice) : undefined;
    // Voided once its reissue is out: until then it stands as issued.
    if (reissue !== undefined && reissue.createdUs <= nowUs)
      listed.push({ ...invoice, status: "void" }, { ...reissue, status });
    else listed.push({ ...invoice, status });
  });
  const [oldest] = closed;
  if (shape.statuses && oldest !== undefined && closed.length >= 2)
    listed.unshift({
      ...copyOf(context, oldest, "void"),
      id: derivedStripeId(context.seed, "in_1", `${context.account}#void`, oldest.month),
      number: `${oldest.number}-V`,
      status: "void",
    });
  if (draft !== null && draft.createdUs <= nowUs) listed.push(draft);
  return settled(context, listed);
}

/**
 * The k-th of n closed invoices' status: with statuses, the newest still open, the second
 * uncollectible; with a partial payment, the newest open; else paid.
 */
function statusOf(k: number, n: number, shape: InvoiceShape): InvoiceStatus {
  if ((shape.statuses || shape.partialPayment) && k === n - 1) return "open";
  if (shape.statuses && k === 1) return "uncollectible";
  return "paid";
}

/**
 * What each invoice was paid: the customer's balance goes to the oldest final invoice with a
 * positive total, half of what is due on the open and uncollectible ones with a partial payment,
 * and a quarter of the oldest paid invoice's payment is refunded (the first whose quarter is at
 * least a cent).
 */
function settled(context: ListingContext, listed: SimInvoice[]): SimInvoice[] {
  const { shape } = context;
  const credited = shape.customerBalance
    ? listed.findIndex((invoice) => FINAL.has(invoice.status) && invoice.charges.totalMicros > 0)
    : -1;
  const invoices = listed.map((invoice, k) => {
    const total = invoice.charges.totalMicros;
    const terms = {
      balanceMicros: k === credited ? balanceApplied(shape.currency, total) : 0,
      halfPaid: shape.partialPayment,
    };
    return { ...invoice, settlement: settle(total, invoice.status, terms) };
  });
  const refunded = shape.refund
    ? invoices.find((invoice) => invoice.status === "paid" && refundOf(invoice.settlement.paidMicros) > 0)
    : undefined;
  if (refunded !== undefined)
    refunded.settlement = {
      ...refunded.settlement,
      refundedMicros: refundOf(refunded.settlement.paidMicros),
    };
  return invoices;
}

function hasUsage(invoice: SimInvoice): boolean {
  return invoice.lines.some((line) => line.kind === "usage");
}

/** The reissue of a voided invoice: its own id and number, a day later, new lines and items. */
function reissueOf(context: ListingContext, invoice: SimInvoice): SimInvoice {
  return {
    ...copyOf(context, invoice, "reissue"),
    id: derivedStripeId(context.seed, "in_1", `${context.account}#reissue`, invoice.month),
    number: `${invoice.number}-R`,
    createdUs: invoice.createdUs + US_PER_DAY,
  };
}

/**
 * Another issue of an invoice: the same descriptions and amounts on new lines, each new item
 * derived from the old one (two lines of one item stay one item).
 */
function copyOf(context: ListingContext, invoice: SimInvoice, issue: string): SimInvoice {
  const lines = invoice.lines.map(
    (line): SimInvoiceLine => ({
      ...line,
      id: derivedStripeId(context.seed, "il_1", `${line.id}#${issue}`, 0),
      invoiceItem:
        line.invoiceItem === undefined
          ? undefined
          : derivedStripeId(context.seed, "ii_1", `${line.invoiceItem}#${issue}`, 0),
    }),
  );
  return { ...invoice, lines };
}
