import { afterEach, describe, expect, test } from "vitest";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The reconciliation against the simulator's billing in every shape it serves (docs/simulator-
 * billing.md), alone and combined: credits first, then invoices of the billable rest, with items per
 * month or per call, a subscription line, lines cut short, drafts, voids and uncollectible invoices,
 * credits shown on the invoice, and calls billed late. Whatever the shape, every priced call is in
 * exactly one class, each month's usage is the sum of its classes exactly in DECIMAL, and only a
 * planted disagreement makes a month differ, found once with its amount.
 */
const BASE: SimulatorOptions = {
  seed: 27,
  calls: 3000,
  days: 120,
  users: 2,
  now: new Date("2026-06-20T00:00:00Z"),
};

let sim: RunningSimulator | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanups.splice(0)) await close();
  await sim?.close();
  sim = undefined;
});

/** Exports user 0 of a simulator built with `options` and reads the reconciliation back. */
async function reconcile(options: Partial<SimulatorOptions>) {
  sim = await startSimulator({ ...BASE, ...options });
  const workspace = await tempWorkspace();
  cleanups.push(workspace.cleanup);
  const token = sim.users[0]?.token ?? "";
  const flags = { db: workspace.db, out: workspace.out, operations: false } as const;
  const run = await exportOnce({ baseUrl: sim.url, token, flags, now: () => sim?.clock.now() ?? new Date() });
  expect(run.exitCode, JSON.stringify(run.summary)).toBe(0);
  const db = workspace.db;
  const [calls] = await queryDb(
    db,
    `SELECT (SELECT count(*) FROM api_calls WHERE price_usd IS NOT NULL)::INTEGER AS priced,
            count(*)::INTEGER AS classed, count(DISTINCT id)::INTEGER AS distinct_calls,
            count(*) FILTER (WHERE billing_class NOT IN ('invoiced', 'not_billed', 'awaiting_invoice', 'unexplained'))::INTEGER AS unknown
     FROM call_billing_class`,
  );
  const months = await queryDb(
    db,
    `SELECT strftime(month, '%Y-%m') AS month, status, unexplained_usd::VARCHAR AS unexplained,
            unexplained_calls::INTEGER AS unexplained_calls, lines_differing::INTEGER AS lines_differing,
            lines_difference::VARCHAR AS lines_difference, invoiced_usage_usd::VARCHAR AS invoiced,
            on_incomplete_invoice_calls::INTEGER AS on_incomplete,
            usage_cost_usd = invoiced_usage_usd + not_billed_usd + awaiting_usd + unexplained_usd AS adds_up,
            typeof(usage_cost_usd) AS usage_type, typeof(unexplained_usd) AS unexplained_type
     FROM monthly_reconciliation ORDER BY month`,
  );
  return { calls, months, db, summary: run.summary };
}

/** What every shape must satisfy: each priced call in one class, each month exactly its classes. */
function expectEveryCallClassedOnce(result: Awaited<ReturnType<typeof reconcile>>): void {
  expect(result.calls).toMatchObject({ unknown: 0 });
  expect(result.calls?.classed).toBe(result.calls?.priced);
  expect(result.calls?.distinct_calls).toBe(result.calls?.priced);
  expect(result.months.length).toBeGreaterThan(3);
  for (const month of result.months) {
    expect(month, month.month as string).toMatchObject({
      adds_up: true,
      usage_type: "DECIMAL(38,6)",
      unexplained_type: "DECIMAL(38,6)",
    });
  }
}

function expectNoDisagreement(result: Awaited<ReturnType<typeof reconcile>>, cut: boolean): void {
  expectEveryCallClassedOnce(result);
  for (const month of result.months) {
    expect(month, month.month as string).toMatchObject({ unexplained: "0.000000", lines_differing: 0 });
    expect(month.status, month.month as string).not.toBe("differs");
  }
  // The test sees real invoices: some months are invoiced in full, or, with lines cut short, the
  // listed lines' calls are invoiced and the rest wait on an incomplete invoice.
  const invoiced = result.months.filter((month) => month.invoiced !== "0.000000");
  if (!cut) expect(invoiced.some((month) => month.status === "agrees")).toBe(true);
  else
    expect(invoiced.some((month) => Number(month.on_incomplete) > 0 && month.status === "awaiting")).toBe(
      true,
    );
}

describe("no false disagreement in any shape", () => {
  test.each<[string, Partial<SimulatorOptions>]>([
    ["credits first, one item a month (the default)", {}],
    ["one item per call", { invoiceItems: "per-call" }],
    ["a subscription line", { subscription: true }],
    ["lines cut after 10 items, subtotal whole", { invoiceItems: "per-call", invoiceLinesLimit: 10 }],
    ["draft, open, void and uncollectible invoices", { invoiceStatuses: true }],
    ["the credits applied as a line", { creditsOnInvoice: "line" }],
    ["the credits applied as a discount", { creditsOnInvoice: "discount" }],
    ["no call billed late", { lateBilling: { share: 0 } }],
    [
      "per-call items + cut lines + subscription + credits as a line + late calls + statuses",
      {
        invoiceItems: "per-call",
        invoiceLinesLimit: 10,
        subscription: true,
        creditsOnInvoice: "line",
        invoiceStatuses: true,
      },
    ],
  ])("%s", async (_shape, options) => {
    expectNoDisagreement(await reconcile(options), options.invoiceLinesLimit !== undefined);
  });
});

/** The months that differ, and what makes them. */
function differing(result: Awaited<ReturnType<typeof reconcile>>) {
  return result.months.filter((month) => month.status === "differs");
}

describe("each planted disagreement is found exactly once, with its amount", () => {
  test.each<[string, Partial<SimulatorOptions>]>([
    ["alone", {}],
    ["with per-call items, a subscription and late calls", { invoiceItems: "per-call", subscription: true }],
  ])("$1.23 on one line, %s", async (_shape, options) => {
    const result = await reconcile({ ...options, invoiceDisagreement: true });
    expectEveryCallClassedOnce(result);
    expect(differing(result)).toEqual([
      expect.objectContaining({ lines_differing: 1, lines_difference: "1.230000", unexplained: "0.000000" }),
    ]);
  });

  test.each<[string, Partial<SimulatorOptions>]>([
    ["alone", {}],
    ["with per-call items and a subscription", { invoiceItems: "per-call", subscription: true }],
  ])("one call missing its item, %s", async (_shape, options) => {
    const result = await reconcile({ ...options, missingInvoiceItem: true });
    expectEveryCallClassedOnce(result);
    const [missing] = await queryDb(
      result.db,
      "SELECT price_usd::VARCHAR AS price, count(*) OVER ()::INTEGER AS n FROM call_billing_class WHERE billing_class = 'unexplained'",
    );
    expect(missing?.n).toBe(1);
    expect(differing(result)).toEqual([
      expect.objectContaining({ unexplained_calls: 1, unexplained: missing?.price, lines_differing: 0 }),
    ]);
  });

  test.each<[string, Partial<SimulatorOptions>]>([
    ["alone", {}],
    [
      "with per-call items, cut lines stay complete elsewhere",
      { invoiceItems: "per-call", subscription: true },
    ],
  ])("one extra line, %s", async (_shape, options) => {
    const result = await reconcile({ ...options, extraInvoiceLine: true });
    expectEveryCallClassedOnce(result);
    expect(differing(result)).toEqual([
      expect.objectContaining({ lines_differing: 1, lines_difference: "2.500000", unexplained: "0.000000" }),
    ]);
  });
});
