import { afterEach, describe, expect, test } from "vitest";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { callsOf, linesPerItem, listInvoices, micros, pricePerItem } from "./billingTruth.js";
import { must } from "./helpers.js";

/** A personal account (user 0) with four closed months, most of them past its credits. */
const BASE = { seed: 11, calls: 6000, days: 120, users: 4 } satisfies SimulatorOptions;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function userInvoices(options: SimulatorOptions) {
  sim = await startSimulator(options);
  return listInvoices(sim, "/user/payment/invoices", sim.users[0]?.token ?? "");
}

const lineSum = (lines: readonly { amount: string }[]) =>
  lines.reduce((sum, line) => sum + micros(line.amount), 0n);

describe("invoice shapes", () => {
  test("by default an invoice bills what credits left, one line per month, and credits paid the rest", async () => {
    const invoices = await userInvoices(BASE);
    const calls = callsOf(BASE, [0]);
    const charged = calls.filter((call) => call.price !== null && micros(call.price) > 0n);
    const paidByCredits = charged.filter((call) => (call.stripe_invoice_item_id ?? "") === "");
    expect(paidByCredits.length).toBeGreaterThan(10);
    expect(paidByCredits.length).toBeLessThan(charged.length);
    expect(invoices.length).toBeGreaterThanOrEqual(3);
    const items = pricePerItem(calls);
    for (const invoice of invoices) {
      expect(invoice.status).toBe("paid");
      expect(invoice.lines).toHaveLength(1);
      const [line] = invoice.lines;
      expect(micros(line?.amount)).toBe(items.get(line?.invoice_item ?? ""));
      expect(micros(invoice.subtotal)).toBe(micros(line?.amount));
    }
  });

  test("per-call items: one line per billable call, newest first, each its call's price", async () => {
    const options = { ...BASE, invoiceItems: "per-call" } satisfies SimulatorOptions;
    const invoices = await userInvoices(options);
    const calls = callsOf(options, [0]);
    const byItem = new Map(calls.map((call) => [call.stripe_invoice_item_id ?? "", call]));
    for (const invoice of invoices) {
      expect(invoice.lines.length).toBeGreaterThan(1);
      const billedAt = invoice.lines.map((line) => {
        const call = byItem.get(line.invoice_item ?? "");
        expect(call, line.invoice_item).toBeDefined();
        expect(micros(line.amount)).toBe(micros(call?.price));
        return call?.updated_at ?? "";
      });
      expect(billedAt).toEqual([...billedAt].sort().reverse());
      expect(micros(invoice.subtotal)).toBe(lineSum(invoice.lines));
    }
    // Every billable call that is listed is on a line, or waits for the open month's invoice.
    const lined = new Set(invoices.flatMap((invoice) => invoice.lines.map((line) => line.invoice_item)));
    const waiting = [...pricePerItem(calls).keys()].filter((item) => !lined.has(item));
    expect(waiting.length).toBeLessThan(lined.size / 2);
  });

  test("cut lines: `lines` holds the first N while subtotal and total stay whole", async () => {
    const options = { ...BASE, invoiceItems: "per-call", invoiceLinesLimit: 10 } satisfies SimulatorOptions;
    const invoices = await userInvoices(options);
    const items = pricePerItem(callsOf(options, [0]));
    let cut = 0;
    for (const invoice of invoices) {
      expect(invoice.lines.length).toBeLessThanOrEqual(10);
      expect(invoice.total).toBe(invoice.subtotal);
      if (micros(invoice.subtotal) > lineSum(invoice.lines)) cut++;
    }
    expect(cut).toBeGreaterThanOrEqual(1);
    // The whole subtotals add up to every invoiced call's price.
    const whole = invoices.reduce((sum, invoice) => sum + micros(invoice.subtotal), 0n);
    const full = await (async () => {
      await sim?.close();
      return userInvoices({ ...options, invoiceLinesLimit: undefined });
    })();
    expect(whole).toBe(
      [...linesPerItem(full).entries()].reduce((sum, [item, amount]) => {
        expect(items.get(item)).toBe(amount);
        return sum + amount;
      }, 0n),
    );
  });

  test("a subscription line ends every invoice: no item, the tier's $20, the invoice names its subscription", async () => {
    const options = { ...BASE, subscription: true } satisfies SimulatorOptions;
    const invoices = await userInvoices(options);
    const items = pricePerItem(callsOf(options, [0]));
    // 120 days before 2026-11-01: July to September are closed (October's run is at 02:00 on the 1st).
    expect(invoices.length).toBe(3);
    for (const invoice of invoices) {
      const last = invoice.lines.at(-1);
      expect(last?.invoice_item).toBeUndefined();
      expect(last?.amount).toBe("20");
      expect(invoice.subscription_id).toMatch(/^sub_1/);
      expect(invoice.billing_reason).toBe("subscription_cycle");
      const usage = invoice.lines.slice(0, -1);
      for (const line of usage) expect(micros(line.amount)).toBe(items.get(line.invoice_item ?? ""));
      expect(micros(invoice.subtotal)).toBe(lineSum(usage) + 20_000_000n);
    }
    const response = await fetch(`${sim?.url}/user/payment/balance`, {
      headers: { authorization: `Bearer ${sim?.users[0]?.token}` },
    });
    const plan = ((await response.json()) as { subscription_details: { modeling_app: { price: unknown } } })
      .subscription_details.modeling_app;
    expect(plan.price).toEqual({ interval: "month", price: 20, type: "flat" });
    // An org pays the tier's price per member (SubscriptionTierPrice per_user): 3 members, $60.
    const admin = sim?.users.find((user) => user.orgRole === "admin");
    const orgInvoices = await listInvoices(must(sim), "/org/payment/invoices", admin?.token ?? "");
    expect(orgInvoices.length).toBeGreaterThanOrEqual(3);
    for (const invoice of orgInvoices) expect(invoice.lines.at(-1)?.amount).toBe("60");
  });

  test("statuses: a draft for the open month, the newest closed open, one uncollectible, one voided and reissued", async () => {
    const options = { ...BASE, invoiceStatuses: true } satisfies SimulatorOptions;
    const invoices = await userInvoices(options);
    const statuses = invoices.map((invoice) => invoice.status);
    expect(statuses[0]).toBe("void");
    expect(statuses.at(-1)).toBe("draft");
    expect(statuses.at(-2)).toBe("open");
    expect(statuses.filter((status) => status === "uncollectible")).toHaveLength(1);
    const [voided, reissued] = invoices;
    expect(reissued?.status).toBe("paid");
    expect(voided?.id).not.toBe(reissued?.id);
    // The void copy is an earlier issue: the same amounts on lines and items of its own, which no
    // call carries (the calls carry the paid invoice's items).
    const amounts = (invoice: typeof voided) =>
      invoice?.lines.map((line) => [line.description, micros(line.amount)]);
    expect(amounts(voided)).toEqual(amounts(reissued));
    const carried = new Set(callsOf(options, [0]).map((call) => call.stripe_invoice_item_id ?? ""));
    voided?.lines.forEach((line, k) => {
      const paidLine = reissued?.lines[k];
      expect(line.id).not.toBe(paidLine?.id);
      expect(line.invoice_item).not.toBe(paidLine?.invoice_item);
      expect(carried.has(line.invoice_item ?? "")).toBe(false);
      expect(carried.has(paidLine?.invoice_item ?? "")).toBe(true);
    });
    for (const invoice of invoices) {
      const owed = invoice.status === "paid" || invoice.status === "void" ? "0" : invoice.total;
      expect(invoice.amount_remaining, invoice.status ?? "").toBe(owed);
      expect(invoice.amount_paid).toBe(invoice.status === "paid" ? invoice.total : "0");
    }
    // The draft of the open period (October: its run is at 02:00 on November 1st, after the clock's
    // start) is dated in its own month, at the run that opened it.
    const draft = invoices.at(-1);
    expect(draft?.created_at).toBe("2026-10-01T02:00:00Z");
    expect(draft?.lines.length).toBeGreaterThanOrEqual(1);
  });

  test("a call billed after its month's invoice run is on the next month's invoice", async () => {
    const options = { ...BASE, lateBilling: { share: 0.3 } } satisfies SimulatorOptions;
    const invoices = await userInvoices(options);
    const calls = callsOf(options, [0]);
    const runOf = (created: string) => {
      const date = new Date(created);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1, 2);
    };
    const late = calls.filter(
      (call) =>
        (call.stripe_invoice_item_id ?? "") !== "" && Date.parse(call.updated_at) > runOf(call.created_at),
    );
    expect(late.length).toBeGreaterThan(0);
    const invoiceOfItem = new Map(
      invoices.flatMap((invoice) => invoice.lines.map((line) => [line.invoice_item ?? "", invoice] as const)),
    );
    let onNext = 0;
    for (const call of late) {
      const invoice = invoiceOfItem.get(call.stripe_invoice_item_id ?? "");
      if (invoice === undefined) continue;
      // Its invoice is created after its billing, a month or more after its own month.
      expect(Date.parse(invoice.created_at)).toBeGreaterThanOrEqual(Date.parse(call.updated_at));
      expect(invoice.created_at.slice(0, 7) > call.created_at.slice(0, 7)).toBe(true);
      expect(Date.parse(invoice.created_at)).toBeGreaterThan(runOf(call.created_at));
      onNext++;
    }
    expect(onNext).toBeGreaterThan(0);
    for (const [item, amount] of linesPerItem(invoices)) expect(pricePerItem(calls).get(item)).toBe(amount);
  });

  test.each(["line", "discount"] as const)(
    "credits on the invoice as a %s: every call billed, total net of credits",
    async (shown) => {
      const options = { ...BASE, creditsOnInvoice: shown } satisfies SimulatorOptions;
      const invoices = await userInvoices(options);
      const calls = callsOf(options, [0]);
      const charged = calls.filter((call) => call.price !== null && micros(call.price) > 0n);
      expect(charged.every((call) => (call.stripe_invoice_item_id ?? "") !== "")).toBe(true);
      const items = pricePerItem(calls);
      let creditsApplied = 0n;
      for (const invoice of invoices) {
        const usage = invoice.lines.filter((line) => micros(line.amount) > 0n);
        for (const line of usage) expect(micros(line.amount)).toBe(items.get(line.invoice_item ?? ""));
        const credit = invoice.lines.filter((line) => micros(line.amount) < 0n);
        const discounts = (invoice.discounts ?? []) as { coupon: { amount_off: unknown } }[];
        expect(shown === "line" ? discounts : credit).toEqual([]);
        const applied =
          shown === "line"
            ? -lineSum(credit)
            : discounts.reduce((sum, d) => sum + micros(d.coupon.amount_off), 0n);
        expect(micros(invoice.subtotal)).toBe(lineSum(invoice.lines));
        expect(micros(invoice.total)).toBe(micros(invoice.subtotal) - (shown === "line" ? 0n : applied));
        expect(micros(invoice.total)).toBe(lineSum(usage) - applied);
        creditsApplied += applied;
      }
      expect(creditsApplied).toBeGreaterThan(0n);
    },
  );

  test("planted: one call with an item no line has, and one item billed twice on an extra line", async () => {
    const options = { ...BASE, missingInvoiceItem: true, extraInvoiceLine: true } satisfies SimulatorOptions;
    const invoices = await userInvoices(options);
    const calls = callsOf(options, [0]);
    const lines = linesPerItem(invoices);
    const items = pricePerItem(calls);
    // The planted call is the one whose item differs from the same history without plants.
    const plain = callsOf(BASE, [0]);
    const orphans = calls.filter(
      (call, k) => call.stripe_invoice_item_id !== plain[k]?.stripe_invoice_item_id,
    );
    expect(orphans).toHaveLength(1);
    const [orphan] = orphans;
    expect(lines.has(orphan?.stripe_invoice_item_id ?? "")).toBe(false);
    // Its month is closed and invoiced: the invoice of its month left its price out.
    const month = orphan?.created_at.slice(0, 7) ?? "";
    expect(invoices.some((invoice) => invoice.lines[0]?.description?.endsWith(month))).toBe(true);
    const differences = [...lines].flatMap(([item, amount]) => {
      const difference = amount - (items.get(item) ?? 0n);
      return difference === 0n ? [] : [difference];
    });
    expect(differences).toEqual([2_500_000n]);
    for (const invoice of invoices) expect(micros(invoice.subtotal)).toBe(lineSum(invoice.lines));
  });
});

describe("directory and refusals as the spec has them", () => {
  test("tokens carry api- and svc- prefixes, service accounts are org members, refusals an error_code", async () => {
    sim = await startSimulator(BASE);
    const admin = sim.users.find((user) => user.orgRole === "admin");
    const member = sim.users.find((user) => user.orgRole === "member");
    const get = async (path: string, token: string | undefined) => {
      const response = await fetch(`${sim?.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const tokens = (await get("/user/api-tokens", admin?.token)).body.items as { token: string }[];
    expect(tokens.length).toBeGreaterThan(0);
    for (const { token } of tokens) expect(token).toMatch(/^api-\*+[0-9a-f]{4}$/);
    const accounts = (await get("/org/service-accounts", member?.token)).body.items as { token: string }[];
    for (const { token } of accounts) expect(token).toMatch(/^svc-\*+[0-9a-f]{4}$/);
    const members = (await get("/org/members", admin?.token)).body.items as { role: string }[];
    expect(members.filter((m) => m.role === "service_account")).toHaveLength(accounts.length);
    const onlyService = (await get("/org/members?role=service_account", admin?.token)).body
      .items as unknown[];
    expect(onlyService).toHaveLength(accounts.length);
    const forbidden = await get("/org/members", member?.token);
    expect(forbidden).toMatchObject({ status: 403, body: { error_code: "Forbidden" } });
    const notFound = await get("/org/members", sim.users[0]?.token);
    expect(notFound).toMatchObject({ status: 404, body: { error_code: "ObjectNotFound" } });
  });
});
