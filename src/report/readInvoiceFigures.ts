import type { DuckDBConnection } from "@duckdb/node-api";
import { hasViews } from "../load/presentViews.js";
import { sqlFile } from "../load/sqlFiles.js";
import { count, optionalText, queryRows, text } from "./rowValues.js";

/**
 * One UTC month and currency as monthly_reconciliation books it (exact decimal strings). On the USD
 * row the calls' usage is invoiced_usage + not_billed + awaiting + unexplained, to the micro-dollar;
 * a row in another currency holds only invoices. The invoice amounts are in `currency`.
 */
export interface InvoiceMonthFigure {
  /** YYYY-MM. */
  month: string;
  /** Upper case: USD, EUR. */
  currency: string;
  /** calls_missing, differs, other_currency, not_invoiced, awaiting or agrees. */
  status: string;
  calls: number;
  usage_cost_usd: string;
  invoiced_calls: number;
  invoiced_usage_usd: string;
  /** Of the invoiced calls, those on an invoice in another currency: not comparable. */
  other_currency_calls: number;
  other_currency_usd: string;
  /** Calls with no invoice item: credits or a free allowance paid them. */
  not_billed_calls: number;
  not_billed_usd: string;
  /**
   * How much of not_billed the balance snapshots saw the credits pay; absent when they measured
   * nothing (a *_usd key always holds an amount).
   */
  credits_paid_usd?: string;
  /** The plan's monthly allowance; absent when the month's snapshots do not give it. */
  monthly_allowance_usd?: string;
  awaiting_calls: number;
  awaiting_usd: string;
  on_incomplete_invoice_calls: number;
  unexplained_calls: number;
  unexplained_usd: string;
  /** Call records of the month the export rejected. */
  rejected_calls: number;
  invoices: number;
  invoices_incomplete: number;
  invoice_lines: number;
  /** What the invoices billed for usage. */
  usage_lines: string;
  lines_differing: number;
  /** Line minus calls, summed over the usage lines that disagree. */
  lines_difference: string;
  /** What no rule explains: line differences, unexplained totals, less unexplained calls. */
  difference: string;
  discounts: string;
  tax: string;
  other_charges: string;
  credits: string;
  lines_not_listed: string;
  /** The invoices' totals, and how they were settled. */
  charged: string;
  balance_applied: string;
  due: string;
  paid: string;
  refunded: string;
  outstanding: string;
  written_off: string;
}

/** A line of an invoice that counts: a usage line that disagrees, another charge or a credit. */
export interface InvoiceLineFigure {
  month: string;
  invoice_id: string;
  invoice_number: string | null;
  invoice_item: string | null;
  description: string | null;
  line_class: "usage" | "reissued_usage" | "rejected_usage" | "tax" | "other_charge" | "credit";
  /** differs or other_currency (usage against its calls), or the line's class. */
  status: string;
  /** Upper case: the currency of the line's amounts. */
  currency: string;
  line_amount: string;
  /** Lines billing the item (more than 1 for an item billed twice), and their sum. */
  item_lines: number;
  item_lines_amount: string;
  calls: number;
  calls_cost_usd: string;
  /** The item discount the line is net of (0 for gross lines). */
  item_discount: string;
  difference: string;
}

/** Calls of the period that are not invoiced, per class and reason. */
export interface CallClassFigure {
  billing_class: "not_billed" | "awaiting_invoice" | "unexplained";
  reason: string;
  calls: number;
  cost_usd: string;
}

/** An unexplained call: its item is on no line of the whole, final invoice due to carry it. */
export interface UnexplainedCallFigure {
  id: string;
  created_at: string;
  price_usd: string;
  invoice_item: string | null;
  invoice_id: string | null;
}

/** The invoices beside the spend, for the period's months (null on a database without them). */
export interface InvoiceFigures {
  months: InvoiceMonthFigure[];
  lines: {
    /** Usage lines of the period's invoices that count, and how many agree with their calls. */
    usage_lines: number;
    agreeing: number;
    not_agreeing: InvoiceLineFigure[];
    /** Other charges and credits: shown apart, never a difference. */
    other: InvoiceLineFigure[];
  };
  /** The period's calls not invoiced, by class and reason. */
  not_invoiced: CallClassFigure[];
  /** The most expensive unexplained calls (at most MAX_LISTED); not_invoiced has them all counted. */
  unexplained_calls: UnexplainedCallFigure[];
}

/** Lines and calls listed at most; the counts say how many there are in all. */
const MAX_LISTED = 50;

/**
 * The reconciliation figures of the period, or null when the database predates the reconciliation
 * views (a report opens the database read-only and never creates them).
 */
export async function readInvoiceFigures(
  connection: DuckDBConnection,
  period: { from: string | null; to: string | null },
): Promise<InvoiceFigures | null> {
  // monthly_reconciliation reads the credit views and the ledger too; a database whose views are of
  // a version before the ledger has no invoice_settlement.
  const needed = [
    "monthly_reconciliation",
    "call_billing_class",
    "monthly_credits",
    "credit_burn",
    "invoice_settlement",
  ];
  if (!(await hasViews(connection, needed))) return null;
  const months = await queryRows(connection, sqlFile("report/invoices.sql"), period);
  const [counts = {}, ...rest] = await queryRows(connection, sqlFile("report/invoice_lines.sql"), period);
  const lines = [counts, ...rest].filter((row) => row.invoice_id !== null && row.invoice_id !== undefined);
  const calls = await queryRows(connection, sqlFile("report/calls_not_invoiced.sql"), {
    ...period,
    top: MAX_LISTED,
  });
  const line = (row: Record<string, unknown>): InvoiceLineFigure => ({
    month: text(row, "month"),
    invoice_id: text(row, "invoice_id"),
    invoice_number: optionalText(row, "invoice_number"),
    invoice_item: optionalText(row, "invoice_item"),
    description: optionalText(row, "description"),
    line_class: text(row, "line_class") as InvoiceLineFigure["line_class"],
    status: text(row, "status"),
    currency: text(row, "currency"),
    line_amount: text(row, "line_amount"),
    item_lines: count(row, "item_lines"),
    item_lines_amount: text(row, "item_lines_amount"),
    calls: count(row, "calls"),
    calls_cost_usd: text(row, "calls_cost_usd"),
    item_discount: text(row, "item_discount"),
    difference: text(row, "difference"),
  });
  const groups = new Map<string, CallClassFigure>();
  for (const row of calls) {
    const key = `${text(row, "billing_class")} ${text(row, "reason")}`;
    if (!groups.has(key))
      groups.set(key, {
        billing_class: text(row, "billing_class") as CallClassFigure["billing_class"],
        reason: text(row, "reason"),
        calls: count(row, "calls"),
        cost_usd: text(row, "cost_usd"),
      });
  }
  return {
    months: months.map(monthFigure),
    lines: {
      usage_lines: count(counts, "usage_lines_in_period"),
      agreeing: count(counts, "usage_lines_agreeing"),
      not_agreeing: lines
        .filter((row) => isUsage(row.line_class) && row.status !== "agrees")
        .slice(0, MAX_LISTED)
        .map(line),
      other: lines
        .filter((row) => !isUsage(row.line_class))
        .slice(0, MAX_LISTED)
        .map(line),
    },
    not_invoiced: [...groups.values()],
    unexplained_calls: calls
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: text(row, "id"),
        created_at: text(row, "created_at"),
        price_usd: text(row, "price_usd"),
        invoice_item: optionalText(row, "stripe_invoice_item_id"),
        invoice_id: optionalText(row, "invoice_id"),
      })),
  };
}

/** Usage lines: of stored calls, or of a reissue standing for them. */
function isUsage(lineClass: unknown): boolean {
  return lineClass === "usage" || lineClass === "reissued_usage";
}

function monthFigure(row: Record<string, unknown>): InvoiceMonthFigure {
  return {
    month: text(row, "month"),
    currency: text(row, "currency"),
    status: text(row, "status"),
    calls: count(row, "calls"),
    usage_cost_usd: text(row, "usage_cost_usd"),
    invoiced_calls: count(row, "invoiced_calls"),
    invoiced_usage_usd: text(row, "invoiced_usage_usd"),
    other_currency_calls: count(row, "other_currency_calls"),
    other_currency_usd: text(row, "other_currency_usd"),
    not_billed_calls: count(row, "not_billed_calls"),
    not_billed_usd: text(row, "not_billed_usd"),
    ...present("credits_paid_usd", optionalText(row, "credits_paid_usd")),
    ...present("monthly_allowance_usd", optionalText(row, "monthly_allowance_usd")),
    awaiting_calls: count(row, "awaiting_calls"),
    awaiting_usd: text(row, "awaiting_usd"),
    on_incomplete_invoice_calls: count(row, "on_incomplete_invoice_calls"),
    unexplained_calls: count(row, "unexplained_calls"),
    unexplained_usd: text(row, "unexplained_usd"),
    rejected_calls: count(row, "rejected_calls"),
    invoices: count(row, "invoices"),
    invoices_incomplete: count(row, "invoices_incomplete"),
    invoice_lines: count(row, "invoice_lines"),
    usage_lines: text(row, "usage_lines"),
    lines_differing: count(row, "lines_differing"),
    lines_difference: text(row, "lines_difference"),
    difference: text(row, "difference"),
    discounts: text(row, "discounts"),
    tax: text(row, "tax"),
    other_charges: text(row, "other_charges"),
    credits: text(row, "credits"),
    lines_not_listed: text(row, "lines_not_listed"),
    charged: text(row, "charged"),
    balance_applied: text(row, "balance_applied"),
    due: text(row, "due"),
    paid: text(row, "paid"),
    refunded: text(row, "refunded"),
    outstanding: text(row, "outstanding"),
    written_off: text(row, "written_off"),
  };
}

/** `{ [key]: value }`, or nothing for a null: an amount that is unknown is left out, never null. */
export function present<K extends string>(key: K, value: string | null): { [P in K]?: string } {
  return (value === null ? {} : { [key]: value }) as { [P in K]?: string };
}
