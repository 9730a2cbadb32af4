import { afterEach, describe, expect, test } from "vitest";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { failingRules, formatRuleResult, summaryLine } from "../focus/conformance.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { focusConformance } from "./focusCheck.js";
import { expectIdentities, expectSquare, type LedgerRead, readLedger } from "./ledgerRead.js";

/**
 * The charge ledger and the books against every invoice shape the simulator serves (tax, coupons,
 * item discounts written gross or net, refunds, partial payment, write-offs, the customer balance,
 * another currency, void and reissue, drafts), alone and combined: the ledger's identities hold
 * exactly, no month differs where the books are square, what was charged, paid, outstanding and
 * written off is each invoice's own, and the FOCUS dataset (the view, and the Parquet files of
 * `export --focus`) breaks no rule of the FinOps Foundation's own rules model.
 */
const BASE: SimulatorOptions = {
  seed: 41,
  calls: 1200,
  days: 110,
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

/**
 * Exports user 0 (or the org) of a simulator built with `options` with the FOCUS dataset, checks
 * the FOCUS rules over the view and the files unless `conformance` is false (a planted difference
 * changes no FOCUS column's shape), and reads the ledger back.
 */
async function exportShape(
  options: Partial<SimulatorOptions>,
  { scope = "user", conformance = true }: { scope?: "user" | "org"; conformance?: boolean } = {},
): Promise<LedgerRead> {
  sim = await startSimulator({ ...BASE, ...options });
  const workspace = await tempWorkspace();
  cleanups.push(workspace.cleanup);
  const flags = { db: workspace.db, out: workspace.out, operations: false, focus: true, scope } as const;
  const admin = sim.users.find((user) => user.orgRole === "admin");
  const token = (scope === "org" ? admin : sim.users[0])?.token ?? "";
  const run = await exportOnce({ baseUrl: sim.url, token, flags, now: () => sim?.clock.now() ?? new Date() });
  expect(run.exitCode, JSON.stringify(run.summary)).toBe(0);
  expect(run.summary.focus?.rows).toBeGreaterThan(0);
  if (conformance) {
    const { view, parquet } = await focusConformance(workspace.db, workspace.out);
    // No rule of any keyword fails (docs/focus.md); on failure, the rules and why.
    const failed = (results: typeof view) => failingRules(results, KEYWORDS).map(formatRuleResult);
    expect(failed(view), summaryLine(view)).toEqual([]);
    expect(failed(parquet), summaryLine(parquet)).toEqual([]);
    expect(parquet.map((rule) => rule.status)).toEqual(view.map((rule) => rule.status));
  }
  const read = await readLedger(workspace.db);
  // Enough invoices for the shape to show on several.
  expect(read.invoices.length).toBeGreaterThan(2);
  return read;
}

const KEYWORDS = ["MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "RECOMMENDED"];

describe("no false difference, and the books add up, in every shape", () => {
  test.each<[string, Partial<SimulatorOptions>]>([
    ["tax in the tax field", { invoiceTax: "amount" }],
    ["tax as a line", { invoiceTax: "line", invoiceItems: "per-call" }],
    ["an invoice coupon", { invoiceDiscount: "coupon" }],
    ["item discounts, gross lines", { invoiceDiscount: "item-gross" }],
    ["item discounts, net lines", { invoiceDiscount: "item-net" }],
    [
      "item discounts, net lines, one item per call",
      { invoiceDiscount: "item-net", invoiceItems: "per-call" },
    ],
    ["a refund after payment", { invoiceRefund: true }],
    ["a partial payment", { partialPayment: true }],
    ["statuses: draft, open, uncollectible, void copy", { invoiceStatuses: true }],
    ["the customer balance paying part", { customerBalance: true }],
    ["void and reissue with new items", { voidReissue: true }],
    [
      "void and reissue, one item per call, a subscription",
      { voidReissue: true, invoiceItems: "per-call", subscription: true },
    ],
    ["invoices in euros", { invoiceCurrency: "eur" }],
    [
      "coupon + tax + credits as a discount + partial payment + refund + balance",
      {
        invoiceDiscount: "coupon",
        invoiceTax: "amount",
        creditsOnInvoice: "discount",
        partialPayment: true,
        invoiceRefund: true,
        customerBalance: true,
      },
    ],
    [
      "item-net + tax line + credits as a line + subscription + statuses + reissue",
      {
        invoiceDiscount: "item-net",
        invoiceTax: "line",
        creditsOnInvoice: "line",
        subscription: true,
        invoiceStatuses: true,
        voidReissue: true,
        partialPayment: true,
      },
    ],
  ])("%s", async (_shape, options) => {
    const read = await exportShape(options);
    expectSquare(read);
    await expectShown(read, options);
  });
});

/** Sums a column of DECIMAL text exactly, in micro units. */
function total(values: readonly string[]): bigint {
  return values.reduce((sum, value) => sum + micros(value), 0n);
}

function micros(text: string): bigint {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6));
  return negative ? -value : value;
}

async function one(db: string, sql: string): Promise<bigint> {
  const [row] = await queryDb(db, `SELECT coalesce((${sql}), 0)::DECIMAL(38, 6)::VARCHAR AS v`);
  return micros(String(row?.v));
}

/** What each shape puts on the invoices shows in the books, exactly, and is not 0. */
async function expectShown(read: LedgerRead, options: Partial<SimulatorOptions>): Promise<void> {
  const { db, months, invoices } = read;
  const books = (key: keyof (typeof months)[number]) => total(months.map((month) => String(month[key])));
  if (options.invoiceTax === "amount") {
    const tax = await one(db, "SELECT sum(tax) FROM invoices WHERE status NOT IN ('draft', 'void')");
    expect(tax).toBeGreaterThan(0n);
    expect(books("tax")).toBe(tax);
  }
  if (options.invoiceTax === "line") {
    const lines = await one(
      db,
      "SELECT sum(l.amount) FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE l.description LIKE 'Sales tax%' AND i.status NOT IN ('draft', 'void')",
    );
    expect(lines).toBeGreaterThan(0n);
    expect(books("tax")).toBe(lines);
  }
  if (options.invoiceDiscount === "coupon") {
    const off = await one(
      db,
      "SELECT sum(subtotal + tax - total) FROM invoices WHERE status NOT IN ('draft', 'void')",
    );
    expect(off).toBeGreaterThan(0n);
    expect(books("discounts")).toBe(-off);
  }
  if (options.invoiceDiscount === "item-gross") {
    const off = await one(db, "SELECT sum(lines_amount - subtotal) FROM invoice_totals WHERE is_final");
    expect(off).toBeGreaterThan(0n);
    expect(books("discounts")).toBe(-off);
  }
  if (options.invoiceDiscount === "item-net") {
    // The lines left out 10% of their calls' cost, to the cent, line by line: the discount rows say
    // what, and the usage lines plus the discounts are what the calls cost.
    expect(books("discounts")).toBeLessThan(0n);
    const itemDiscounts = await one(db, "SELECT sum(item_discount) FROM invoice_line_reconciliation");
    expect(books("discounts")).toBe(-itemDiscounts);
  }
  if (options.invoiceRefund === true) {
    const refunded = total(invoices.map((invoice) => invoice.refunded));
    expect(refunded).toBeGreaterThan(0n);
    expect(books("refunded")).toBe(refunded);
    expect(await one(db, "SELECT sum(billed_cost) FROM charges WHERE kind = 'refund'")).toBe(-refunded);
  }
  if (options.partialPayment === true) {
    const remaining = await one(db, "SELECT sum(amount_remaining) FROM invoices WHERE status = 'open'");
    expect(remaining).toBeGreaterThan(0n);
    expect(books("outstanding")).toBe(remaining);
    expect(total(invoices.filter((i) => i.status === "open").map((i) => i.paid))).toBeGreaterThan(0n);
  }
  if (options.invoiceStatuses === true) {
    expect(books("written_off")).toBeGreaterThan(0n);
    expect(
      await one(
        db,
        "SELECT count(*) FROM charges c JOIN invoices i ON i.id = c.invoice_id WHERE i.status = 'void'",
      ),
    ).toBe(0n);
    const drafts = await queryDb(
      db,
      "SELECT DISTINCT c.state FROM charges c JOIN invoices i ON i.id = c.invoice_id WHERE i.status = 'draft'",
    );
    expect(drafts).toEqual([{ state: "estimated" }]);
  }
  if (options.customerBalance === true) {
    const applied = await one(
      db,
      "SELECT sum(total - amount_due) FROM invoices WHERE status NOT IN ('draft', 'void')",
    );
    expect(applied).toBeGreaterThan(0n);
    expect(await one(db, "SELECT sum(billed_cost) FROM charges WHERE reason = 'customer_balance'")).toBe(
      -applied,
    );
  }
  if (options.voidReissue === true) {
    const reasons = await queryDb(
      db,
      "SELECT reason, count(*)::INTEGER AS calls FROM call_billing_class WHERE reason IN ('reissued', 'invoice_void') GROUP BY 1",
    );
    expect(reasons).toEqual([{ reason: "reissued", calls: expect.any(Number) }]);
    expect(await one(db, "SELECT count(*) FROM charges WHERE correction = 'reissued'")).toBeGreaterThan(0n);
  }
  if (options.invoiceCurrency !== undefined) {
    const code = options.invoiceCurrency.toUpperCase();
    const foreign = months.filter((month) => month.currency === code);
    expect(foreign.length).toBeGreaterThan(1);
    for (const month of foreign) expect([month.month, month.status]).toEqual([month.month, "other_currency"]);
    for (const invoice of invoices) expect([invoice.id, invoice.currency]).toEqual([invoice.id, code]);
    const usd = months.filter((month) => month.currency === "USD" && month.charged !== "0.000000");
    expect(usd).toEqual([]);
  }
}

test("org scope: the org's invoices and every member's calls, with tax, a coupon and a partial payment", async () => {
  const options: Partial<SimulatorOptions> = {
    users: 4,
    subscription: true,
    invoiceTax: "amount",
    invoiceDiscount: "coupon",
    partialPayment: true,
  };
  const read = await exportShape(options, { scope: "org" });
  expectSquare(read);
  await expectShown(read, options);
  // The org is billed: its members' usage and its invoices are of one billing account.
  const accounts = await queryDb(
    read.db,
    "SELECT DISTINCT billing_account_id, billing_account_kind FROM charges ORDER BY ALL",
  );
  expect(accounts).toHaveLength(1);
  expect(accounts[0]?.billing_account_kind).toBe("org");
});

describe("each planted difference is found once, with its amount, on discounted and taxed invoices", () => {
  test.each<[string, Partial<SimulatorOptions>]>([
    ["net lines", { invoiceDiscount: "item-net" }],
    ["gross lines", { invoiceDiscount: "item-gross" }],
    [
      "net lines, one item per call, tax as a line",
      { invoiceDiscount: "item-net", invoiceItems: "per-call", invoiceTax: "line" },
    ],
    ["an invoice coupon and tax", { invoiceDiscount: "coupon", invoiceTax: "amount" }],
  ])("$1.23 on one line: %s", async (_shape, options) => {
    const read = await exportShape({ ...options, invoiceDisagreement: true }, { conformance: false });
    expectIdentities(read);
    expect(read.differences).toEqual([
      expect.objectContaining({ reason: "line_differs", amount: "1.230000" }),
    ]);
    const differing = read.months.filter((month) => month.status === "differs");
    expect(differing.map((month) => [month.currency, month.difference])).toEqual([["USD", "1.230000"]]);
  });

  test.each<[string, Partial<SimulatorOptions>]>([
    ["gross lines", { invoiceDiscount: "item-gross" }],
    ["net lines", { invoiceDiscount: "item-net" }],
    [
      "gross lines, one item per call, a subscription",
      { invoiceDiscount: "item-gross", invoiceItems: "per-call", subscription: true },
    ],
    [
      "an invoice coupon, tax and a partial payment",
      { invoiceDiscount: "coupon", invoiceTax: "amount", partialPayment: true },
    ],
  ])("one call missing from a discounted invoice: %s", async (_shape, options) => {
    const read = await exportShape({ ...options, missingInvoiceItem: true }, { conformance: false });
    expectIdentities(read);
    const [missing] = await queryDb(
      read.db,
      "SELECT price_usd::VARCHAR AS price, count(*) OVER ()::INTEGER AS calls FROM calls_not_invoiced",
    );
    expect(missing?.calls).toBe(1);
    expect(read.differences).toEqual([
      expect.objectContaining({ reason: "unexplained_calls", amount: `-${String(missing?.price)}` }),
    ]);
    const differing = read.months.filter((month) => month.status === "differs");
    expect(differing.map((month) => month.difference)).toEqual([`-${String(missing?.price)}`]);
  });

  test.each<[string, Partial<SimulatorOptions>]>([
    ["net lines", { invoiceDiscount: "item-net" }],
    ["gross lines, one item per call", { invoiceDiscount: "item-gross", invoiceItems: "per-call" }],
    ["tax as a line, a refund", { invoiceTax: "line", invoiceRefund: true }],
  ])("an extra line billing an item again: %s", async (_shape, options) => {
    const read = await exportShape({ ...options, extraInvoiceLine: true }, { conformance: false });
    expectIdentities(read);
    expect(read.differences).toEqual([
      expect.objectContaining({ reason: "line_differs", amount: "2.500000" }),
    ]);
  });
});
