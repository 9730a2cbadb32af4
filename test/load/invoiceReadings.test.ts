import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { deriveCallColumns } from "../helpers/derivedCallColumns.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * How the warehouse reads invoice shapes the simulator does not serve, written by hand into the
 * warehouse's own tables: what each says, what the ledger makes of it, and that a total its lines
 * do not explain is a difference, never hidden. One month (2026-10) of three calls of $50, billed
 * on the invoice of 2026-11-01.
 */

let shared: Warehouse;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const workspace = await tempWorkspace();
  cleanup = workspace.cleanup;
  shared = await openWarehouse(workspace.db);
});
afterAll(async () => {
  shared?.close();
  await cleanup?.();
});

type Row = Record<string, unknown>;

interface HandInvoice {
  subtotal: string;
  tax?: string;
  total: string;
  amountDue?: string;
  discounts?: string;
  extra?: string;
  lines: Array<{ amount: string; item?: string; description: string; extra?: string }>;
}

/** The three calls of October, each on its own item ii_1..ii_3 unless `item` names one for all. */
async function writeCalls(warehouse: Warehouse, item?: string): Promise<void> {
  for (const n of [1, 2, 3]) {
    await warehouse.connection.run(
      `INSERT INTO api_calls (id, user_id, method, created_at, updated_at, completed_at, price_usd,
         stripe_invoice_item_id, first_seen_run_id, last_changed_run_id)
       VALUES ($id::UUID, '00000000-0000-4000-8000-00000000aaaa'::UUID, 'POST', $at::TIMESTAMPTZ,
         $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, 50, $item, 'r', 'r')`,
      {
        id: `00000000-0000-4000-8000-00000000000${n}`,
        at: `2026-10-0${n}T10:00:00Z`,
        item: item ?? `ii_${n}`,
      },
    );
  }
}

async function writeInvoice(warehouse: Warehouse, invoice: HandInvoice): Promise<void> {
  await warehouse.connection.run(
    `INSERT INTO invoices (id, number, status, created_at, currency, amount_due, amount_paid, amount_refunded,
       amount_remaining, subtotal, tax, total, attempt_count, attempted, paid, discounts, metadata, extra,
       first_seen_run_id, last_seen_run_id)
     VALUES ('in_1', 'N-1', 'paid', TIMESTAMPTZ '2026-11-01 02:00:00+00', 'usd', $due::DECIMAL(18, 6),
       $due::DECIMAL(18, 6), 0, 0, $subtotal::DECIMAL(18, 6), $tax::DECIMAL(18, 6), $total::DECIMAL(18, 6), 1,
       true, true, $discounts::JSON, '{}', $extra::JSON, 'r', 'r')`,
    {
      due: invoice.amountDue ?? invoice.total,
      subtotal: invoice.subtotal,
      tax: invoice.tax ?? "0",
      total: invoice.total,
      discounts: invoice.discounts ?? null,
      extra: invoice.extra ?? null,
    },
  );
  for (const [k, line] of invoice.lines.entries()) {
    await warehouse.connection.run(
      `INSERT INTO invoice_lines (invoice_id, line_number, id, amount, currency, description, invoice_item,
         metadata, extra, last_seen_run_id)
       VALUES ('in_1', $n, $id, $amount::DECIMAL(18, 6), 'usd', $description, $item, '{}', $extra::JSON, 'r')`,
      {
        n: k + 1,
        id: `il_${k + 1}`,
        amount: line.amount,
        description: line.description,
        item: line.item ?? null,
        extra: line.extra ?? null,
      },
    );
  }
}

/** A book written in a transaction rolled back after `use`: the warehouse is empty for each test. */
async function withBook(
  invoice: HandInvoice,
  use: (rows: (sql: string) => Promise<Row[]>) => Promise<void>,
  item?: string,
): Promise<void> {
  await shared.connection.run("BEGIN TRANSACTION");
  try {
    await writeCalls(shared, item);
    await writeInvoice(shared, invoice);
    await deriveCallColumns(shared.connection);
    await use(async (sql) => (await shared.connection.runAndReadAll(sql)).getRowObjectsJS() as Row[]);
  } finally {
    await shared.connection.run("ROLLBACK");
  }
}

const USAGE = [
  { amount: "50", item: "ii_1", description: "API call" },
  { amount: "50", item: "ii_2", description: "API call" },
  { amount: "50", item: "ii_3", description: "API call" },
];
const COUPON = '[{"coupon":{"amount_off":null,"id":"c10","percent_off":10}}]';

const MONTH = `SELECT status, difference::VARCHAR AS difference, discounts::VARCHAR AS discounts, tax::VARCHAR AS tax,
  lines_not_listed::VARCHAR AS not_listed, charged::VARCHAR AS charged FROM monthly_reconciliation
  WHERE month = DATE '2026-10-01' AND currency = 'USD'`;
const ROWS = `SELECT kind, reason, billed_cost::VARCHAR AS cost FROM charges WHERE invoice_id = 'in_1' AND kind <> 'usage'
  ORDER BY kind, reason`;

describe("invoice shapes read by hand", () => {
  test("gross lines with Stripe's discount amounts kept in extra, no coupon: item discounts, agrees", async () => {
    const discounted = USAGE.map((line) => ({ ...line, extra: '{"discount_amounts":[{"amount":5}]}' }));
    await withBook({ subtotal: "135", total: "135", lines: discounted }, async (rows) => {
      expect(await rows(MONTH)).toEqual([
        {
          status: "agrees",
          difference: "0.000000",
          discounts: "-15.000000",
          tax: "0.000000",
          not_listed: "0.000000",
          charged: "135.000000",
        },
      ]);
    });
  });

  test("gross lines above the subtotal, no coupon listed: the excess is item discounts, agrees", async () => {
    await withBook({ subtotal: "135", total: "135", lines: USAGE }, async (rows) => {
      expect(await rows(MONTH)).toEqual([
        expect.objectContaining({ status: "agrees", discounts: "-15.000000" }),
      ]);
    });
  });

  test("gross lines above the subtotal, one call on no line: the call is unexplained, never awaiting", async () => {
    const [first, second] = USAGE;
    await withBook(
      { subtotal: "90", total: "90", lines: [first, second].flatMap((l) => (l ? [l] : [])) },
      async (rows) => {
        expect(await rows(MONTH)).toEqual([
          expect.objectContaining({ status: "differs", difference: "-50.000000", discounts: "-10.000000" }),
        ]);
      },
    );
  });

  test("lines short of the subtotal: a cut list, its calls wait on it, the rest is lines not listed", async () => {
    await withBook({ subtotal: "170", total: "170", lines: USAGE.slice(0, 2) }, async (rows) => {
      expect(await rows(MONTH)).toEqual([
        expect.objectContaining({ status: "awaiting", difference: "0.000000", not_listed: "20.000000" }),
      ]);
    });
  });

  test("a total below its subtotal and tax with no discount listed: a difference of its own", async () => {
    await withBook({ subtotal: "150", total: "140", lines: USAGE }, async (rows) => {
      expect(await rows(MONTH)).toEqual([
        expect.objectContaining({ status: "differs", difference: "-10.000000", charged: "140.000000" }),
      ]);
      expect(await rows(ROWS)).toEqual([
        { kind: "adjustment", reason: "unexplained_total", cost: "-10.000000" },
      ]);
    });
  });

  test("a VAT line, a percent coupon at invoice level: tax and discount apart, agrees", async () => {
    const lines = [{ amount: "30", description: "VAT 20%" }, ...USAGE];
    await withBook({ subtotal: "180", total: "162", discounts: COUPON, lines }, async (rows) => {
      expect(await rows(MONTH)).toEqual([
        {
          status: "agrees",
          difference: "0.000000",
          discounts: "-18.000000",
          tax: "30.000000",
          not_listed: "0.000000",
          charged: "162.000000",
        },
      ]);
    });
  });

  test("one item a month, net of a coupon the totals did not take: read net, agrees", async () => {
    const lines = [{ amount: "135", item: "ii_oct", description: "API usage" }];
    await withBook(
      { subtotal: "135", total: "135", discounts: COUPON, lines },
      async (rows) => {
        expect(await rows(MONTH)).toEqual([
          expect.objectContaining({ status: "agrees", discounts: "-15.000000" }),
        ]);
      },
      "ii_oct",
    );
  });

  test("an earlier debt added to amount_due: a balance row, the total still the rows' sum", async () => {
    await withBook({ subtotal: "150", total: "150", amountDue: "170", lines: USAGE }, async (rows) => {
      expect(await rows(ROWS)).toEqual([
        { kind: "adjustment", reason: "balance_carried", cost: "20.000000" },
      ]);
      expect(
        await rows(
          "SELECT sum(billed_cost)::VARCHAR AS due, sum(billed_cost) FILTER (WHERE reason <> 'balance_carried')::VARCHAR AS total FROM charges WHERE invoice_id = 'in_1'",
        ),
      ).toEqual([{ due: "170.000000", total: "150.000000" }]);
    });
  });
});
