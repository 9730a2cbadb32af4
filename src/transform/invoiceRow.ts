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
import {
  keysProblem,
  objectJson,
  oversizeProblem,
  rawJsonForReject,
  rowBytes,
  storedAmounts,
} from "./recordJson.js";

/** A column's SQL type, which decides how its bound value is cast (money: exact text to DECIMAL). */
export type ColumnKind = "text" | "money" | "time" | "json" | "count" | "flag";

/** The columns of `invoices` (sql/tables/invoices.sql) the loader writes from an Invoice, in table order. */
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
  ["money_raw", "json"],
  ["money_flags", "text"],
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
  ["money_raw", "json"],
  ["money_flags", "text"],
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

/** The invoice's money columns, as INVOICE_COLUMNS names them. */
const INVOICE_MONEY = [
  "amount_due",
  "amount_paid",
  "amount_refunded",
  "amount_remaining",
  "subtotal",
  "tax",
  "total",
] as const satisfies readonly InvoiceColumn[];

type InvoiceColumn = (typeof INVOICE_COLUMNS)[number][0];
type LineColumn = (typeof INVOICE_LINE_COLUMNS)[number][0];
type Source = Record<string, unknown>;

/**
 * One listed invoice as rows, or the reason it cannot be stored. An invoice without an id cannot be
 * kept apart from the others on the next run (the spec makes `id` optional): it is refused, not
 * stored under a made-up key. `customerEmail` applies the export's --email-column policy: the
 * address is personal data like api_calls.email. The JSON columns (metadata, discounts, extra) are
 * written from the record as sent, so every key of it is kept, `__proto__` included; a string no
 * column can hold, or an invoice whose rows hold more than MAX_RECORD_BYTES, is refused.
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
  const source = raw as Source;
  const problem =
    keysProblem(objectAt(source, "metadata"), "metadata") ??
    keysProblem({ discounts: source.discounts }, "") ??
    keysProblem(source, "", (key) => !INVOICE_FIELDS.has(key));
  if (problem !== undefined) return refuse(raw, recordId, `invoice: ${problem}`);
  const money = storedAmounts(INVOICE_MONEY.map((column) => [column, invoice[column]]));
  if (!money.ok) return refuse(raw, recordId, `invoice: ${money.reason}`);
  const sourceLines = Array.isArray(source.lines) ? (source.lines as unknown[]) : [];
  const lines: BoundValue[][] = [];
  for (const [k, line] of invoice.lines.entries()) {
    const lineSource = (sourceLines[k] ?? {}) as Source;
    const lineProblem =
      keysProblem(objectAt(lineSource, "metadata"), `lines[${k}].metadata`) ??
      keysProblem(lineSource, `lines[${k}]`, (key) => !INVOICE_LINE_FIELDS.has(key));
    if (lineProblem !== undefined) return refuse(raw, recordId, `invoice line: ${lineProblem}`);
    const amount = storedAmounts([["amount", line.amount]]);
    if (!amount.ok) return refuse(raw, recordId, `invoice line lines[${k}]: ${amount.reason}`);
    lines.push(INVOICE_LINE_COLUMNS.map(([column]) => lineValue(line, lineSource, amount, column)));
  }
  const row = INVOICE_COLUMNS.map(([column]) =>
    column === "customer_email" && invoice.customer_email !== undefined
      ? customerEmail(invoice.customer_email)
      : invoiceValue(invoice, source, money, column),
  );
  const oversize = oversizeProblem(rowBytes([row, ...lines]));
  if (oversize !== undefined) return refuse(raw, recordId, `invoice: ${oversize}`);
  return { ok: true, rows: { id: invoice.id, invoice: row, lines } };
}

/** The stored money of a record: its amounts by column, with money_raw and money_flags. */
interface Money {
  usd: ReadonlyMap<string, string>;
  raw: string | null;
  flags: string | null;
}

function invoiceValue(invoice: Invoice, source: Source, money: Money, column: InvoiceColumn): BoundValue {
  if (column === "extra") return objectJson(source, (key) => !INVOICE_FIELDS.has(key));
  if (column === "discounts")
    return source.discounts === undefined ? null : stringifyWithNumberTexts(source.discounts);
  if (column === "metadata") return objectJson(objectAt(source, "metadata")) ?? "{}";
  if (column === "money_raw") return money.raw;
  if (column === "money_flags") return money.flags;
  const stored = money.usd.get(column);
  if (stored !== undefined) return stored;
  const value = invoice[column as Exclude<InvoiceColumn, "money_raw" | "money_flags">];
  return value === undefined ? null : (value as BoundValue);
}

function lineValue(line: InvoiceLineItem, source: Source, money: Money, column: LineColumn): BoundValue {
  if (column === "extra") return objectJson(source, (key) => !INVOICE_LINE_FIELDS.has(key));
  if (column === "metadata") return objectJson(objectAt(source, "metadata")) ?? "{}";
  if (column === "amount") return money.usd.get("amount") ?? null;
  if (column === "money_raw") return money.raw;
  if (column === "money_flags") return money.flags;
  return line[column] ?? null;
}

/** A field that the schema checked is an object (or absent, then {}), as the record sent it. */
function objectAt(source: Source, field: string): object {
  const value = source[field];
  return value !== null && typeof value === "object" ? value : {};
}

function idOf(raw: unknown): string | null {
  const id = raw !== null && typeof raw === "object" ? (raw as { id?: unknown }).id : undefined;
  return typeof id === "string" ? storableText(id.slice(0, 200)) : null;
}

function refuse(raw: unknown, recordId: string | null, reason: string): InvoiceRowResult {
  return {
    ok: false,
    // Cut and cleaned for storage by the reject writer (load/insertRejects.ts), as every reject is.
    reject: { recordId, reason, rawJson: rawJsonForReject(raw) },
  };
}
