import { expect } from "vitest";
import { JsonNumberText } from "../../src/api/exactJson.js";
import type { Invoice } from "../../src/api/schemas/index.js";
import type { SimulatorOptions } from "../../src/sim/index.js";
import { micros } from "./billingTruth.js";

/**
 * What every invoice of a listing must satisfy, whatever the shape, from its JSON alone: the
 * subtotal is its lines (less the item discounts written gross), the total the subtotal less the
 * invoice-level discounts plus the tax, what was paid and what remains add up to what is due, at
 * most what was paid is refunded, a reissue repeats its void original's amounts, and no line or
 * item id is on two invoices. The rules are written here again, apart from the simulator's code:
 * rates and percentages as docs/simulator-billing.md gives them.
 */

/** Each currency's rate from USD, in hundredths. */
const RATES: Record<string, bigint> = { usd: 100n, eur: 92n, gbp: 79n, cad: 136n };
const TAX_LINE = "Sales tax (8.25%)";

/** A planted difference, in the invoice's currency, on line `index` of the invoice `number` (and its copies). */
export interface PlantedLine {
  number: string;
  index: number;
  micros: bigint;
}

/** micros x numerator / denominator to the cent, half up (by magnitude). */
export function cents(value: bigint, numerator = 1n, denominator = 1n): bigint {
  const magnitude = value < 0n ? -value : value;
  const unit = denominator * 10_000n;
  const rounded = ((magnitude * numerator + unit / 2n) / unit) * 10_000n;
  return value < 0n ? -rounded : rounded;
}

/** A USD amount in the currency, as the simulator converts a line. */
export function converted(currency: string, usd: bigint): bigint {
  const rate = RATES[currency] ?? 0n;
  return rate === 100n ? usd : cents(usd, rate, 100n);
}

function couponsOf(invoice: Invoice): { id: string; amountOff: bigint | null; percentOff: unknown }[] {
  return (
    (invoice.discounts ?? []) as { coupon: { id: string; amount_off: unknown; percent_off: unknown } }[]
  ).map(({ coupon }) => ({
    id: coupon.id,
    amountOff: coupon.amount_off === null ? null : micros(coupon.amount_off),
    percentOff: coupon.percent_off instanceof JsonNumberText ? coupon.percent_off.text : coupon.percent_off,
  }));
}

/** Checks one listing's invoices (oldest first) against the rules of the shape `options` asks for. */
export function expectInvoiceIdentities(
  invoices: readonly Invoice[],
  options: SimulatorOptions,
  planted?: PlantedLine,
): void {
  const currency = options.invoiceCurrency ?? "usd";
  const discount = options.invoiceDiscount ?? "none";
  const tax = options.invoiceTax ?? "none";
  let creditedSeen = false;
  let refundedSeen = false;
  let finalWithTotalSeen = false;
  let paidWithRefundSeen = false;
  const lineIds = new Set<string>();
  const itemInvoice = new Map<string, string>();
  invoices.forEach((invoice, n) => {
    const at = `${invoice.number} (${invoice.status})`;
    expect(invoice.currency, at).toBe(currency);
    const lines = invoice.lines;
    for (const line of lines) {
      expect(line.currency, at).toBe(currency);
      expect(lineIds.has(line.id ?? ""), `${at}: line ${line.id} listed twice`).toBe(false);
      lineIds.add(line.id ?? "");
      const item = line.invoice_item;
      if (item === undefined) continue;
      // An item is on one invoice only (two lines of it on one invoice: the planted extra line).
      expect(itemInvoice.get(item) ?? invoice.id, `${at}: item ${item}`).toBe(invoice.id);
      itemInvoice.set(item, invoice.id ?? "");
    }
    const subtotal = micros(invoice.subtotal);
    const cut = options.invoiceLinesLimit !== undefined && lines.length >= options.invoiceLinesLimit;
    if (!cut) {
      const sum = lines.reduce((total, line) => total + micros(line.amount), 0n);
      expect(subtotal, `${at}: subtotal`).toBe(
        sum - (discount === "item-gross" ? itemDiscounts(invoice, planted) : 0n),
      );
    }
    const coupons = couponsOf(invoice);
    const creditsOff = coupons
      .filter((coupon) => coupon.id.startsWith("credits-"))
      .reduce((sum, coupon) => sum + (coupon.amountOff ?? 0n), 0n);
    expect(
      coupons.some((coupon) => coupon.id === "coupon-10-off" && coupon.percentOff === "10"),
      at,
    ).toBe(discount !== "none");
    const taxLines = lines.filter((line) => line.description === TAX_LINE && line.invoice_item === undefined);
    const taxLine = taxLines.reduce((sum, line) => sum + micros(line.amount), 0n);
    const coupon = discount === "coupon" ? cents(subtotal - taxLine - creditsOff, 10n, 100n) : 0n;
    const taxable = subtotal - taxLine - creditsOff - coupon;
    const expectedTax = tax !== "none" && taxable > 0n ? cents(taxable, 825n, 10_000n) : 0n;
    const taxField = micros(invoice.tax);
    expect(taxField, `${at}: tax`).toBe(tax === "amount" ? expectedTax : 0n);
    expect(taxLine, `${at}: tax line`).toBe(tax === "line" ? expectedTax : 0n);
    if (taxLines.length > 0) expect(lines.indexOf(taxLines[0] as (typeof lines)[number]), at).toBe(0);
    const total = micros(invoice.total);
    expect(total, `${at}: total`).toBe(subtotal - creditsOff - coupon + taxField);
    expect(total, `${at}: total`).toBeGreaterThanOrEqual(0n);

    const due = micros(invoice.amount_due);
    const paid = micros(invoice.amount_paid);
    const remaining = micros(invoice.amount_remaining);
    const refunded = micros(invoice.amount_refunded);
    const final =
      invoice.status === "open" || invoice.status === "paid" || invoice.status === "uncollectible";
    // The customer's balance pays part of the oldest final invoice with a total, and only it.
    const balance = total - due;
    const credited = options.customerBalance === true && final && total > 0n && !finalWithTotalSeen;
    if (final && total > 0n) finalWithTotalSeen = true;
    expect(balance, `${at}: balance applied`).toBe(
      credited ? (total < converted(currency, 5_000_000n) ? total : converted(currency, 5_000_000n)) : 0n,
    );
    creditedSeen ||= credited;
    if (invoice.status === "void") expect([paid, remaining], at).toEqual([0n, 0n]);
    else expect(paid + remaining, `${at}: paid + remaining`).toBe(due);
    if (invoice.status === "paid") expect([paid, invoice.paid], at).toEqual([due, true]);
    else expect(invoice.paid, at).toBe(false);
    if (invoice.status === "open" || invoice.status === "uncollectible")
      expect(paid, `${at}: paid`).toBe(options.partialPayment ? (due / 2n / 10_000n) * 10_000n : 0n);
    if (invoice.status === "draft") expect(paid, at).toBe(0n);
    // A quarter of the oldest paid invoice's payment is refunded (the first whose quarter is a cent or more).
    const refundable = invoice.status === "paid" && cents(paid, 1n, 4n) > 0n;
    const refundHere = options.invoiceRefund === true && refundable && !paidWithRefundSeen;
    if (refundable) paidWithRefundSeen = true;
    expect(refunded, `${at}: refunded`).toBe(refundHere ? cents(paid, 1n, 4n) : 0n);
    expect(refunded <= paid, at).toBe(true);
    expect(invoice.refund_status ?? null, at).toBe(refundHere ? "partially_refunded" : null);
    refundedSeen ||= refundHere;

    if (invoice.number?.endsWith("-R")) {
      const original = invoices[n - 1];
      expect(original?.number, at).toBe(invoice.number.slice(0, -2));
      expect(original?.status, at).toBe("void");
      expect(Date.parse(invoice.created_at) - Date.parse(original?.created_at ?? "")).toBe(86_400_000);
      const shape = (of: Invoice | undefined) => of?.lines.map((line) => [line.description, line.amount]);
      expect(shape(invoice), at).toEqual(shape(original));
      expect([invoice.subtotal, invoice.total, invoice.tax], at).toEqual([
        original?.subtotal,
        original?.total,
        original?.tax,
      ]);
    }
  });
  if (options.customerBalance && finalWithTotalSeen) expect(creditedSeen).toBe(true);
  if (options.invoiceRefund && paidWithRefundSeen) expect(refundedSeen).toBe(true);
}

/**
 * The item discounts of an invoice whose usage lines are written gross: 10% of each usage line
 * (a line naming an item, positive, not a second line of an item), less any planted difference.
 */
function itemDiscounts(invoice: Invoice, planted: PlantedLine | undefined): bigint {
  const seen = new Set<string>();
  let sum = 0n;
  invoice.lines.forEach((line, k) => {
    const item = line.invoice_item;
    const amount = micros(line.amount);
    if (item === undefined || seen.has(item)) return;
    seen.add(item);
    if (amount <= 0n) return;
    const plant = planted !== undefined && invoice.number?.startsWith(planted.number) && k === planted.index;
    sum += cents(amount - (plant ? planted.micros : 0n), 10n, 100n);
  });
  return sum;
}
