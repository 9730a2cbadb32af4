import {
  type BoundValue,
  type ColumnKind,
  INVOICE_COLUMNS,
  INVOICE_LINE_COLUMNS,
  type InvoiceRows,
} from "../transform/invoiceRow.js";
import type { Warehouse } from "./database.js";

/** What storing one batch of invoices did. */
export interface InvoiceBatchCounts {
  invoices: number;
  lines: number;
  /** Invoices not in the warehouse before. */
  new_invoices: number;
}

/** How a value is carried in the batch's JSON (json_transform) and cast to the column's type. */
const TYPES: Record<ColumnKind, { json: string; sql: string }> = {
  text: { json: "VARCHAR", sql: "VARCHAR" },
  // Money travels as its exact decimal text and is cast by DuckDB, never through a double.
  money: { json: "VARCHAR", sql: "DECIMAL(18, 6)" },
  time: { json: "VARCHAR", sql: "TIMESTAMPTZ" },
  json: { json: "VARCHAR", sql: "JSON" },
  count: { json: "BIGINT", sql: "BIGINT" },
  flag: { json: "BOOLEAN", sql: "BOOLEAN" },
};

type Columns = ReadonlyArray<readonly [string, ColumnKind]>;

/**
 * One INSERT of a batch from a JSON array ($1) of objects keyed by column: the column list and the
 * casts are generated from the transform's column list, so the two cannot drift.
 */
function insertFromJson(table: string, columns: Columns): string {
  const structure = Object.fromEntries(columns.map(([name, kind]) => [name, TYPES[kind].json]));
  const names = columns.map(([name]) => name);
  const values = columns.map(([name, kind]) => `CAST(r.${name} AS ${TYPES[kind].sql})`);
  return `INSERT INTO ${table} (${names.join(", ")}) SELECT ${values.join(", ")} FROM (SELECT unnest(json_transform_strict($1, '${JSON.stringify([structure])}')) AS r)`;
}

const INVOICE_TABLE_COLUMNS: Columns = [
  ...INVOICE_COLUMNS,
  ["first_seen_run_id", "text"],
  ["last_seen_run_id", "text"],
];
const LINE_TABLE_COLUMNS: Columns = [
  ["invoice_id", "text"],
  ["line_number", "count"],
  ...INVOICE_LINE_COLUMNS,
  ["last_seen_run_id", "text"],
];
const INSERT_INVOICES = insertFromJson("invoices", INVOICE_TABLE_COLUMNS);
const INSERT_LINES = insertFromJson("invoice_lines", LINE_TABLE_COLUMNS);
const IDS = `(SELECT unnest(json_transform_strict($1, '["VARCHAR"]')))`;

/**
 * Replaces a batch of listed invoices (inside the caller's transaction): each replaces its stored
 * version and lines, keeping the run that first saw it. An invoice no longer listed is kept as it
 * was last seen. A statement per table for the whole batch, not per row.
 */
export async function replaceInvoices(
  warehouse: Warehouse,
  runId: string,
  invoices: readonly InvoiceRows[],
): Promise<InvoiceBatchCounts> {
  const { connection } = warehouse;
  const ids = JSON.stringify(invoices.map((invoice) => invoice.id));
  await connection.run(`DELETE FROM invoice_lines WHERE invoice_id IN ${IDS}`, [ids]);
  const removed = await connection.runAndReadAll(
    `DELETE FROM invoices WHERE id IN ${IDS} RETURNING id, first_seen_run_id`,
    [ids],
  );
  const firstSeen = new Map(removed.getRows().map(([id, run]) => [String(id), String(run)]));
  const invoiceRows = invoices.map((invoice) =>
    rowObject(INVOICE_TABLE_COLUMNS, [...invoice.invoice, firstSeen.get(invoice.id) ?? runId, runId]),
  );
  const lineRows = invoices.flatMap((invoice) =>
    invoice.lines.map((line, k) => rowObject(LINE_TABLE_COLUMNS, [invoice.id, k + 1, ...line, runId])),
  );
  await connection.run(INSERT_INVOICES, [JSON.stringify(invoiceRows)]);
  if (lineRows.length > 0) await connection.run(INSERT_LINES, [JSON.stringify(lineRows)]);
  const fresh = invoices.filter((invoice) => !firstSeen.has(invoice.id)).length;
  return { invoices: invoices.length, lines: lineRows.length, new_invoices: fresh };
}

function rowObject(columns: Columns, values: readonly BoundValue[]): Record<string, BoundValue> {
  const row: Record<string, BoundValue> = {};
  for (const [k, [name]] of columns.entries()) row[name] = values[k] ?? null;
  return row;
}
