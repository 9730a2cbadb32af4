import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlFile } from "../load/sqlFiles.js";
import { hasViews } from "./presentViews.js";
import { count, optionalText, queryRows, text } from "./rowValues.js";

/** One UTC month: what the calls cost beside what was invoiced for it (exact decimal strings). */
export interface InvoiceMonthFigure {
  /** YYYY-MM. */
  month: string;
  calls: number;
  usage_cost_usd: string;
  invoice_lines: number;
  invoiced_usd: string;
  /** invoiced - usage: negative while the month is not (fully) invoiced; invoice_lines 0 means no invoice yet. */
  difference_usd: string;
  lines_differing: number;
}

/** An invoice line that does not agree with the calls billed on its item. */
export interface InvoiceLineFigure {
  month: string;
  invoice_id: string;
  invoice_number: string | null;
  invoice_item: string | null;
  status: "differs" | "no_calls";
  line_amount_usd: string;
  calls: number;
  calls_cost_usd: string;
  difference_usd: string;
}

/** The invoices beside the spend, for the period's months (null on a database without them). */
export interface InvoiceFigures {
  months: InvoiceMonthFigure[];
  lines: { in_period: number; agreeing: number; not_agreeing: InvoiceLineFigure[] };
  /** Priced calls of the period no line bills although their period has closed. */
  calls_not_invoiced: { calls: number; cost_usd: string };
}

/** Lines that do not agree listed at most; the count says how many there are in all. */
const MAX_LINES = 50;

/**
 * The reconciliation figures of the period, or null when the database predates the invoice views
 * (a report opens the database read-only and never creates them).
 */
export async function readInvoiceFigures(
  connection: DuckDBConnection,
  period: { from: string | null; to: string | null },
): Promise<InvoiceFigures | null> {
  if (!(await hasViews(connection, ["monthly_reconciliation"]))) return null;
  const months = await queryRows(connection, sqlFile("report_invoices.sql"), period);
  const lines = await queryRows(connection, sqlFile("report_invoice_lines.sql"), period);
  const [notInvoiced = {}] = await queryRows(connection, sqlFile("report_calls_not_invoiced.sql"), period);
  return {
    months: months.map((row) => ({
      month: text(row, "month"),
      calls: count(row, "calls"),
      usage_cost_usd: text(row, "usage_cost_usd"),
      invoice_lines: count(row, "invoice_lines"),
      invoiced_usd: text(row, "invoiced_usd"),
      difference_usd: text(row, "difference_usd"),
      lines_differing: count(row, "lines_differing"),
    })),
    lines: {
      in_period: lines[0] === undefined ? 0 : count(lines[0], "lines_in_period"),
      agreeing: lines[0] === undefined ? 0 : count(lines[0], "lines_agreeing"),
      not_agreeing: lines
        .filter((row) => row.status !== "agrees")
        .slice(0, MAX_LINES)
        .map((row) => ({
          month: text(row, "month"),
          invoice_id: text(row, "invoice_id"),
          invoice_number: optionalText(row, "invoice_number"),
          invoice_item: optionalText(row, "invoice_item"),
          status: text(row, "status") === "differs" ? "differs" : "no_calls",
          line_amount_usd: text(row, "line_amount_usd"),
          calls: count(row, "calls"),
          calls_cost_usd: text(row, "calls_cost_usd"),
          difference_usd: text(row, "difference_usd"),
        })),
    },
    calls_not_invoiced: { calls: count(notInvoiced, "calls"), cost_usd: text(notInvoiced, "cost_usd") },
  };
}
