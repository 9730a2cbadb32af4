import { COUPON_PERCENT } from "./invoiceAmounts.js";
import type { InvoiceShape } from "./invoiceShape.js";
import type { SimInvoice } from "./simInvoice.js";
import { formatMicros } from "./time.js";

/** Micro-dollars as the exact decimal text of a JSON number ("12.3", "0"). */
export function microsText(micros: number): string {
  const negative = micros < 0;
  const magnitude = Math.abs(micros);
  const whole = Math.floor(magnitude / 1_000_000);
  const fraction = String(magnitude - whole * 1_000_000)
    .padStart(6, "0")
    .replace(/0+$/, "");
  const text = fraction === "" ? String(whole) : `${whole}.${fraction}`;
  return negative && magnitude !== 0 ? `-${text}` : text;
}

/** The 10% coupon of SimulatorOptions.invoiceDiscount, the same Discount whichever way it applies. */
const COUPON = `{"coupon":{"amount_off":null,"id":"coupon-${COUPON_PERCENT}-off","metadata":{},"name":"${COUPON_PERCENT}% off","percent_off":${COUPON_PERCENT}}}`;

/**
 * One Invoice as the spec describes it. Money is written as JSON numbers with the exact decimal
 * text (format money-usd), in the invoice's currency; the fields the spec makes optional without a
 * default that Zoo leaves out when Stripe has none (discounts, default_payment_method,
 * receipt_number) are left out too. `subtotal` and `total` are the whole invoice's, even when
 * `lines` holds only its first lines (`shape.linesLimit`).
 */
export function invoiceJson(
  invoice: SimInvoice,
  shape: Pick<InvoiceShape, "linesLimit" | "discount">,
): string {
  const { charges, settlement, currency } = invoice;
  const discounts = [
    // The credits applied as a Discount (spec): a coupon of that amount off.
    ...(charges.creditsDiscountMicros === 0
      ? []
      : [
          `{"coupon":{"amount_off":${microsText(charges.creditsDiscountMicros)},"id":"credits-${invoice.id}","metadata":{},"name":"API credits","percent_off":null}}`,
        ]),
    ...(shape.discount === "none" ? [] : [COUPON]),
  ];
  const shown = shape.linesLimit === undefined ? invoice.lines : invoice.lines.slice(0, shape.linesLimit);
  const lines = shown.map((line) => {
    const item = line.invoiceItem === undefined ? "" : `,"invoice_item":"${line.invoiceItem}"`;
    return `{"amount":${microsText(line.amountMicros)},"currency":"${currency}","description":${JSON.stringify(line.description)},"id":"${line.id}"${item},"metadata":{}}`;
  });
  const final = invoice.status !== "draft";
  const fields = [
    `"amount_due":${microsText(settlement.dueMicros)}`,
    `"amount_paid":${microsText(settlement.paidMicros)}`,
    `"amount_refunded":${microsText(settlement.refundedMicros)}`,
    `"amount_remaining":${microsText(settlement.remainingMicros)}`,
    `"attempt_count":${final ? 1 : 0}`,
    `"attempted":${final}`,
    `"billing_reason":"${invoice.subscriptionId === null ? "manual" : "subscription_cycle"}"`,
    `"collection_method":"charge_automatically"`,
    `"created_at":"${formatMicros(invoice.createdUs).replace(/\.\d+Z$/, "Z")}"`,
    `"currency":"${currency}"`,
    ...(invoice.customerEmail === undefined
      ? []
      : [`"customer_email":${JSON.stringify(invoice.customerEmail)}`]),
    `"customer_id":"${invoice.customerId}"`,
    `"description":"Zoo API usage"`,
    ...(discounts.length === 0 ? [] : [`"discounts":[${discounts.join(",")}]`]),
    `"id":"${invoice.id}"`,
    `"lines":[${lines.join(",")}]`,
    `"metadata":{}`,
    `"number":"${invoice.number}"`,
    `"paid":${invoice.status === "paid"}`,
    `"pdf":"https://pay.stripe.com/invoice/${invoice.id}/pdf"`,
    `"refund_status":${settlement.refundedMicros > 0 ? '"partially_refunded"' : "null"}`,
    `"statement_descriptor":"ZOO API"`,
    `"status":"${invoice.status}"`,
    `"subscription_id":${invoice.subscriptionId === null ? "null" : `"${invoice.subscriptionId}"`}`,
    `"subtotal":${microsText(charges.subtotalMicros)}`,
    `"tax":${microsText(charges.taxMicros)}`,
    `"total":${microsText(charges.totalMicros)}`,
    `"url":"https://invoice.stripe.com/i/${invoice.id}"`,
  ];
  return `{${fields.join(",")}}`;
}
