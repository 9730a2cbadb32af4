import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MONTHLY_CREDIT_MICROS, SUBSCRIPTION_PRICE_MICROS } from "../../src/sim/billingPlan.js";
import { createDataset, type DatasetOptions } from "../../src/sim/index.js";
import { InvoiceBook } from "../../src/sim/invoiceBook.js";
import { billingAccountOf } from "../../src/sim/invoiceItems.js";
import { type CreditsOnInvoice, type InvoiceShape, USD } from "../../src/sim/invoiceShape.js";
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
  credits: "none",
  tax: "none",
  discount: "none",
  refund: false,
  partialPayment: false,
  customerBalance: false,
  currency: USD,
  voidReissue: false,
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
          credits: fc.constantFrom<CreditsOnInvoice>("none", "line", "discount"),
          subscription: fc.boolean(),
          statuses: fc.boolean(),
          linesLimit: fc.constantFrom(undefined, 1, 3),
        }),
        ({ seed, calls, days, users, late, perCall, credits: shown, subscription, statuses, linesLimit }) => {
          const options: DatasetOptions = {
            seed,
            calls,
            days,
            users,
            lateBilling: { share: late },
            invoiceItems: perCall ? "per-call" : "per-month",
            creditsOnInvoice: shown,
          };
          const dataset = createDataset(options);
          const shape = {
            ...SHAPE,
            perCallItems: perCall,
            credits: shown,
            subscription,
            statuses,
            linesLimit,
          };
          const book = new InvoiceBook(dataset, shape);
          // $20 a month for a person, $20 per member for an org.
          const subscriptionOf = (account: string) =>
            subscription
              ? BigInt(SUBSCRIPTION_PRICE_MICROS * Math.max(1, dataset.orgMembers(account).length))
              : 0n;
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
          const applied = new Map<string, bigint>();
          const totals = new Map<string, bigint>();
          const openPeriod = monthOf(now.getTime() - 2 * HOUR_MS);
          for (const account of dataset.ledger.accounts.keys()) {
            for (const invoice of book.invoicesOf(account, nowUs)) {
              // A voided copy and a draft are not invoiced amounts.
              if (invoice.status === "void" || invoice.status === "draft") continue;
              expect(invoice.month).toBeLessThan(openPeriod);
              const key = `${account}:${invoice.month}`;
              expect(totals.has(key), key).toBe(false);
              let lines = 0n;
              for (const line of invoice.lines) {
                lines += BigInt(line.amountMicros);
                // The credits applied, as a negative line (listed first): an item no call carries.
                if (line.amountMicros < 0) {
                  expect(shown).toBe("line");
                  add(applied, key, BigInt(-line.amountMicros));
                  continue;
                }
                if (line.invoiceItem === undefined) continue;
                // Every usage line's item is carried by calls of that account and period, and only those.
                expect(itemOwners.get(line.invoiceItem)).toBe(key);
              }
              // Every line, also those a cut `lines` leaves out, adds up to the subtotal.
              const { subtotalMicros, creditsDiscountMicros, totalMicros } = invoice.charges;
              expect(BigInt(subtotalMicros)).toBe(lines);
              // The usage billed: the whole subtotal, less the subscription, plus the credits line.
              const usage = BigInt(subtotalMicros) - subscriptionOf(account) + (applied.get(key) ?? 0n);
              add(invoiced, key, usage);
              add(applied, key, BigInt(creditsDiscountMicros));
              totals.set(key, BigInt(totalMicros) - subscriptionOf(account));
            }
          }
          for (const [key, priced] of spend) {
            const period = Number(key.slice(key.lastIndexOf(":") + 1));
            if (period >= openPeriod) continue;
            if (shown === "none") {
              expect((credits.get(key) ?? 0n) + (invoiced.get(key) ?? 0n), key).toBe(priced);
              continue;
            }
            // Every priced call is on the invoice; the credits applied and the total make its price.
            expect(invoiced.get(key), key).toBe(priced);
            expect((applied.get(key) ?? 0n) + (totals.get(key) ?? 0n), key).toBe(priced);
            const [account = ""] = key.split(":");
            const covered = dataset.ledger.account(account).covered.get(period) ?? 0;
            expect(applied.get(key) ?? 0n, key).toBe(BigInt(covered));
          }
          // What the calls say credits paid is what the ledger's pools gave, within their grants.
          for (const [account, ledger] of dataset.ledger.accounts) {
            let monthly = 0;
            for (const used of ledger.monthlyUsed.values()) {
              expect(used).toBeLessThanOrEqual(MONTHLY_CREDIT_MICROS);
              monthly += used;
            }
            expect(ledger.stableUsed).toBeLessThanOrEqual(ledger.stableGranted);
            let covered = 0;
            for (const micros of ledger.covered.values()) covered += micros;
            expect(monthly + ledger.stableUsed).toBe(covered);
            if (shown === "none") expect(BigInt(covered)).toBe(creditsByAccount.get(account) ?? 0n);
          }
        },
      ),
      { numRuns: 100, seed: 27 },
    );
  });
});
