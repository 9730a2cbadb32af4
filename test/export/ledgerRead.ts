import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { expect } from "vitest";
import { expectStoredClassesFresh } from "../helpers/storedClasses.js";

/** A counting invoice and what the ledger and the settlement say of it, amounts as DECIMAL text. */
export interface LedgerInvoice {
  id: string;
  status: string;
  currency: string;
  total: string;
  due: string;
  /** Sum of the invoice's ledger rows but its customer_balance row. */
  rows_but_balance: string;
  /** Sum of all its ledger rows. */
  rows: string;
  /** paid + outstanding + written_off (invoice_settlement). */
  settled: string;
  paid: string;
  refunded: string;
  outstanding: string;
  written_off: string;
}

/** One month and currency of monthly_reconciliation, with the ledger's usage rows of the month. */
export interface LedgerMonth {
  month: string;
  currency: string;
  status: string;
  usage_cost_usd: string;
  /** invoiced + not billed + awaiting + unexplained. */
  classes: string;
  /** Sum of the price of the month's usage rows from the calls. */
  usage_rows: string;
  difference: string;
  charged: string;
  paid: string;
  refunded: string;
  outstanding: string;
  written_off: string;
  discounts: string;
  tax: string;
}

export interface LedgerRead {
  db: string;
  invoices: LedgerInvoice[];
  months: LedgerMonth[];
  /** The ledger's rows that are differences no rule explains, not 0. */
  differences: Array<{ reason: string; invoice_id: string | null; amount: string; month: string }>;
}

/**
 * The ledger, the settlement and the books of a warehouse, as tests compare them. The views are
 * copied once each into an in-memory database: charges is read three times, and each read would
 * compute it again.
 */
export async function readLedger(db: string): Promise<LedgerRead> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const queryDb = async (_db: string, sql: string) =>
    (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  try {
    await connection.run("SET TimeZone = 'UTC'");
    await connection.run(`ATTACH ${quotedString(db)} AS warehouse (READ_ONLY)`);
    await connection.run("USE warehouse");
    await expectStoredClassesFresh(connection);
    await connection.run("USE memory");
    for (const view of ["charges", "invoice_settlement", "monthly_reconciliation"])
      await connection.run(`CREATE TABLE memory.${view} AS SELECT * FROM warehouse.${view}`);
    await connection.run("DETACH warehouse");
    return await readCopies(db, queryDb);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function readCopies(
  db: string,
  queryDb: (db: string, sql: string) => Promise<Record<string, unknown>[]>,
): Promise<LedgerRead> {
  const invoices = (await queryDb(
    db,
    `SELECT
       s.invoice_id AS id, s.invoice_status AS status, s.currency,
       s.charged::VARCHAR AS total, s.due::VARCHAR AS due,
       coalesce(sum(c.billed_cost) FILTER (WHERE c.reason <> 'customer_balance'), 0)::DECIMAL(38, 6)::VARCHAR
         AS rows_but_balance,
       coalesce(sum(c.billed_cost), 0)::DECIMAL(38, 6)::VARCHAR AS rows,
       (s.paid + s.outstanding + s.written_off)::DECIMAL(38, 6)::VARCHAR AS settled,
       s.paid::VARCHAR AS paid, s.refunded::VARCHAR AS refunded,
       s.outstanding::VARCHAR AS outstanding, s.written_off::VARCHAR AS written_off
     FROM invoice_settlement AS s
     LEFT JOIN charges AS c ON c.invoice_id = s.invoice_id
     GROUP BY ALL
     ORDER BY any_value(s.invoice_created_at), s.invoice_id`,
  )) as unknown as LedgerInvoice[];
  const months = (await queryDb(
    db,
    `WITH usage AS (
       SELECT strftime(day, '%Y-%m') AS month, sum(price_usd) AS price
       FROM charges WHERE kind = 'usage' AND reason = 'calls' GROUP BY 1
     )
     SELECT
       strftime(m.month, '%Y-%m') AS month, m.currency, m.status,
       m.usage_cost_usd::VARCHAR AS usage_cost_usd,
       (m.invoiced_usage_usd + m.not_billed_usd + m.awaiting_usd + m.unexplained_usd)::VARCHAR AS classes,
       CASE WHEN m.currency = 'USD' THEN coalesce(u.price, 0) ELSE 0 END::DECIMAL(38, 6)::VARCHAR AS usage_rows,
       m.difference::VARCHAR AS difference, m.charged::VARCHAR AS charged, m.paid::VARCHAR AS paid,
       m.refunded::VARCHAR AS refunded, m.outstanding::VARCHAR AS outstanding,
       m.written_off::VARCHAR AS written_off, m.discounts::VARCHAR AS discounts, m.tax::VARCHAR AS tax
     FROM monthly_reconciliation AS m
     LEFT JOIN usage AS u ON u.month = strftime(m.month, '%Y-%m')
     ORDER BY m.month, m.currency`,
  )) as unknown as LedgerMonth[];
  const differences = (await queryDb(
    db,
    `SELECT reason, invoice_id, billed_cost::VARCHAR AS amount, strftime(billing_period_start, '%Y-%m') AS month
     FROM charges
     WHERE reason IN ('line_differs', 'reissue_differs', 'unexplained_calls', 'unexplained_total')
       AND billed_cost <> 0
     ORDER BY ALL`,
  )) as unknown as LedgerRead["differences"];
  return { db, invoices, months, differences };
}

/** What holds whatever the shape: the identities, each to the micro unit. */
export function expectIdentities(read: LedgerRead): void {
  for (const invoice of read.invoices) {
    expect([invoice.id, invoice.rows_but_balance], "rows but the balance = total").toEqual([
      invoice.id,
      invoice.total,
    ]);
    expect([invoice.id, invoice.rows], "every row = amount_due").toEqual([invoice.id, invoice.due]);
    expect([invoice.id, invoice.settled], "paid + outstanding + written off = due").toEqual([
      invoice.id,
      invoice.due,
    ]);
  }
  for (const month of read.months) {
    expect([month.month, month.usage_rows], "usage rows = the month's usage").toEqual([
      month.month,
      month.usage_cost_usd,
    ]);
    expect([month.month, month.classes], "usage = the four classes").toEqual([
      month.month,
      month.usage_cost_usd,
    ]);
  }
}

/** No month differs or misses calls, and no row is a difference. */
export function expectSquare(read: LedgerRead): void {
  expectIdentities(read);
  expect(read.differences).toEqual([]);
  for (const month of read.months) expect([month.month, month.status]).not.toContainEqual("differs");
  for (const month of read.months) expect([month.month, month.status]).not.toContainEqual("calls_missing");
}
