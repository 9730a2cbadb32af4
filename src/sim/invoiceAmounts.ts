import { centsDown, centsHalfUp } from "./centRounding.js";
import type { InvoiceCurrency, InvoiceShape } from "./invoiceShape.js";

/**
 * The invoice arithmetic, in one place: from an invoice's lines as the ledger gives them (USD) and
 * the shape, the lines as written (converted, discounted, taxed) and the amounts of the invoice
 * (subtotal, discounts, tax, total); then from its status what is due, paid, remaining and
 * refunded. Rules from the spec's Invoice: `subtotal` is "before any invoice level discount or tax
 * is applied. Item discounts are already incorporated", `total` is "after discounts and taxes",
 * `amount_due` may be less when "there is account credit that can be applied to the invoice".
 * Every derived amount is rounded to the cent (centRounding.ts).
 */

/** Sales tax: 8.25%, in ten-thousandths. */
const TAX_PER_10000 = 825;
const TAX_LINE_DESCRIPTION = "Sales tax (8.25%)";
/** The coupon's percentage, off the invoice or off each usage line. */
/** A Stripe invoice's status. */
export type InvoiceStatus = "draft" | "open" | "paid" | "uncollectible" | "void";

export const COUPON_PERCENT = 10;
/** The customer's balance applied by SimulatorOptions.customerBalance: $5.00, a credit. */
const CUSTOMER_BALANCE_MICROS = 5_000_000;

/**
 * usage: a line whose item the calls carry; extra: the planted second line of an item (no item
 * discount); credits: the negative "API credits applied" line; tax: the sales tax as a line;
 * subscription: the plan's line, last, with no item.
 */
export type LineKind = "usage" | "extra" | "credits" | "tax" | "subscription";

/** A line before the shape's arithmetic: its amount in USD, as the ledger gives it. */
export interface LineDraft {
  id: string;
  invoiceItem: string | undefined;
  description: string;
  kind: Exclude<LineKind, "tax">;
  usdMicros: number;
  /** A planted difference (USD), added once the item discount is known. */
  plantedUsdMicros: number;
}

/** One invoice line as written; a subscription or tax line has no invoice item. */
export interface SimInvoiceLine {
  id: string;
  invoiceItem: string | undefined;
  description: string;
  kind: LineKind;
  /** In the invoice's currency; with item-net, net of the item discount. */
  amountMicros: number;
  /** The line's item discount (usage lines, with item discounts; else 0). */
  itemDiscountMicros: number;
}

/** An invoice's amounts, in its currency; total = subtotal - credits discount - coupon + tax. */
export interface InvoiceCharges {
  /** Every line (also those `lines` leaves out when cut), less the item discounts written gross. */
  subtotalMicros: number;
  /** The credits applied as a discount (creditsOnInvoice "discount"), else 0. */
  creditsDiscountMicros: number;
  /** The invoice-level 10% coupon (invoiceDiscount "coupon"), else 0. */
  couponMicros: number;
  /** The `tax` field: 0 when there is none or it is a line. */
  taxMicros: number;
  totalMicros: number;
}

export interface InvoiceSettlement {
  dueMicros: number;
  paidMicros: number;
  remainingMicros: number;
  refundedMicros: number;
}

/** What the listing adds to an invoice's status: the customer balance applied, a partial payment. */
export interface SettlementTerms {
  balanceMicros: number;
  /** An open or uncollectible invoice has half of its amount due paid. */
  halfPaid: boolean;
}

/** Nothing applied from the balance, nothing paid in part. */
export const PLAIN_SETTLEMENT: SettlementTerms = { balanceMicros: 0, halfPaid: false };

/** A USD amount in the invoice's currency, to the cent half up; a USD amount as it is. */
export function convertMicros(currency: InvoiceCurrency, usdMicros: number): number {
  return currency.perHundred === 100 ? usdMicros : centsHalfUp(usdMicros, currency.perHundred, 100);
}

/**
 * The lines as written and the invoice's amounts. Each line is converted on its own; an item
 * discount is 10% of a usage line's converted amount; a planted difference comes after it. The
 * credits applied (as a line or a discount) are at most what the usage lines charge once
 * discounted, so that no invoice falls below zero. The coupon is 10% of the subtotal less the
 * credits discount, applied after it (Stripe applies an invoice's discounts in their order), the
 * tax 8.25% of what is left, and a tax line is placed first (the newest invoice item).
 */
export function chargeLines(
  drafts: readonly LineDraft[],
  creditsDiscountUsd: number,
  shape: Pick<InvoiceShape, "currency" | "tax" | "discount">,
  taxLineId: string,
): { lines: SimInvoiceLine[]; charges: InvoiceCharges } {
  const { currency } = shape;
  const itemDiscounts = shape.discount === "item-gross" || shape.discount === "item-net";
  const written = drafts.map((draft): SimInvoiceLine => {
    const gross = convertMicros(currency, draft.usdMicros);
    const itemDiscount =
      itemDiscounts && draft.kind === "usage" ? centsHalfUp(gross, COUPON_PERCENT, 100) : 0;
    const net = shape.discount === "item-net" ? gross - itemDiscount : gross;
    const { id, invoiceItem, description, kind } = draft;
    const amountMicros = net + convertMicros(currency, draft.plantedUsdMicros);
    return { id, invoiceItem, description, kind, amountMicros, itemDiscountMicros: itemDiscount };
  });
  const charged = (line: SimInvoiceLine) =>
    line.amountMicros - (shape.discount === "item-gross" ? line.itemDiscountMicros : 0);
  const usageCharged = written
    .filter((line) => line.kind === "usage" || line.kind === "extra")
    .reduce((sum, line) => sum + charged(line), 0);
  const creditsApplied = (micros: number) => Math.min(micros, Math.max(0, usageCharged));
  const lines = written.flatMap((line) => {
    if (line.kind !== "credits") return [line];
    const applied = creditsApplied(-line.amountMicros);
    return applied > 0 ? [{ ...line, amountMicros: -applied }] : [];
  });
  const creditsDiscountMicros = creditsApplied(convertMicros(currency, creditsDiscountUsd));
  const beforeTax = lines.reduce((sum, line) => sum + charged(line), 0);
  const couponMicros =
    shape.discount === "coupon"
      ? centsHalfUp(Math.max(0, beforeTax - creditsDiscountMicros), COUPON_PERCENT, 100)
      : 0;
  const taxable = beforeTax - creditsDiscountMicros - couponMicros;
  const tax = shape.tax !== "none" && taxable > 0 ? centsHalfUp(taxable, TAX_PER_10000, 10_000) : 0;
  if (shape.tax === "line" && tax > 0)
    lines.unshift({
      id: taxLineId,
      invoiceItem: undefined,
      description: TAX_LINE_DESCRIPTION,
      kind: "tax",
      amountMicros: tax,
      itemDiscountMicros: 0,
    });
  const subtotalMicros = beforeTax + (shape.tax === "line" ? tax : 0);
  const taxMicros = shape.tax === "amount" ? tax : 0;
  const totalMicros = subtotalMicros - creditsDiscountMicros - couponMicros + taxMicros;
  return { lines, charges: { subtotalMicros, creditsDiscountMicros, couponMicros, taxMicros, totalMicros } };
}

/**
 * Due, paid and remaining for an invoice of this total and status, nothing refunded yet. amount_due
 * is the total less the customer balance applied; a paid invoice paid it all, an open or
 * uncollectible one nothing (or half, rounded down to the cent, with a partial payment), a draft
 * nothing yet, and a void one nothing, with nothing remaining.
 */
export function settle(
  totalMicros: number,
  status: InvoiceStatus,
  terms: SettlementTerms,
): InvoiceSettlement {
  const dueMicros = totalMicros - terms.balanceMicros;
  let paidMicros = 0;
  if (status === "paid") paidMicros = dueMicros;
  else if ((status === "open" || status === "uncollectible") && terms.halfPaid)
    paidMicros = centsDown(dueMicros, 1, 2);
  const remainingMicros = status === "void" ? 0 : dueMicros - paidMicros;
  return { dueMicros, paidMicros, remainingMicros, refundedMicros: 0 };
}

/**
 * The refund of an invoice that paid this much: a quarter, to the cent half up (a Stripe refund
 * changes no other amount of an invoice).
 */
export function refundOf(paidMicros: number): number {
  return centsHalfUp(paidMicros, 1, 4);
}

/** What $5.00 of the customer's balance covers of an invoice's total, in its currency. */
export function balanceApplied(currency: InvoiceCurrency, totalMicros: number): number {
  return Math.min(totalMicros, convertMicros(currency, CUSTOMER_BALANCE_MICROS));
}
