import type { InvoiceCharges, InvoiceSettlement, InvoiceStatus, SimInvoiceLine } from "./invoiceAmounts.js";

/** One invoice: an account's invoice period, all its lines, its amounts and what was paid. */
export interface SimInvoice {
  id: string;
  number: string;
  customerId: string;
  customerEmail: string | undefined;
  month: number;
  createdUs: number;
  status: InvoiceStatus;
  subscriptionId: string | null;
  /** Stripe's lowercase currency code ("usd"), of the invoice and of every line. */
  currency: string;
  /** Every line, also those `lines` leaves out when cut (SimulatorOptions.invoiceLinesLimit). */
  lines: SimInvoiceLine[];
  charges: InvoiceCharges;
  settlement: InvoiceSettlement;
}
