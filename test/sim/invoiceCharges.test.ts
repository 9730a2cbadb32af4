import { afterEach, describe, expect, test } from "vitest";
import type { Invoice } from "../../src/api/schemas/index.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { callsOf, listInvoices, micros, pricePerItem } from "./billingTruth.js";
import { must } from "./helpers.js";
import { cents, converted, expectInvoiceIdentities } from "./invoiceIdentities.js";
import { specProblems } from "./specShape.js";

/** A personal account (user 0) with three closed months (July to September 2026) and an org. */
const BASE = { seed: 11, calls: 6000, days: 120, users: 4 } satisfies SimulatorOptions;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/**
 * User 0's invoices and the org admin's, each listing checked against the identities and, raw, the
 * spec's Invoice schema.
 */
async function listings(options: SimulatorOptions): Promise<{ user: Invoice[]; org: Invoice[] }> {
  sim = await startSimulator(options);
  const admin = must(sim.users.find((user) => user.orgRole === "admin"));
  const user = await listInvoices(sim, "/user/payment/invoices", must(sim.users[0]).token);
  const org = await listInvoices(sim, "/org/payment/invoices", admin.token);
  for (const [path, token] of [
    ["/user/payment/invoices", must(sim.users[0]).token],
    ["/org/payment/invoices", admin.token],
  ] as const) {
    const response = await fetch(`${sim.url}${path}?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { items } = (await response.json()) as { items: unknown[] };
    for (const item of items) expect(specProblems(item, "Invoice")).toEqual([]);
  }
  expect(user.length).toBeGreaterThanOrEqual(3);
  expect(org.length).toBeGreaterThanOrEqual(3);
  expectInvoiceIdentities(user, options);
  expectInvoiceIdentities(org, options);
  return { user, org };
}

describe("sales tax (invoiceTax)", () => {
  test("amount: 8.25% of the subtotal, to the cent half up, in `tax` and in the total", async () => {
    const options = { ...BASE, invoiceTax: "amount" } satisfies SimulatorOptions;
    const { user } = await listings(options);
    const items = pricePerItem(callsOf(options, [0]));
    const [first] = user;
    const usage = must(items.get(must(first?.lines[0]?.invoice_item)));
    expect(first).toMatchObject({
      subtotal: "325.54",
      tax: "26.86",
      total: "352.4",
      amount_due: "352.4",
      amount_paid: "352.4",
      amount_remaining: "0",
      amount_refunded: "0",
      currency: "usd",
      status: "paid",
    });
    expect(first?.lines).toHaveLength(1);
    expect(micros(first?.subtotal)).toBe(usage);
    expect(micros(first?.tax)).toBe(cents(usage, 825n, 10_000n));
    for (const invoice of user) expect(micros(invoice.tax)).toBeGreaterThan(0n);
  });

  test("line: the tax is the first line, with no item, counted in the subtotal; `tax` stays 0", async () => {
    const options = { ...BASE, invoiceTax: "line", subscription: true } satisfies SimulatorOptions;
    const { user } = await listings(options);
    const [first] = user;
    const [taxLine, usage, plan] = first?.lines ?? [];
    expect(taxLine).toEqual({
      amount: "28.51",
      currency: "usd",
      description: "Sales tax (8.25%)",
      id: expect.stringMatching(/^il_1[0-9A-Za-z]{24}$/),
      metadata: {},
    });
    // 8.25% of the usage and the subscription line: 345.54 x 0.0825 = 28.50705.
    expect([usage?.amount, plan?.amount, plan?.invoice_item]).toEqual(["325.54", "20", undefined]);
    expect(first).toMatchObject({ subtotal: "374.05", tax: "0", total: "374.05", amount_paid: "374.05" });
  });
});

describe("a 10% coupon (invoiceDiscount)", () => {
  const COUPON = { amount_off: null, id: "coupon-10-off", metadata: {}, name: "10% off", percent_off: 10 };

  async function rawDiscounts(): Promise<unknown[]> {
    const server = must(sim);
    const response = await fetch(`${server.url}/user/payment/invoices?limit=1`, {
      headers: { authorization: `Bearer ${must(server.users[0]).token}` },
    });
    return ((await response.json()) as { items: { discounts?: unknown[] }[] }).items[0]?.discounts ?? [];
  }

  test("coupon: 10% of the subtotal off the invoice, listed as a Discount, the lines as they are", async () => {
    const { user } = await listings({ ...BASE, invoiceDiscount: "coupon" });
    expect(await rawDiscounts()).toEqual([{ coupon: COUPON }]);
    // 10% of 325.54 is 32.554: 32.55 off.
    expect(user[0]).toMatchObject({ subtotal: "325.54", total: "292.99", amount_paid: "292.99", tax: "0" });
    expect(user[0]?.lines.map((line) => line.amount)).toEqual(["325.54"]);
  });

  test("coupon after the credits applied as a discount: both listed, credits first", async () => {
    const { user } = await listings({ ...BASE, invoiceDiscount: "coupon", creditsOnInvoice: "discount" });
    const discounts = (await rawDiscounts()) as { coupon: { id: string; amount_off: number | null } }[];
    expect(discounts.map((discount) => discount.coupon.id)).toEqual([
      `credits-${user[0]?.id}`,
      "coupon-10-off",
    ]);
    expect(discounts[1]).toEqual({ coupon: COUPON });
  });

  test("item-gross: 10% off each usage line, the lines gross, the subtotal net of them", async () => {
    const options = {
      ...BASE,
      invoiceItems: "per-call",
      invoiceDiscount: "item-gross",
    } satisfies SimulatorOptions;
    const { user } = await listings(options);
    const items = pricePerItem(callsOf(options, [0]));
    for (const invoice of user) {
      let discounts = 0n;
      for (const line of invoice.lines) {
        const price = must(items.get(must(line.invoice_item)));
        expect(micros(line.amount)).toBe(price);
        discounts += cents(price, 10n, 100n);
      }
      const lines = invoice.lines.reduce((sum, line) => sum + micros(line.amount), 0n);
      expect(micros(invoice.subtotal)).toBe(lines - discounts);
      expect(invoice.total).toBe(invoice.subtotal);
    }
    expect(user[0]).toMatchObject({ subtotal: "293.12", total: "293.12" });
  });

  test("item-net: each usage line written net of its 10%, the subtotal their sum", async () => {
    const options = { ...BASE, invoiceDiscount: "item-net", subscription: true } satisfies SimulatorOptions;
    const { user } = await listings(options);
    const items = pricePerItem(callsOf(options, [0]));
    for (const invoice of user) {
      const [usage, plan] = invoice.lines;
      const gross = must(items.get(must(usage?.invoice_item)));
      expect(micros(usage?.amount)).toBe(gross - cents(gross, 10n, 100n));
      // The subscription line is not a usage line: no item discount.
      expect(plan?.amount).toBe("20");
    }
    expect(user[0]?.lines.map((line) => line.amount)).toEqual(["292.99", "20"]);
    expect(user[0]).toMatchObject({ subtotal: "312.99", total: "312.99" });
  });
});

describe("another currency (invoiceCurrency)", () => {
  test.each([
    ["eur", "299.5", "18.4"],
    ["gbp", "257.18", "15.8"],
    ["cad", "442.73", "27.2"],
  ])("%s: every amount converted line by line, to the cent, lowercase code", async (code, usage, plan) => {
    const options = { ...BASE, invoiceCurrency: code, subscription: true } satisfies SimulatorOptions;
    const { user, org } = await listings(options);
    const items = pricePerItem(callsOf(options, [0]));
    for (const invoice of [...user, ...org]) expect(invoice.currency).toBe(code);
    const first = must(user[0]);
    expect(first.lines.map((line) => line.amount)).toEqual([usage, plan]);
    expect(micros(usage)).toBe(converted(code, must(items.get(must(first.lines[0]?.invoice_item)))));
    expect(micros(first.total)).toBe(micros(usage) + micros(plan));
  });

  test("the calls stay priced in USD", async () => {
    const page = async (options: SimulatorOptions) => {
      const server = await startSimulator(options);
      try {
        const response = await fetch(`${server.url}/user/api-calls?limit=200`, {
          headers: { authorization: `Bearer ${must(server.users[0]).token}` },
        });
        return await response.text();
      } finally {
        await server.close();
      }
    };
    expect(await page({ ...BASE, invoiceCurrency: "eur" })).toBe(await page(BASE));
  });

  test.each(["jpy", "usd", "EUR", ""])(
    "startSimulator refuses %j, naming the codes it serves",
    async (code) => {
      await expect(startSimulator({ ...BASE, invoiceCurrency: code })).rejects.toThrow(
        /invoiceCurrency must be one of eur, gbp, cad/,
      );
    },
  );
});
