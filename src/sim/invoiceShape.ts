import { INVOICE_CURRENCIES, RATES_PER_HUNDRED } from "./currencyRates.js";
import type { SimulatorOptions } from "./types.js";

/**
 * Where the credits a period used show: "none" (default), the calls they paid carry no item and
 * are on no invoice; "line" or "discount", every priced call is on the invoice and the credits
 * applied are a negative line or a discount.
 */
export type CreditsOnInvoice = "none" | "line" | "discount";
/** A sales tax in the `tax` field ("amount"), as a line of its own ("line"), or none. */
export type InvoiceTax = "none" | "amount" | "line";
/** A 10% coupon off the invoice ("coupon"), off each usage line written gross or net, or none. */
export type InvoiceDiscount = "none" | "coupon" | "item-gross" | "item-net";

/** An invoice's currency: its code as Stripe writes it, and its rate from USD in hundredths. */
export interface InvoiceCurrency {
  code: string;
  perHundred: number;
}

export const USD: InvoiceCurrency = { code: "usd", perHundred: 100 };

/** The invoice shapes a simulator serves (SimulatorOptions' billing fields). */
export interface InvoiceShape {
  perCallItems: boolean;
  subscription: boolean;
  /** `lines` holds at most this many lines (undefined: all). */
  linesLimit: number | undefined;
  /** Draft, open, uncollectible and void invoices beside the paid ones. */
  statuses: boolean;
  plantDisagreement: boolean;
  plantUnlinedCall: boolean;
  plantExtraLine: boolean;
  credits: CreditsOnInvoice;
  tax: InvoiceTax;
  discount: InvoiceDiscount;
  /** A quarter of each account's oldest paid invoice refunded. */
  refund: boolean;
  /** Each account's newest closed invoice open and half paid (and, with statuses, the uncollectible one). */
  partialPayment: boolean;
  /** $5.00 of the customer's balance applied to each account's oldest invoice with a total. */
  customerBalance: boolean;
  currency: InvoiceCurrency;
  /** Each account's oldest invoice with usage voided and reissued with new items. */
  voidReissue: boolean;
}

const TAXES: readonly InvoiceTax[] = ["none", "amount", "line"];
const DISCOUNTS: readonly InvoiceDiscount[] = ["none", "coupon", "item-gross", "item-net"];

/** The invoice shape `options` ask for; a value the simulator cannot serve is a RangeError. */
export function invoiceShapeOf(options: SimulatorOptions, perCallItems: boolean): InvoiceShape {
  const linesLimit = options.invoiceLinesLimit;
  if (linesLimit !== undefined && !(Number.isSafeInteger(linesLimit) && linesLimit >= 1))
    throw new RangeError(`invoiceLinesLimit must be a whole number >= 1, not ${linesLimit}`);
  const tax = options.invoiceTax ?? "none";
  if (!TAXES.includes(tax)) throw new RangeError(`invoiceTax must be "amount" or "line", not ${tax}`);
  const discount = options.invoiceDiscount ?? "none";
  if (!DISCOUNTS.includes(discount))
    throw new RangeError(`invoiceDiscount must be "coupon", "item-gross" or "item-net", not ${discount}`);
  return {
    perCallItems,
    subscription: options.subscription ?? false,
    linesLimit,
    statuses: options.invoiceStatuses ?? false,
    plantDisagreement: options.invoiceDisagreement ?? false,
    plantUnlinedCall: options.missingInvoiceItem ?? false,
    plantExtraLine: options.extraInvoiceLine ?? false,
    credits: options.creditsOnInvoice ?? "none",
    tax,
    discount,
    refund: options.invoiceRefund ?? false,
    partialPayment: options.partialPayment ?? false,
    customerBalance: options.customerBalance ?? false,
    currency: invoiceCurrencyOf(options.invoiceCurrency),
    voidReissue: options.voidReissue ?? false,
  };
}

/** USD when no currency is asked for; else one of the table's (currencyRates.ts). */
function invoiceCurrencyOf(code: string | undefined): InvoiceCurrency {
  if (code === undefined) return USD;
  if (!Object.hasOwn(RATES_PER_HUNDRED, code))
    throw new RangeError(
      `invoiceCurrency must be one of ${INVOICE_CURRENCIES.join(", ")}, not ${JSON.stringify(code)}`,
    );
  return { code, perHundred: RATES_PER_HUNDRED[code as keyof typeof RATES_PER_HUNDRED] };
}
