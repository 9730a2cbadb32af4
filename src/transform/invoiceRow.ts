import { z } from "zod";
import { stringifyWithNumberTexts } from "../api/exactJson.js";
import {
  INVOICE_FIELDS,
  INVOICE_LINE_FIELDS,
  type Invoice,
  type InvoiceLineItem,
  InvoiceSchema,
} from "../api/schemas/index.js";
import { storableText } from "./limits.js";

/** A column's SQL type, which decides how its bound value is cast (money: exact text to DECIMAL). */
export type ColumnKind = "text" | "money" | "time" | "json" | "count" | "flag";

/** The columns of `invoices` (sql/invoices.sql) the loader writes from an Invoice, in table order. */
export const INVOICE_COLUMNS = [
  ["id", "text"],
  ["number", "text"],
  ["status", "text"],
  ["created_at", "time"],
  ["currency", "text"],
  ["amount_due", "money"],
  ["amount_paid", "money"],
  ["amount_refunded", "money"],
  ["amount_remaining", "money"],
  ["subtotal", "money"],
  ["tax", "money"],
  ["total", "money"],
  ["attempt_count", "count"],
  ["attempted", "flag"],
  ["paid", "flag"],
  ["billing_reason", "text"],
  ["collection_method", "text"],
  ["customer_email", "text"],
  ["customer_id", "text"],
  ["default_payment_method", "text"],
  ["description", "text"],
  ["discounts", "json"],
  ["metadata", "json"],
  ["pdf", "text"],
  ["receipt_number", "text"],
  ["refund_status", "text"],
  ["statement_descriptor", "text"],
  ["subscription_id", "text"],
  ["url", "text"],
  ["extra", "json"],
] as const satisfies ReadonlyArray<readonly [string, ColumnKind]>;

/** The columns of `invoice_lines` written from an InvoiceLineItem, after invoice_id and line_number. */
export const INVOICE_LINE_COLUMNS = [
  ["id", "text"],
  ["amount", "money"],
  ["currency", "text"],
  ["description", "text"],
  ["invoice_item", "text"],
  ["metadata", "json"],
  ["extra", "json"],
] as const satisfies ReadonlyArray<readonly [string, ColumnKind]>;

/** A bound value: text (money as exact decimal text, JSON as its text), a count, a flag or NULL. */
export type BoundValue = string | number | boolean | null;

export interface InvoiceRows {
  id: string;
  /** INVOICE_COLUMNS' values, in order. */
  invoice: BoundValue[];
  /** INVOICE_LINE_COLUMNS' values of each line, in the invoice's order. */
  lines: BoundValue[][];
}

export interface InvoiceReject {
  recordId: string | null;
  reason: string;
  rawJson: string;
}

export type InvoiceRowResult = { ok: true; rows: InvoiceRows } | { ok: false; reject: InvoiceReject };

/**
 * One listed invoice as rows, or the reason it cannot be stored. An invoice without an id cannot be
 * kept apart from the others on the next run (the spec makes `id` optional): it is refused, not
 * stored under a made-up key. `customerEmail` applies the export's --email-column policy: the
 * address is personal data like api_calls.email.
 */
export function invoiceRows(raw: unknown, customerEmail: (email: string) => string | null): InvoiceRowResult {
  const parsed = InvoiceSchema.safeParse(raw);
  const recordId = idOf(raw);
  if (!parsed.success) return refuse(raw, recordId, `invalid invoice: ${z.prettifyError(parsed.error)}`);
  const invoice = parsed.data;
  if (invoice.id === undefined || invoice.id === "")
    return refuse(
      raw,
      recordId,
      "invoice has no id: it could not be told apart from the others on the next run",
    );
  return {
    ok: true,
    rows: {
      id: invoice.id,
      invoice: INVOICE_COLUMNS.map(([column]) =>
        column === "customer_email" && invoice.customer_email !== undefined
          ? customerEmail(invoice.customer_email)
          : invoiceValue(invoice, column),
      ),
      lines: invoice.lines.map((line) => INVOICE_LINE_COLUMNS.map(([column]) => lineValue(line, column))),
    },
  };
}

function invoiceValue(invoice: Invoice, column: (typeof INVOICE_COLUMNS)[number][0]): BoundValue {
  if (column === "extra") return extraOf(invoice, INVOICE_FIELDS);
  if (column === "discounts")
    return invoice.discounts === undefined ? null : stringifyWithNumberTexts(invoice.discounts);
  if (column === "metadata") return JSON.stringify(invoice.metadata);
  const value = invoice[column];
  return value === undefined ? null : value;
}

function lineValue(line: InvoiceLineItem, column: (typeof INVOICE_LINE_COLUMNS)[number][0]): BoundValue {
  if (column === "extra") return extraOf(line, INVOICE_LINE_FIELDS);
  if (column === "metadata") return JSON.stringify(line.metadata);
  return line[column] ?? null;
}

/** The fields the schema does not know, as JSON text (null when there are none). */
function extraOf(record: Record<string, unknown>, known: ReadonlySet<string>): string | null {
  const extra = Object.entries(record).filter(([key]) => !known.has(key));
  return extra.length === 0 ? null : stringifyWithNumberTexts(Object.fromEntries(extra));
}

function idOf(raw: unknown): string | null {
  const id = raw !== null && typeof raw === "object" ? (raw as { id?: unknown }).id : undefined;
  return typeof id === "string" ? storableText(id.slice(0, 200)) : null;
}

function refuse(raw: unknown, recordId: string | null, reason: string): InvoiceRowResult {
  return {
    ok: false,
    // Cut and cleaned for storage by the reject writer (load/insertRejects.ts), as every reject is.
    reject: { recordId, reason, rawJson: stringifyWithNumberTexts(raw) },
  };
}
