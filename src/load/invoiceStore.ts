import {
  type BoundValue,
  type ColumnKind,
  INVOICE_COLUMNS,
  INVOICE_LINE_COLUMNS,
  type InvoiceRows,
} from "../transform/invoiceRow.js";
import { READ_JSON_MAX_OBJECT_BYTES } from "../transform/limits.js";
import type { Warehouse } from "./database.js";
import { quotedString } from "./duckdb.js";
import type { Spool } from "./spool.js";

/** What storing one batch of invoices did. */
export interface InvoiceBatchCounts {
  invoices: number;
  lines: number;
  /** Invoices not in the warehouse before. */
  new_invoices: number;
}

/** How a value is carried in the batch's spool file (read_json) and cast to the column's type. */
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
 * One INSERT of a batch from its NDJSON spool file, one object per row keyed by column (DuckDB
 * reads a file about twice as fast as a JSON parameter): the column list, the types read and the
 * casts are generated from the transform's column list, so the two cannot drift.
 */
function insertFromFile(table: string, columns: Columns): (file: string) => string {
  const read = columns.map(([name, kind]) => `${name}: '${TYPES[kind].json}'`).join(", ");
  const names = columns.map(([name]) => name);
  const values = columns.map(([name, kind]) => `CAST(${name} AS ${TYPES[kind].sql})`);
  return (file) =>
    `INSERT INTO ${table} (${names.join(", ")}) SELECT ${values.join(", ")} FROM read_json(${quotedString(file)}, format = 'newline_delimited', columns = {${read}}, maximum_object_size = ${READ_JSON_MAX_OBJECT_BYTES})`;
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
const INSERT_INVOICES = insertFromFile("invoices", INVOICE_TABLE_COLUMNS);
const INSERT_LINES = insertFromFile("invoice_lines", LINE_TABLE_COLUMNS);
const IDS = `(SELECT unnest(json_transform_strict($1, '["VARCHAR"]')))`;

/**
 * Replaces a batch of listed invoices (inside the caller's transaction): each replaces its stored
 * version and lines, keeping the run that first saw it. An invoice no longer listed is kept as it
 * was last seen. A statement per table for the whole batch, not per row.
 */
export async function replaceInvoices(
  warehouse: Warehouse,
  spool: Spool,
  runId: string,
  invoices: readonly InvoiceRows[],
): Promise<InvoiceBatchCounts> {
  const { connection } = warehouse;
  const ids = JSON.stringify(invoices.map((invoice) => invoice.id));
  const removed = await connection.runAndReadAll(
    `DELETE FROM invoices WHERE id IN ${IDS} RETURNING id, first_seen_run_id`,
    [ids],
  );
  const firstSeen = new Map(removed.getRows().map(([id, run]) => [String(id), String(run)]));
  // New invoices have no lines to remove: a first run does not scan the lines table per batch.
  if (firstSeen.size > 0)
    await connection.run(`DELETE FROM invoice_lines WHERE invoice_id IN ${IDS}`, [
      JSON.stringify([...firstSeen.keys()]),
    ]);
  const invoiceRows = invoices.map((invoice) =>
    rowObject(INVOICE_TABLE_COLUMNS, [...invoice.invoice, firstSeen.get(invoice.id) ?? runId, runId]),
  );
  const lineRows = invoices.flatMap((invoice) =>
    invoice.lines.map((line, k) => rowObject(LINE_TABLE_COLUMNS, [invoice.id, k + 1, ...line, runId])),
  );
  try {
    await connection.run(INSERT_INVOICES(await spool.write("invoices", invoiceRows.map(ndjsonLine))));
    if (lineRows.length > 0)
      await connection.run(INSERT_LINES(await spool.write("invoice-lines", lineRows.map(ndjsonLine))));
  } finally {
    await spool.cleanup();
  }
  const fresh = invoices.filter((invoice) => !firstSeen.has(invoice.id)).length;
  return { invoices: invoices.length, lines: lineRows.length, new_invoices: fresh };
}

function ndjsonLine(row: Record<string, BoundValue>): string {
  return JSON.stringify(row);
}

function rowObject(columns: Columns, values: readonly BoundValue[]): Record<string, BoundValue> {
  const row: Record<string, BoundValue> = {};
  for (const [k, [name]] of columns.entries()) row[name] = values[k] ?? null;
  return row;
}
