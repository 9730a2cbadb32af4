import { afterEach, describe, expect, test } from "vitest";
import type { Invoice } from "../../src/api/schemas/index.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { callsOf, listInvoices, micros } from "./billingTruth.js";
import { must } from "./helpers.js";
import { expectInvoiceIdentities } from "./invoiceIdentities.js";

/** A personal account (user 0) with three closed months (July to September 2026) and an org. */
const BASE = { seed: 11, calls: 6000, days: 120, users: 4 } satisfies SimulatorOptions;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function userInvoices(options: SimulatorOptions): Promise<Invoice[]> {
  await sim?.close();
  sim = await startSimulator(options);
  const invoices = await listInvoices(sim, "/user/payment/invoices", must(sim.users[0]).token);
  expectInvoiceIdentities(invoices, options);
  const admin = must(sim.users.find((user) => user.orgRole === "admin"));
  expectInvoiceIdentities(await listInvoices(sim, "/org/payment/invoices", admin.token), options);
  return invoices;
}

/** The balance's total_due (include_total_due=true) of user 0, in micro-dollars. */
async function totalDue(): Promise<bigint> {
  const server = must(sim);
  const response = await fetch(`${server.url}/user/payment/balance?include_total_due=true`, {
    headers: { authorization: `Bearer ${must(server.users[0]).token}` },
  });
  return micros(((await response.json()) as { total_due: unknown }).total_due);
}

/** The fields an option leaves alone are those of the same invoice without it. */
function without<T extends object>(invoice: T, fields: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(invoice).filter(([key]) => !fields.includes(key))) as Partial<T>;
}

describe("payments", () => {
  test("invoiceRefund: a quarter of the oldest paid invoice's payment, partially_refunded, nothing else moves", async () => {
    const plain = await userInvoices(BASE);
    const invoices = await userInvoices({ ...BASE, invoiceRefund: true });
    const [first, ...rest] = invoices;
    // A quarter of 325.54 is 81.385: 81.39.
    expect(first).toMatchObject({
      status: "paid",
      amount_paid: "325.54",
      amount_refunded: "81.39",
      refund_status: "partially_refunded",
      total: "325.54",
    });
    for (const invoice of rest) expect([invoice.amount_refunded, invoice.refund_status]).toEqual(["0", null]);
    const refundFields = ["amount_refunded", "refund_status"];
    expect(invoices.map((invoice) => without(invoice, refundFields))).toEqual(
      plain.map((invoice) => without(invoice, refundFields)),
    );
  });

  test("partialPayment: the newest closed invoice open, half its amount due paid (down to the cent)", async () => {
    const invoices = await userInvoices({ ...BASE, partialPayment: true });
    expect(invoices.map((invoice) => invoice.status)).toEqual(["paid", "paid", "open"]);
    expect(invoices.at(-1)).toMatchObject({
      amount_due: "227.66",
      amount_paid: "113.83",
      amount_remaining: "113.83",
      paid: false,
      attempted: true,
      attempt_count: 1,
    });
    // What is owed: that remainder and the calls billed since the last run, not invoiced yet.
    const waiting = await (async () => {
      const plain = await userInvoices(BASE);
      expect(plain).toHaveLength(3);
      return totalDue();
    })();
    await userInvoices({ ...BASE, partialPayment: true });
    expect(await totalDue()).toBe(waiting + 113_830_000n);
  });

  test("partialPayment with statuses: the uncollectible invoice was half paid before it was written off", async () => {
    const invoices = await userInvoices({ ...BASE, partialPayment: true, invoiceStatuses: true });
    const uncollectible = must(invoices.find((invoice) => invoice.status === "uncollectible"));
    // 451.74 / 2 = 225.87.
    expect(uncollectible).toMatchObject({
      amount_due: "451.74",
      amount_paid: "225.87",
      amount_remaining: "225.87",
      paid: false,
    });
    // total_due: what remains on the draft, the open and the uncollectible invoice.
    const owed = invoices
      .filter((invoice) => ["draft", "open", "uncollectible"].includes(invoice.status ?? ""))
      .reduce((sum, invoice) => sum + micros(invoice.amount_remaining), 0n);
    expect(await totalDue()).toBe(owed);
    expect(owed).toBeLessThan(
      invoices
        .filter((invoice) => ["draft", "open", "uncollectible"].includes(invoice.status ?? ""))
        .reduce((sum, invoice) => sum + micros(invoice.total), 0n),
    );
  });

  test("customerBalance: $5.00 of the balance on the oldest invoice with a total, which is paid", async () => {
    const invoices = await userInvoices({ ...BASE, customerBalance: true });
    expect(invoices[0]).toMatchObject({
      total: "325.54",
      amount_due: "320.54",
      amount_paid: "320.54",
      amount_remaining: "0",
      paid: true,
    });
    for (const invoice of invoices.slice(1)) expect(invoice.amount_due).toBe(invoice.total);
  });
});

describe("void and reissue (voidReissue)", () => {
  test("the oldest invoice with usage is void, its reissue follows a day later with new lines and items", async () => {
    const options = { ...BASE, invoiceItems: "per-call", voidReissue: true } satisfies SimulatorOptions;
    const plain = await userInvoices({ ...BASE, invoiceItems: "per-call" });
    const invoices = await userInvoices(options);
    expect(invoices.map((invoice) => invoice.status)).toEqual(["void", "paid", "paid", "paid"]);
    const [voided, reissue] = invoices;
    // The original as it was issued, now void: nothing paid, nothing owed.
    expect(voided).toEqual({
      ...plain[0],
      status: "void",
      amount_paid: "0",
      amount_remaining: "0",
      paid: false,
    });
    expect(reissue).toMatchObject({
      number: `${voided?.number}-R`,
      created_at: "2026-08-02T02:00:00Z",
      status: "paid",
      total: voided?.total,
      amount_paid: voided?.total,
    });
    expect(reissue?.id).toMatch(/^in_1[0-9A-Za-z]{24}$/);
    expect(reissue?.id).not.toBe(voided?.id);
    // The calls keep the void invoice's items: the reissue's items are carried by no call.
    const carried = new Set(callsOf(options, [0]).map((call) => call.stripe_invoice_item_id ?? ""));
    expect(voided?.lines.every((line) => carried.has(line.invoice_item ?? ""))).toBe(true);
    expect(reissue?.lines.some((line) => carried.has(line.invoice_item ?? ""))).toBe(false);
    const voidIds = new Set(voided?.lines.map((line) => line.id));
    expect(reissue?.lines.some((line) => voidIds.has(line.id))).toBe(false);
    expect(reissue?.lines.map((line) => line.amount)).toEqual(voided?.lines.map((line) => line.amount));
    expect(invoices.slice(2)).toEqual(plain.slice(1));
  });

  test("a reissue is not listed before it is made, and then the original still stands", async () => {
    // Three weeks of history, every priced call on an invoice: July's, made at 02:00 on August 1st.
    const options = { ...BASE, days: 21, creditsOnInvoice: "line", voidReissue: true } as const;
    sim = await startSimulator({ ...options, now: new Date("2026-08-01T12:00:00Z") });
    const invoices = await listInvoices(sim, "/user/payment/invoices", must(sim.users[0]).token);
    expect(invoices.map((invoice) => invoice.status)).toEqual(["paid"]);
    sim.clock.advance(86_400_000);
    const later = await listInvoices(sim, "/user/payment/invoices", must(sim.users[0]).token);
    expect(later.map((invoice) => [invoice.status, invoice.number])).toEqual([
      ["void", invoices[0]?.number],
      ["paid", `${invoices[0]?.number}-R`],
    ]);
  });
});
