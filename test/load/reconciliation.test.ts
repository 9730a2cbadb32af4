import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { tempWorkspace } from "../helpers/exportHarness.js";
import { type BookShape, makeBook, micros, usd, writeBook } from "./billingBook.js";

/**
 * The reconciliation views (sql/views/reconciliation.sql) on hand-made books of every invoice shape the
 * real API may send, alone and combined: every priced call in exactly one class, the month's usage
 * the exact sum of its classes, no false "differs", and each planted disagreement found once.
 */

type Row = Record<string, unknown>;

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

/**
 * The file's one warehouse, empty for each test: its book is written in a transaction rolled back
 * after it. Opening a warehouse (schema, views, comments) costs more than most books.
 */
async function withEmptyWarehouse(use: (warehouse: Warehouse) => Promise<void>): Promise<void> {
  await shared.connection.run("BEGIN TRANSACTION");
  try {
    await use(shared);
  } finally {
    await shared.connection.run("ROLLBACK");
  }
}

async function rows(warehouse: Warehouse, sql: string): Promise<Row[]> {
  const reader = await warehouse.connection.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Row[];
}

const MONTHS_SQL = `SELECT strftime(month, '%Y-%m') AS month, status, unexplained_usd::VARCHAR AS unexplained,
  unexplained_calls::INTEGER AS unexplained_calls, lines_differing::INTEGER AS lines_differing,
  lines_difference::VARCHAR AS lines_difference, awaiting_calls::INTEGER AS awaiting,
  other_charges::VARCHAR AS other_charges, credits::VARCHAR AS credits,
  not_billed_usd::VARCHAR AS not_billed, invoices_incomplete::INTEGER AS incomplete,
  usage_cost_usd = invoiced_usage_usd + not_billed_usd + awaiting_usd + unexplained_usd AS adds_up,
  typeof(invoiced_usage_usd + not_billed_usd + awaiting_usd + unexplained_usd) AS sum_type
FROM monthly_reconciliation ORDER BY month`;

/** What every book must satisfy, whatever its shape. */
async function checkInvariants(warehouse: Warehouse, priced: number): Promise<Row[]> {
  // Every priced call in exactly one class.
  const [classes] = await rows(
    warehouse,
    `SELECT count(*)::INTEGER AS calls, count(DISTINCT id)::INTEGER AS ids,
       count(*) FILTER (WHERE billing_class IN ('invoiced', 'not_billed', 'awaiting_invoice', 'unexplained'))::INTEGER AS classed
     FROM call_billing_class`,
  );
  expect(classes).toEqual({ calls: priced, ids: priced, classed: priced });
  const months = await rows(warehouse, MONTHS_SQL);
  for (const month of months) {
    expect([month.month, month.adds_up, month.sum_type]).toEqual([month.month, true, "DECIMAL(38,6)"]);
  }
  return months;
}

async function withBook(shape: BookShape, use: (warehouse: Warehouse, months: Row[]) => Promise<void>) {
  await withEmptyWarehouse(async (warehouse) => {
    const book = makeBook(shape);
    await writeBook(warehouse, book);
    const months = await checkInvariants(warehouse, book.calls.length);
    await use(warehouse, months);
  });
}

const SHAPES: Array<[string, BookShape]> = [
  ["one item per call", { items: "call" }],
  ["one item per month", { items: "month" }],
  ["a subscription line", { items: "call", subscription: true }],
  ["lines cut after 3, subtotal whole", { items: "call", cutAfter: 3 }],
  ["calls paid by credits, with no item", { items: "call", creditCovered: 4 }],
  ["a draft invoice for the open month", { items: "call", draft: true }],
  ["a voided and reissued invoice", { items: "call", voided: true }],
  ["a call billed late, on the next month's invoice", { items: "call", late: true }],
  ["a late call with one item per month", { items: "month", late: true }],
  ["a discount line", { items: "call", discount: true }],
  [
    "per-call items + cut lines + subscription + credits + a late call",
    { items: "call", cutAfter: 4, subscription: true, creditCovered: 3, late: true },
  ],
  [
    "per-month item + subscription + discount + credits + draft + void",
    { items: "month", subscription: true, discount: true, creditCovered: 5, draft: true, voided: true },
  ],
];

describe("every shape: nothing unexplained, no false differs", () => {
  test.each(SHAPES)("%s", async (_, shape) => {
    await withBook(shape, async (warehouse, months) => {
      const closed = months.filter((m) => m.month !== "2026-10");
      expect(closed.map((m) => m.month)).toEqual(["2026-08", "2026-09"]);
      for (const month of closed) {
        expect([month.month, month.unexplained, month.unexplained_calls, month.lines_differing]).toEqual([
          month.month,
          "0.000000",
          0,
          0,
        ]);
        expect(month.status).not.toBe("differs");
      }
      // The open month waits for its invoice; it is never a disagreement.
      const open = months.find((m) => m.month === "2026-10");
      expect(open?.status).toBe("not_invoiced");
      expect(await rows(warehouse, "SELECT * FROM calls_not_invoiced")).toEqual([]);
      // Cut lines: the invoices say so, and their unmatched calls wait on them, never "not invoiced".
      const onIncomplete = await rows(
        warehouse,
        "SELECT count(*)::INTEGER AS n FROM call_billing_class WHERE reason = 'invoice_incomplete'",
      );
      if (shape.cutAfter === undefined) {
        expect(closed.map((m) => m.incomplete)).toEqual([0, 0]);
        expect(onIncomplete).toEqual([{ n: 0 }]);
      } else {
        expect(closed.map((m) => m.incomplete)).toEqual([1, 1]);
        expect(Number(onIncomplete[0]?.n)).toBeGreaterThan(0);
      }
      // Subscriptions and discounts are shown apart, with their amounts.
      expect(closed.map((m) => m.other_charges)).toEqual(
        shape.subscription && shape.cutAfter === undefined
          ? ["20.000000", "20.000000"]
          : closed.map(() => "0.000000"),
      );
      if (shape.cutAfter === undefined)
        expect(closed.map((m) => m.credits)).toEqual(
          closed.map(() => (shape.discount ? "-5.000000" : "0.000000")),
        );
    });
  });
});

test("credit-covered calls are not billed, with their exact amount; the draft's calls are awaiting", async () => {
  await withBook({ items: "call", creditCovered: 4, draft: true }, async (warehouse, months) => {
    const book = makeBook({ items: "call", creditCovered: 4 });
    const covered = book.calls.filter((call) => call.item === null && call.created_at.startsWith("2026-08"));
    expect(months.find((m) => m.month === "2026-08")?.not_billed).toBe(
      usd(covered.reduce((total, call) => total + micros(call.price), 0n)),
    );
    const reasons = await rows(
      warehouse,
      `SELECT strftime(month, '%Y-%m') AS month, billing_class, reason, count(*)::INTEGER AS calls
       FROM call_billing_class GROUP BY ALL ORDER BY ALL`,
    );
    expect(reasons).toEqual([
      { month: "2026-08", billing_class: "invoiced", reason: "on_invoice", calls: 8 },
      { month: "2026-08", billing_class: "not_billed", reason: "no_invoice_item", calls: 4 },
      { month: "2026-09", billing_class: "invoiced", reason: "on_invoice", calls: 8 },
      { month: "2026-09", billing_class: "not_billed", reason: "no_invoice_item", calls: 4 },
      { month: "2026-10", billing_class: "awaiting_invoice", reason: "invoice_draft", calls: 8 },
      { month: "2026-10", billing_class: "not_billed", reason: "no_invoice_item", calls: 4 },
    ]);
  });
});

test("a late call waits for the next invoice, then is invoiced on it", async () => {
  await withEmptyWarehouse(async (warehouse) => {
    const book = makeBook({ items: "call", late: true });
    // Before September's invoice: the late call is awaiting, August agrees.
    await writeBook(warehouse, { ...book, invoices: book.invoices.filter((i) => i.id !== "in_2026-09") });
    expect(
      await rows(
        warehouse,
        "SELECT reason FROM call_billing_class WHERE created_at = '2026-08-31T23:59:00Z'::TIMESTAMPTZ",
      ),
    ).toEqual([{ reason: "billed_late" }]);
    const before = await checkInvariants(warehouse, book.calls.length);
    expect(before.map((m) => [m.month, m.status])).toEqual([
      ["2026-08", "awaiting"],
      ["2026-09", "not_invoiced"],
      ["2026-10", "not_invoiced"],
    ]);
  });
});

describe("each planted disagreement is found once, with its amount", () => {
  test.each([
    ["+$1.23 on one line", { items: "call", plant: "line_plus_1_23" } as BookShape],
    [
      "+$1.23 on a per-month line, cut lines",
      { items: "month", plant: "line_plus_1_23", cutAfter: 1 } as BookShape,
    ],
    [
      "+$1.23 with subscription, credits, late call",
      {
        items: "call",
        plant: "line_plus_1_23",
        subscription: true,
        creditCovered: 2,
        late: true,
      } as BookShape,
    ],
  ])("%s", async (_, shape) => {
    await withBook(shape, async (warehouse, months) => {
      const differing = months.filter((m) => m.status === "differs");
      expect(differing.map((m) => [m.month, m.lines_differing, m.lines_difference, m.unexplained])).toEqual([
        ["2026-08", 1, "1.230000", "0.000000"],
      ]);
      const lines = await rows(
        warehouse,
        "SELECT status, difference::VARCHAR AS d FROM invoice_line_reconciliation WHERE difference <> 0",
      );
      expect(lines).toEqual([{ status: "differs", d: "1.230000" }]);
    });
  });

  test.each([
    ["per-call items", { items: "call", plant: "call_missing_from_invoice" } as BookShape],
    [
      "per-call items, subscription, discount, credits",
      {
        items: "call",
        plant: "call_missing_from_invoice",
        subscription: true,
        discount: true,
        creditCovered: 2,
      } as BookShape,
    ],
  ])("a call whose item is on no line of a whole, final invoice: %s", async (_, shape) => {
    await withBook(shape, async (warehouse, months) => {
      const missing = makeBook(shape).calls.find((call) => call.item !== null);
      const found = await rows(
        warehouse,
        "SELECT id::VARCHAR AS id, price_usd::VARCHAR AS price, invoice_id FROM calls_not_invoiced",
      );
      expect(found).toEqual([{ id: missing?.id, price: missing?.price, invoice_id: "in_2026-08" }]);
      expect(
        months.filter((m) => m.status === "differs").map((m) => [m.month, m.unexplained, m.lines_differing]),
      ).toEqual([["2026-08", missing?.price, 0]]);
    });
  });

  test("a call missing from a per-month line: the line is short by its price", async () => {
    await withBook({ items: "month", plant: "call_missing_from_invoice" }, async (warehouse, months) => {
      const missing = makeBook({ items: "month" }).calls[0];
      expect(months.filter((m) => m.status === "differs").map((m) => [m.month, m.lines_difference])).toEqual([
        ["2026-08", `-${missing?.price}`],
      ]);
      expect(await rows(warehouse, "SELECT * FROM calls_not_invoiced")).toEqual([]);
    });
  });

  test("a call that lost its item while its per-month line bills it: the line is over by its price", async () => {
    await withBook({ items: "month", plant: "month_item_missing_call" }, async (warehouse, months) => {
      const lost = makeBook({ items: "month" }).calls[0];
      expect(months.filter((m) => m.status === "differs").map((m) => [m.month, m.lines_difference])).toEqual([
        ["2026-08", lost?.price],
      ]);
      const [classed] = await rows(
        warehouse,
        `SELECT billing_class FROM call_billing_class WHERE id = '${lost?.id}'::UUID`,
      );
      expect(classed).toEqual({ billing_class: "not_billed" });
    });
  });

  test.each([
    ["per-call items, after the usage lines", { items: "call", plant: "duplicate_line" } as BookShape],
    ["per-call items, first of all", { items: "call", plant: "duplicate_line_first" } as BookShape],
    [
      "per-month item with subscription",
      { items: "month", plant: "duplicate_line", subscription: true } as BookShape,
    ],
    ["per-month item, first of all", { items: "month", plant: "duplicate_line_first" } as BookShape],
  ])("an extra $2.50 line billing an item twice: %s", async (_, shape) => {
    await withBook(shape, async (warehouse, months) => {
      const lines = await rows(
        warehouse,
        `SELECT status, item_lines::INTEGER AS item_lines, difference::VARCHAR AS d
         FROM invoice_line_reconciliation WHERE difference <> 0`,
      );
      expect(lines).toEqual([{ status: "differs", item_lines: 2, d: "2.500000" }]);
      expect(months.filter((m) => m.status === "differs").map((m) => [m.month, m.lines_difference])).toEqual([
        ["2026-08", "2.500000"],
      ]);
    });
  });
});

test("an extra line no call names is another charge, shown apart, never a difference", async () => {
  await withEmptyWarehouse(async (warehouse) => {
    const book = makeBook({ items: "call" });
    const august = book.invoices.find((invoice) => invoice.id === "in_2026-08");
    if (august === undefined) throw new Error("no August invoice");
    august.lines.push({ amount: "7.000000", item: "ii_manual", description: "Onboarding" });
    august.subtotal = usd(micros(august.subtotal) + 7_000_000n);
    await writeBook(warehouse, book);
    const months = await checkInvariants(warehouse, book.calls.length);
    expect(months.map((m) => [m.month, m.status, m.other_charges])).toEqual([
      ["2026-08", "agrees", "7.000000"],
      ["2026-09", "agrees", "0.000000"],
      ["2026-10", "not_invoiced", "0.000000"],
    ]);
    expect(await rows(warehouse, "SELECT line_class, status FROM invoice_lines_without_calls")).toEqual([
      { line_class: "other_charge", status: "other_charge" },
    ]);
  });
});

test("what the credits paid: the lesser of the calls not billed and the credits seen consumed", async () => {
  await withEmptyWarehouse(async (warehouse) => {
    const book = makeBook({ items: "call", creditCovered: 4 });
    await writeBook(warehouse, book);
    // August: 3.00 consumed between two snapshots inside the month, and the plan's 20.00 allowance.
    // September: 1,000.00 consumed, more than its calls not billed.
    const snapshot = async (run: string, at: string, monthly: string) =>
      warehouse.connection.run(
        `INSERT INTO balance_snapshots (run_id, taken_at, scope, created_at, updated_at,
           monthly_api_credits_remaining, monthly_api_credits_remaining_monetary_value,
           monthly_api_credits_refresh_at, stable_api_credits_remaining,
           stable_api_credits_remaining_monetary_value, subscription_details)
         VALUES ($run, $at::TIMESTAMPTZ, 'user', $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, 0, $monthly::DECIMAL(18, 6),
           NULL, 0, 0, '{"modeling_app": {"monthly_pay_as_you_go_api_credits_monetary_value": 20.0}}')`,
        { run, at, monthly },
      );
    await snapshot("a", "2026-08-03T00:00:00Z", "20");
    await snapshot("b", "2026-08-20T00:00:00Z", "17");
    await snapshot("c", "2026-09-02T00:00:00Z", "2000");
    await snapshot("d", "2026-09-25T00:00:00Z", "1000");
    const months = await rows(
      warehouse,
      `SELECT strftime(month, '%Y-%m') AS month, not_billed_usd::VARCHAR AS not_billed,
         credits_consumed_usd::VARCHAR AS consumed, credits_paid_usd::VARCHAR AS paid,
         monthly_allowance_usd::VARCHAR AS allowance
       FROM monthly_reconciliation ORDER BY month`,
    );
    const notBilled = (month: string) =>
      usd(
        book.calls
          .filter((call) => call.item === null && call.created_at.startsWith(month))
          .reduce((total, call) => total + micros(call.price), 0n),
      );
    expect(months).toEqual([
      {
        month: "2026-08",
        not_billed: notBilled("2026-08"),
        consumed: "3.000000",
        paid: "3.000000",
        allowance: "20.000000",
      },
      {
        month: "2026-09",
        not_billed: notBilled("2026-09"),
        consumed: "1000.000000",
        paid: notBilled("2026-09"),
        allowance: "20.000000",
      },
      { month: "2026-10", not_billed: notBilled("2026-10"), consumed: null, paid: null, allowance: null },
    ]);
  });
});

test("any combination of shapes: every priced call in one class, sums exact, no false differs", async () => {
  await withEmptyWarehouse(async (warehouse) => {
    const shapes = fc.record({
      items: fc.constantFrom("call" as const, "month" as const),
      subscription: fc.boolean(),
      cutAfter: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
      creditCovered: fc.integer({ min: 0, max: 12 }),
      draft: fc.boolean(),
      voided: fc.boolean(),
      late: fc.boolean(),
      discount: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        await warehouse.connection.run(
          "DELETE FROM invoice_lines; DELETE FROM invoices; DELETE FROM api_calls",
        );
        const book = makeBook(shape);
        await writeBook(warehouse, book);
        const months = await checkInvariants(warehouse, book.calls.length);
        for (const month of months.filter((m) => m.month !== "2026-10"))
          expect([month.month, month.status, month.unexplained, month.lines_differing]).toEqual([
            month.month,
            month.status === "awaiting" ? "awaiting" : "agrees",
            "0.000000",
            0,
          ]);
      }),
      { numRuns: 25, seed: 27 },
    );
  });
});
