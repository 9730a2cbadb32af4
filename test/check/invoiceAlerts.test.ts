import { afterEach, describe, expect, test } from "vitest";
import { type Alert, alertJson, alertLine } from "../../src/check/alert.js";
import { evaluateRules } from "../../src/check/evaluateRules.js";
import { parseRulesFile } from "../../src/config/checkRules.js";
import { openWarehouse } from "../../src/load/database.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The check's alerts on what the invoices say of money: an invoice still owed past a number of
 * days, an uncollectible one, a refund, an invoice in another currency, and a difference named in
 * the currency of its month, each on a simulator shape that makes it, with the invoice's own
 * figures; and silence where the books are square.
 */
const BASE: SimulatorOptions = {
  seed: 47,
  calls: 1200,
  days: 100,
  users: 2,
  now: new Date("2026-06-20T00:00:00Z"),
};
const RULES = "outstanding days=10\nuncollectible\nrefund\nother-currency\ninvoice-difference usd=0\n";

let sim: RunningSimulator | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanups.splice(0)) await close();
  await sim?.close();
  sim = undefined;
});

/** The alerts of RULES on an export of the simulator built with `options`, as of its clock. */
async function alertsOf(options: Partial<SimulatorOptions>): Promise<{ alerts: Alert[]; db: string }> {
  sim = await startSimulator({ ...BASE, ...options });
  const workspace = await tempWorkspace();
  cleanups.push(workspace.cleanup);
  const now = () => sim?.clock.now() ?? new Date();
  const run = await exportOnce({
    baseUrl: sim.url,
    token: sim.users[0]?.token ?? "",
    flags: { db: workspace.db, out: workspace.out, operations: false },
    now,
  });
  expect(run.exitCode).toBe(0);
  const warehouse = await openWarehouse(workspace.db, { readOnly: true });
  try {
    const moment = { asOf: now().toISOString().slice(0, 10), now: now() };
    return {
      alerts: await evaluateRules(warehouse.connection, parseRulesFile(RULES, "rules"), moment),
      db: workspace.db,
    };
  } finally {
    warehouse.close();
  }
}

describe("alerts on what the invoices say of money", () => {
  test("square books in USD, paid on time: nothing fires", async () => {
    expect((await alertsOf({ subscription: true, invoiceTax: "amount" })).alerts).toEqual([]);
  });

  test("an open invoice half paid, an uncollectible one and a refund: each fires with the invoice's figures", async () => {
    const { alerts, db } = await alertsOf({
      invoiceStatuses: true,
      partialPayment: true,
      invoiceRefund: true,
    });
    const invoices = await queryDb(
      db,
      `SELECT number, status, amount_due::VARCHAR AS due, amount_paid::VARCHAR AS paid,
         amount_remaining::VARCHAR AS remaining, amount_refunded::VARCHAR AS refunded,
         (amount_due - amount_paid)::VARCHAR AS unpaid,
         (epoch_us(TIMESTAMPTZ '2026-06-20 00:00:00+00') - epoch_us(created_at)) // 86400000000 AS age
       FROM invoices WHERE status IN ('open', 'uncollectible') OR amount_refunded > 0 ORDER BY created_at`,
    );
    const open = invoices.find((invoice) => invoice.status === "open");
    const written = invoices.find((invoice) => invoice.status === "uncollectible");
    const refunded = invoices.find((invoice) => invoice.refunded !== "0.000000");
    expect([open, written, refunded].every((invoice) => invoice !== undefined)).toBe(true);
    expect(alerts.map((alert) => [alert.rule, alert.subject])).toEqual([
      ["outstanding", `invoice ${open?.number}`],
      ["uncollectible", `invoice ${written?.number}`],
      ["refund", `invoice ${refunded?.number}`],
    ]);
    const [outstanding, uncollectible, refund] = alerts;
    expect(outstanding).toMatchObject({ unit: "days", value: String(open?.age), threshold: "10" });
    expect(JSON.parse(alertJson(outstanding as Alert)).note).toBe(
      `${open?.remaining} USD outstanding of ${open?.due} USD due`,
    );
    // What the uncollectible invoice left unpaid: its amount due less what was paid before.
    expect(uncollectible).toMatchObject({ unit: "usd", value: written?.unpaid, threshold: written?.due });
    expect(refund).toMatchObject({ unit: "usd", value: refunded?.refunded, threshold: refunded?.paid });
    expect(alertLine(refund as Alert)).toMatch(
      /^refund: invoice \S+, \d{4}-\d{2}: [\d,]+\.\d{2} USD of [\d,]+\.\d{2} USD \(refunded\)$/,
    );
  });

  test("invoices in euros: each is named, in euros, and no difference is called USD", async () => {
    const { alerts } = await alertsOf({ invoiceCurrency: "eur", invoiceDisagreement: true });
    expect(alerts.length).toBeGreaterThan(1);
    for (const alert of alerts) expect([alert.rule, alert.unit]).toEqual(["other-currency", "eur"]);
    expect(alertLine(alerts[0] as Alert)).toMatch(
      / EUR \(invoiced in EUR: not compared with the calls' USD prices\)$/,
    );
  });
});
