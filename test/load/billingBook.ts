import type { Warehouse } from "../../src/load/database.js";
import { deriveCallColumns } from "../helpers/derivedCallColumns.js";

/**
 * Hand-made billing books for the reconciliation views: calls, invoices and lines in the shapes the
 * real API may send (docs/reconciliation.md), written into a warehouse made by openWarehouse, so
 * the views run on the warehouse's own schema. Two closed months (2026-08, 2026-09), each invoiced
 * on the 1st of the next month at 01:00 UTC, and an open one (2026-10) with no invoice of its own.
 */

export interface BookCall {
  id: string;
  created_at: string;
  updated_at: string;
  /** null: billing still pending (no price is set yet either). */
  completed_at: string | null;
  price: string;
  item: string | null;
}

export interface BookLine {
  amount: string;
  item: string | null;
  description: string;
}

export interface BookInvoice {
  id: string;
  status: string;
  created_at: string;
  lines: BookLine[];
  /** The sum of every line, even those `lines` leaves out (Stripe's cut list). */
  subtotal: string;
}

export interface Book {
  calls: BookCall[];
  invoices: BookInvoice[];
}

export interface BookShape {
  /** One invoice item per call, or one per month. */
  items: "call" | "month";
  /** A $20.00 subscription line on each invoice. */
  subscription?: boolean;
  /** `lines` holds only the first N lines; the subtotal stays whole. */
  cutAfter?: number;
  /** The first N calls of each month are paid by credits: no invoice item, on no line. */
  creditCovered?: number;
  /** The open month has a draft invoice holding its calls so far. */
  draft?: boolean;
  /** August's invoice was first issued, voided, and issued again. */
  voided?: boolean;
  /** August's last call is billed after August's invoice, on September's. */
  late?: boolean;
  /** A -$5.00 discount line on each invoice. */
  discount?: boolean;
  /** Planted disagreements, in August. */
  plant?:
    | "line_plus_1_23"
    | "call_missing_from_invoice"
    | "duplicate_line"
    | "duplicate_line_first"
    | "month_item_missing_call";
}

const MONTHS = ["2026-08", "2026-09", "2026-10"] as const;
const CALLS_PER_MONTH = 12;

/** Micro-dollars of a DECIMAL text, and back: test arithmetic stays exact. */
export function micros(text: string): bigint {
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6));
  return text.startsWith("-") ? -value : value;
}

export function usd(value: bigint): string {
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
}

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

function nextMonthStart(month: string): string {
  const [year = 0, m = 0] = month.split("-").map(Number);
  return new Date(Date.UTC(year, m, 1)).toISOString().slice(0, 7);
}

/** A book of the given shape. Prices vary from call to call, in whole cents. */
export function makeBook(shape: BookShape): Book {
  const calls: BookCall[] = [];
  let n = 0;
  for (const month of MONTHS) {
    for (let k = 0; k < CALLS_PER_MONTH; k++) {
      n += 1;
      const day = String(2 + 2 * k).padStart(2, "0");
      const created = `${month}-${day}T10:00:00.000000Z`;
      const credit = k < (shape.creditCovered ?? 0);
      const item = credit ? null : shape.items === "call" ? `ii_call_${n}` : `ii_month_${month}`;
      calls.push({
        id: uuid(n),
        created_at: created,
        updated_at: `${month}-${day}T10:05:00.000000Z`,
        completed_at: `${month}-${day}T10:05:00.000000Z`,
        price: usd(BigInt(((n * 37) % 500) + 1) * 10_000n),
        item,
      });
    }
  }
  if (shape.late) {
    // August's last call, billed on September 2nd, after August's invoice: on September's.
    const late = calls.filter((call) => call.created_at.startsWith("2026-08")).at(-1);
    if (late !== undefined) {
      late.created_at = "2026-08-31T23:59:00.000000Z";
      late.updated_at = "2026-09-02T00:00:00.000000Z";
      late.completed_at = "2026-09-02T00:00:00.000000Z";
      if (shape.items === "month") late.item = "ii_month_2026-09";
    }
  }
  const missing =
    shape.plant === "call_missing_from_invoice" ? calls.find((c) => c.item !== null) : undefined;
  // The call loses its item id, but its month's line still bills its price.
  const unrecorded =
    shape.plant === "month_item_missing_call" ? calls.find((c) => c.item !== null) : undefined;
  if (unrecorded !== undefined) unrecorded.item = null;
  const invoices: BookInvoice[] = [];
  for (const month of MONTHS.slice(0, 2)) {
    const billed = calls.filter((call) => call.item !== null && billingMonth(call) === month);
    invoices.push(...invoicesOf(month, billed, shape, { missing, unrecorded }));
  }
  if (shape.draft) {
    const open = calls.filter((call) => call.created_at.startsWith("2026-10") && call.item !== null);
    const lines = itemLines(open, shape.items);
    invoices.push({
      id: "in_draft_2026-10",
      status: "draft",
      created_at: "2026-10-20T00:00:00.000000Z",
      lines,
      subtotal: usd(sum(lines)),
    });
  }
  return { calls, invoices };
}

/** The month whose invoice bills a call: the next one for a call billed after its month's invoice. */
function billingMonth(call: BookCall): string {
  const month = call.created_at.slice(0, 7);
  return call.updated_at > `${nextMonthStart(month)}-01T01:00` ? nextMonthStart(month) : month;
}

function sum(lines: BookLine[]): bigint {
  return lines.reduce((total, line) => total + micros(line.amount), 0n);
}

/** Usage lines, newest item first as the spec orders them: one per item. */
function itemLines(calls: BookCall[], items: BookShape["items"]): BookLine[] {
  const byItem = new Map<string, bigint>();
  for (const call of [...calls].reverse()) {
    const item = call.item ?? `ii_month_${call.created_at.slice(0, 7)}`;
    byItem.set(item, (byItem.get(item) ?? 0n) + micros(call.price));
  }
  return [...byItem].map(([item, amount]) => ({
    amount: usd(amount),
    item,
    description: items === "call" ? "API call" : "API usage",
  }));
}

function invoicesOf(
  month: string,
  billed: BookCall[],
  shape: BookShape,
  planted: { missing: BookCall | undefined; unrecorded: BookCall | undefined },
): BookInvoice[] {
  const august = month === "2026-08";
  const lines = itemLines(
    billed.filter((call) => !(august && call === planted.missing)),
    shape.items,
  );
  if (august && planted.unrecorded !== undefined && lines[0] !== undefined)
    lines[0] = { ...lines[0], amount: usd(micros(lines[0].amount) + micros(planted.unrecorded.price)) };
  if (august && shape.plant === "line_plus_1_23" && lines[0] !== undefined)
    lines[0] = { ...lines[0], amount: usd(micros(lines[0].amount) + 1_230_000n) };
  // $2.50 more billed on the first usage line's item, after the usage lines or before them all.
  if (august && shape.plant === "duplicate_line" && lines[0] !== undefined)
    lines.push({ ...lines[0], amount: "2.500000" });
  if (august && shape.plant === "duplicate_line_first" && lines[0] !== undefined)
    lines.unshift({ ...lines[0], amount: "2.500000" });
  if (shape.discount)
    lines.push({ amount: "-5.000000", item: `ii_discount_${month}`, description: "Discount" });
  if (shape.subscription)
    lines.push({ amount: "20.000000", item: `ii_sub_${month}`, description: "Zoo Pro subscription" });
  const subtotal = usd(sum(lines));
  const shown = shape.cutAfter === undefined ? lines : lines.slice(0, shape.cutAfter);
  const created = `${nextMonthStart(month)}-01T01:00:00.000000Z`;
  const invoice = { id: `in_${month}`, status: "paid", created_at: created, lines: shown, subtotal };
  if (!(august && shape.voided)) return [invoice];
  return [
    { ...invoice, id: `in_${month}_voided`, status: "void" },
    { ...invoice, created_at: `${nextMonthStart(month)}-01T02:00:00.000000Z` },
  ];
}

/** Writes the book into the warehouse's own tables, every column named. */
export async function writeBook(warehouse: Warehouse, book: Book): Promise<void> {
  const { connection } = warehouse;
  for (const call of book.calls) {
    await connection.run(
      `INSERT INTO api_calls (id, user_id, method, created_at, updated_at, completed_at, price_usd,
         stripe_invoice_item_id, first_seen_run_id, last_changed_run_id)
       VALUES ($id::UUID, '00000000-0000-4000-8000-00000000aaaa'::UUID, 'POST', $created::TIMESTAMPTZ,
         $updated::TIMESTAMPTZ, $completed::TIMESTAMPTZ, $price::DECIMAL(18, 6), $item, 'r', 'r')`,
      {
        id: call.id,
        created: call.created_at,
        updated: call.updated_at,
        completed: call.completed_at,
        price: call.price,
        item: call.item,
      },
    );
  }
  for (const invoice of book.invoices) {
    await connection.run(
      `INSERT INTO invoices (id, number, status, created_at, currency, amount_due, amount_paid,
         amount_refunded, amount_remaining, subtotal, tax, total, attempt_count, attempted, paid, metadata,
         first_seen_run_id, last_seen_run_id)
       VALUES ($id, $id, $status, $created::TIMESTAMPTZ, 'usd', $subtotal::DECIMAL(18, 6), 0, 0, 0,
         $subtotal::DECIMAL(18, 6), 0, $subtotal::DECIMAL(18, 6), 0, false, false, '{}', 'r', 'r')`,
      { id: invoice.id, status: invoice.status, created: invoice.created_at, subtotal: invoice.subtotal },
    );
    for (const [k, line] of invoice.lines.entries()) {
      await connection.run(
        `INSERT INTO invoice_lines (invoice_id, line_number, id, amount, currency, description, invoice_item,
           metadata, last_seen_run_id)
         VALUES ($invoice, $number, $id, $amount::DECIMAL(18, 6), 'usd', $description, $item, '{}', 'r')`,
        {
          invoice: invoice.id,
          number: k + 1,
          id: `il_${invoice.id}_${k + 1}`,
          amount: line.amount,
          description: line.description,
          item: line.item,
        },
      );
    }
  }
  await deriveCallColumns(connection);
}
