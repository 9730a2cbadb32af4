import {
  type BoundValue,
  type ColumnKind,
  INVOICE_COLUMNS,
  INVOICE_LINE_COLUMNS,
  type InvoiceReject,
  type InvoiceRows,
} from "../transform/invoiceRow.js";
import type { Warehouse } from "./database.js";
import { insertRejects } from "./insertRejects.js";
import { inTransaction } from "./transaction.js";

/** What one save did. */
export interface InvoiceSaveResult {
  invoices: number;
  lines: number;
  /** Invoices not in the warehouse before. */
  new_invoices: number;
  rejected: number;
}

/** How a bound value becomes the column's type: money from exact decimal text, never a double. */
const CAST: Record<ColumnKind, string> = {
  text: "VARCHAR",
  money: "DECIMAL(18, 6)",
  time: "TIMESTAMPTZ",
  json: "JSON",
  count: "BIGINT",
  flag: "BOOLEAN",
};

/** An INSERT naming every column, generated from the transform's column list so the two cannot drift. */
function insertSql(
  table: string,
  leading: readonly string[],
  columns: ReadonlyArray<readonly [string, ColumnKind]>,
  trailing: readonly string[],
): string {
  const names = [...leading, ...columns.map(([name]) => name), ...trailing];
  let n = leading.length;
  const values = [
    ...leading.map((_, k) => `$${k + 1}`),
    ...columns.map(([, kind]) => `CAST($${++n} AS ${CAST[kind]})`),
    ...trailing.map(() => `$${++n}`),
  ];
  return `INSERT INTO ${table} (${names.join(", ")}) VALUES (${values.join(", ")})`;
}

const INSERT_INVOICE = insertSql("invoices", [], INVOICE_COLUMNS, ["first_seen_run_id", "last_seen_run_id"]);
const INSERT_LINE = insertSql("invoice_lines", ["invoice_id", "line_number"], INVOICE_LINE_COLUMNS, [
  "last_seen_run_id",
]);

/**
 * Stores the listed invoices and the refused ones in one transaction: each invoice replaces its
 * stored version and lines (keeping the run that first saw it), each reject goes to `rejects`.
 * An invoice no longer listed is kept as it was last seen.
 */
export async function saveInvoices(
  warehouse: Warehouse,
  run: { runId: string; now: Date },
  invoices: readonly InvoiceRows[],
  rejects: readonly InvoiceReject[],
): Promise<InvoiceSaveResult> {
  const { connection } = warehouse;
  return inTransaction(connection, async () => {
    let lines = 0;
    let fresh = 0;
    for (const invoice of invoices) {
      const stored = await connection.runAndReadAll(
        "DELETE FROM invoices WHERE id = $1 RETURNING first_seen_run_id",
        [invoice.id],
      );
      const firstSeen = stored.getRows()[0]?.[0];
      if (firstSeen === undefined) fresh += 1;
      await connection.run("DELETE FROM invoice_lines WHERE invoice_id = $1", [invoice.id]);
      await connection.run(INSERT_INVOICE, [
        ...invoice.invoice,
        firstSeen === undefined ? run.runId : String(firstSeen),
        run.runId,
      ] as BoundValue[]);
      for (const [k, line] of invoice.lines.entries()) {
        await connection.run(INSERT_LINE, [invoice.id, k + 1, ...line, run.runId] as BoundValue[]);
        lines += 1;
      }
    }
    const rejectedAt = run.now.toISOString();
    await insertRejects(
      connection,
      rejects.map((reject) => ({
        run_id: run.runId,
        rejected_at: rejectedAt,
        record_id: reject.recordId,
        reason: reject.reason,
        raw_json: reject.rawJson,
      })),
    );
    return { invoices: invoices.length, lines, new_invoices: fresh, rejected: rejects.length };
  });
}
