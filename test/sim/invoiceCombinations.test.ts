import { afterEach, describe, expect, test } from "vitest";
import type { Invoice } from "../../src/api/schemas/index.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { callsOf, listInvoices, micros, pricePerItem } from "./billingTruth.js";
import { must } from "./helpers.js";
import { cents, expectInvoiceIdentities, type PlantedLine } from "./invoiceIdentities.js";
import { specProblems } from "./specShape.js";

/** A personal account (user 0) with three closed months (July to September 2026) and an org. */
const BASE = { seed: 11, calls: 6000, days: 120, users: 4 } satisfies SimulatorOptions;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function invoicesOf(
  options: SimulatorOptions,
  scope: "user" | "org" = "user",
  planted?: PlantedLine,
): Promise<Invoice[]> {
  await sim?.close();
  sim = await startSimulator(options);
  const token = must(
    scope === "user" ? sim.users[0] : sim.users.find((user) => user.orgRole === "admin"),
  ).token;
  const invoices = await listInvoices(sim, `/${scope}/payment/invoices`, token);
  expectInvoiceIdentities(invoices, options, planted);
  const response = await fetch(`${sim.url}/${scope}/payment/invoices?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  for (const item of ((await response.json()) as { items: unknown[] }).items)
    expect(specProblems(item, "Invoice")).toEqual([]);
  return invoices;
}

async function totalDue(options: SimulatorOptions): Promise<string> {
  const server = await startSimulator(options);
  try {
    const response = await fetch(`${server.url}/user/payment/balance?include_total_due=true`, {
      headers: { authorization: `Bearer ${must(server.users[0]).token}` },
    });
    return String(((await response.json()) as { total_due: unknown }).total_due);
  } finally {
    await server.close();
  }
}

describe("shapes combined", () => {
  test("item-net + tax amount + per-call items + planted: $1.23 lands after the item discount", async () => {
    const options = {
      ...BASE,
      invoiceItems: "per-call",
      invoiceDiscount: "item-net",
      invoiceTax: "amount",
      invoiceDisagreement: true,
      extraInvoiceLine: true,
    } satisfies SimulatorOptions;
    const invoices = await invoicesOf(options);
    const prices = pricePerItem(callsOf(options, [0]));
    const [first] = invoices;
    const [top, extra, ...others] = first?.lines ?? [];
    const price = must(prices.get(must(top?.invoice_item)));
    // The first usage line: net of its 10%, then the planted $1.23; the extra line: no item discount.
    expect(micros(top?.amount)).toBe(price - cents(price, 10n, 100n) + 1_230_000n);
    expect([top?.amount, extra?.amount, extra?.invoice_item]).toEqual(["1.28", "2.5", top?.invoice_item]);
    for (const line of others) {
      const gross = must(prices.get(must(line.invoice_item)));
      expect(micros(line.amount)).toBe(gross - cents(gross, 10n, 100n));
    }
    expect(first).toMatchObject({ subtotal: "296.85", tax: "24.49", total: "321.34", amount_paid: "321.34" });
    // Only the planted invoice differs from its net usage.
    for (const invoice of invoices.slice(1))
      for (const line of invoice.lines) {
        const gross = must(prices.get(must(line.invoice_item)));
        expect(micros(line.amount)).toBe(gross - cents(gross, 10n, 100n));
      }
  });

  test("item-gross + planted: the line is gross + $1.23, its discount 10% of the unplanted gross", async () => {
    const options = {
      ...BASE,
      invoiceDiscount: "item-gross",
      invoiceDisagreement: true,
    } satisfies SimulatorOptions;
    const plain = await invoicesOf({ ...BASE, invoiceDiscount: "item-gross" });
    const first = must(plain[0]);
    const invoices = await invoicesOf(options, "user", {
      number: must(first.number),
      index: 0,
      micros: 1_230_000n,
    });
    // 325.54 + 1.23 on the line; the subtotal less 32.55, 10% of 325.54.
    expect(invoices[0]?.lines.map((line) => line.amount)).toEqual(["326.77"]);
    expect(invoices[0]).toMatchObject({ subtotal: "294.22", total: "294.22" });
    expect(micros(invoices[0]?.subtotal) - micros(first.subtotal)).toBe(1_230_000n);
  });

  test("void-reissue + statuses + subscription: a void copy, the void original, its reissue, then the rest", async () => {
    const options = {
      ...BASE,
      voidReissue: true,
      invoiceStatuses: true,
      subscription: true,
    } satisfies SimulatorOptions;
    const invoices = await invoicesOf(options);
    expect(invoices.map((invoice) => [invoice.status, invoice.number?.slice(9)])).toEqual([
      ["void", "202607-V"],
      ["void", "202607"],
      ["paid", "202607-R"],
      ["uncollectible", "202608"],
      ["open", "202609"],
      ["draft", "202610"],
    ]);
    const [copy, original, reissue] = invoices;
    const carried = new Set(callsOf(options, [0]).map((call) => call.stripe_invoice_item_id ?? ""));
    // Only the original's items are the calls' items; each issue has its own subscription line.
    for (const [invoice, carries] of [
      [copy, false],
      [original, true],
      [reissue, false],
    ] as const) {
      const [usage, plan] = invoice?.lines ?? [];
      expect(carried.has(usage?.invoice_item ?? ""), invoice?.number).toBe(carries);
      expect([plan?.amount, plan?.invoice_item, plan?.description]).toEqual([
        "20",
        undefined,
        "Zoo Pro (monthly)",
      ]);
      expect(invoice).toMatchObject({ subtotal: "345.54", total: "345.54", amount_due: "345.54" });
    }
    expect(new Set([copy?.lines[1]?.id, original?.lines[1]?.id, reissue?.lines[1]?.id]).size).toBe(3);
    expect(reissue).toMatchObject({ amount_paid: "345.54", amount_remaining: "0", paid: true });
    expect(invoices.at(-1)?.created_at).toBe("2026-10-01T02:00:00Z");
  });

  test("eur + coupon + partial payment + refund + customer balance", async () => {
    const options = {
      ...BASE,
      invoiceCurrency: "eur",
      invoiceDiscount: "coupon",
      partialPayment: true,
      invoiceRefund: true,
      customerBalance: true,
    } satisfies SimulatorOptions;
    const invoices = await invoicesOf(options);
    // 325.54 x 0.92 = 299.4968: 299.50; 10% off: 269.55; the balance's $5.00 is 4.60 EUR; a quarter
    // of the 264.95 paid is refunded: 66.2375, 66.24.
    expect(invoices[0]).toMatchObject({
      currency: "eur",
      status: "paid",
      subtotal: "299.5",
      total: "269.55",
      amount_due: "264.95",
      amount_paid: "264.95",
      amount_remaining: "0",
      amount_refunded: "66.24",
      refund_status: "partially_refunded",
      paid: true,
    });
    expect(invoices[1]).toMatchObject({ status: "paid", amount_refunded: "0", refund_status: null });
    expect(invoices.at(-1)).toMatchObject({
      status: "open",
      total: "188.5",
      amount_due: "188.5",
      amount_paid: "94.25",
      amount_remaining: "94.25",
      paid: false,
    });
    // total_due stays in USD: the same invoices' remainders had they been in dollars.
    const { invoiceCurrency: _eur, ...inDollars } = options;
    expect(await totalDue(options)).toBe(await totalDue(inDollars));
  });

  test.each<[string, SimulatorOptions]>([
    [
      "per-call items cut to 5 lines, subscription, statuses, credits as a discount, tax line, item-net, gbp",
      {
        invoiceItems: "per-call",
        invoiceLinesLimit: 5,
        subscription: true,
        invoiceStatuses: true,
        creditsOnInvoice: "discount",
        invoiceTax: "line",
        invoiceDiscount: "item-net",
        invoiceCurrency: "gbp",
        voidReissue: true,
        partialPayment: true,
      },
    ],
    [
      "credits as a line, item-gross, tax amount, cad, late calls, every payment shape, missing item, extra line",
      {
        creditsOnInvoice: "line",
        invoiceDiscount: "item-gross",
        invoiceTax: "amount",
        invoiceCurrency: "cad",
        lateBilling: { share: 0.3 },
        voidReissue: true,
        invoiceStatuses: true,
        customerBalance: true,
        invoiceRefund: true,
        partialPayment: true,
        missingInvoiceItem: true,
        extraInvoiceLine: true,
      },
    ],
    [
      "adversarial prices, credits as a discount, coupon, tax amount, eur, per-call items",
      {
        priceMode: "adversarial",
        creditsOnInvoice: "discount",
        invoiceDiscount: "coupon",
        invoiceTax: "amount",
        invoiceCurrency: "eur",
        invoiceItems: "per-call",
        customerBalance: true,
      },
    ],
  ])("%s: every identity on the user's and the org's invoices", async (_shape, shape) => {
    for (const scope of ["user", "org"] as const) {
      const invoices = await invoicesOf({ ...BASE, ...shape }, scope);
      expect(invoices.length).toBeGreaterThanOrEqual(3);
    }
  });
});
