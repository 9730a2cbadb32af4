import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MONTHLY_CREDIT_MICROS } from "../../src/sim/billingPlan.js";
import { createDataset, type DatasetOptions } from "../../src/sim/index.js";
import { InvoiceBook, type InvoiceShape } from "../../src/sim/invoiceBook.js";
import { billingAccountOf } from "../../src/sim/invoiceItems.js";
import { toMicros } from "../helpers/apiTruth.js";

const HOUR_MS = 3_600_000;

/** A UTC month as year * 12 + month, from an ISO time. */
function monthOf(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/**
 * The invoice a billed call belongs to, from what its record shows: its own month's, unless its
 * billing (updated_at) landed after that month's invoice run (2 hours into the next month).
 */
function periodOfRecord(createdAt: string, updatedAt: string): number {
  return Math.max(monthOf(Date.parse(createdAt)), monthOf(Date.parse(updatedAt) - 2 * HOUR_MS));
}

const add = (map: Map<string, bigint>, key: string, micros: bigint) =>
  map.set(key, (map.get(key) ?? 0n) + micros);

const SHAPE: InvoiceShape = {
  perCallItems: false,
  subscription: false,
  linesLimit: undefined,
  statuses: false,
  plantDisagreement: false,
  plantUnlinedCall: false,
  plantExtraLine: false,
};

describe("the credit ledger, over many seeds", () => {
  test("per account and closed month: credits consumed + invoiced usage = priced spend, exactly", () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          calls: fc.integer({ min: 200, max: 900 }),
          days: fc.integer({ min: 20, max: 120 }),
          users: fc.integer({ min: 1, max: 6 }),
          late: fc.constantFrom(0, 0.05, 0.3),
          perCall: fc.boolean(),
        }),
        ({ seed, calls, days, users, late, perCall }) => {
          const options: DatasetOptions = {
            seed,
            calls,
            days,
            users,
            lateBilling: { share: late },
            invoiceItems: perCall ? "per-call" : "per-month",
          };
          const dataset = createDataset(options);
          const book = new InvoiceBook(dataset, { ...SHAPE, perCallItems: perCall });
          const now = dataset.initialNow;
          const nowUs = now.getTime() * 1000;
          const spend = new Map<string, bigint>();
          const credits = new Map<string, bigint>();
          const creditsByAccount = new Map<string, bigint>();
          const itemOwners = new Map<string, string>();
          for (let i = 0; i < dataset.countCreated(now); i++) {
            const call = dataset.callAt(i, now);
            if (call.price === null || call.completed_at === null) continue;
            const micros = toMicros(String(call.price));
            if (micros === 0n) continue;
            const account = billingAccountOf(dataset.ownerOf(i)).id;
            const key = `${account}:${periodOfRecord(call.created_at, call.updated_at)}`;
            add(spend, key, micros);
            const item = call.stripe_invoice_item_id ?? "";
            if (item === "") {
              add(credits, key, micros);
              add(creditsByAccount, account, micros);
            } else itemOwners.set(item, key);
          }
          const invoiced = new Map<string, bigint>();
          const openPeriod = monthOf(now.getTime() - 2 * HOUR_MS);
          for (const account of dataset.ledger.accounts.keys()) {
            for (const invoice of book.invoicesOf(account, nowUs)) {
              expect(invoice.month).toBeLessThan(openPeriod);
              for (const line of invoice.lines) {
                // Every line's item is carried by calls of that account and period, and only those.
                expect(itemOwners.get(line.invoiceItem ?? "")).toBe(`${account}:${invoice.month}`);
                add(invoiced, `${account}:${invoice.month}`, BigInt(line.amountMicros));
              }
              expect(BigInt(invoice.subtotalMicros)).toBe(invoiced.get(`${account}:${invoice.month}`));
            }
          }
          for (const [key, priced] of spend) {
            const period = Number(key.slice(key.lastIndexOf(":") + 1));
            if (period >= openPeriod) continue;
            expect((credits.get(key) ?? 0n) + (invoiced.get(key) ?? 0n), key).toBe(priced);
          }
          // What the calls say credits paid is what the ledger's pools gave, within their grants.
          for (const [account, ledger] of dataset.ledger.accounts) {
            let monthly = 0;
            for (const used of ledger.monthlyUsed.values()) {
              expect(used).toBeLessThanOrEqual(MONTHLY_CREDIT_MICROS);
              monthly += used;
            }
            expect(ledger.stableUsed).toBeLessThanOrEqual(ledger.stableGranted);
            expect(BigInt(monthly + ledger.stableUsed)).toBe(creditsByAccount.get(account) ?? 0n);
          }
        },
      ),
      { numRuns: 60, seed: 27 },
    );
  });
});
