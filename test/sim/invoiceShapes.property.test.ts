import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseWithNumberTexts } from "../../src/api/exactJson.js";
import { InvoiceSchema } from "../../src/api/schemas/index.js";
import { createDataset, type SimulatorOptions } from "../../src/sim/index.js";
import { InvoiceBook } from "../../src/sim/invoiceBook.js";
import { invoiceJson } from "../../src/sim/invoiceJson.js";
import { invoiceShapeOf } from "../../src/sim/invoiceShape.js";
import { micros } from "./billingTruth.js";
import { expectInvoiceIdentities } from "./invoiceIdentities.js";
import { specProblems } from "./specShape.js";

/** Any combination of the invoice shapes, on a small history. */
const OPTIONS = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  calls: fc.integer({ min: 200, max: 900 }),
  days: fc.integer({ min: 20, max: 120 }),
  users: fc.integer({ min: 1, max: 6 }),
  lateBilling: fc.constantFrom({ share: 0 }, { share: 0.05 }, { share: 0.3 }),
  priceMode: fc.constantFrom<"realistic" | "adversarial">("realistic", "adversarial"),
  invoiceItems: fc.constantFrom<"per-month" | "per-call">("per-month", "per-call"),
  creditsOnInvoice: fc.constantFrom<"none" | "line" | "discount">("none", "line", "discount"),
  subscription: fc.boolean(),
  invoiceStatuses: fc.boolean(),
  invoiceLinesLimit: fc.constantFrom(undefined, 1, 3),
  invoiceTax: fc.constantFrom(undefined, "amount", "line"),
  invoiceDiscount: fc.constantFrom(undefined, "coupon", "item-gross", "item-net"),
  invoiceRefund: fc.boolean(),
  partialPayment: fc.boolean(),
  customerBalance: fc.boolean(),
  invoiceCurrency: fc.constantFrom(undefined, "eur", "gbp", "cad"),
  voidReissue: fc.boolean(),
  missingInvoiceItem: fc.boolean(),
  extraInvoiceLine: fc.boolean(),
  invoiceDisagreement: fc.boolean(),
}) as fc.Arbitrary<SimulatorOptions>;

describe("the invoice shapes, over many seeds and combinations", () => {
  test("every invoice of every account keeps the identities, in the spec's schema", () => {
    fc.assert(
      fc.property(OPTIONS, (drawn) => {
        // Which line a planted $1.23 is on is the item-gross identity's only unknown: not drawn with it.
        const options = {
          ...drawn,
          invoiceDisagreement: drawn.invoiceDisagreement && drawn.invoiceDiscount !== "item-gross",
        };
        const dataset = createDataset(options);
        const shape = invoiceShapeOf(options, dataset.perCallItems);
        const book = new InvoiceBook(dataset, shape);
        const nowUs = dataset.initialNow.getTime() * 1000;
        dataset.ledger.advanceTo(nowUs);
        for (const account of dataset.ledger.accounts.keys()) {
          const listed = book.invoicesOf(account, nowUs);
          const texts = listed.map((invoice) => invoiceJson(invoice, shape));
          for (const text of texts) expect(specProblems(JSON.parse(text), "Invoice")).toEqual([]);
          const invoices = texts.map((text) => InvoiceSchema.parse(parseWithNumberTexts(text)));
          expectInvoiceIdentities(invoices, options);
          if (!shape.statuses || shape.currency.code !== "usd") continue;
          // With statuses, what the account owes is what remains on its drafts, open and uncollectible invoices.
          const owed = invoices
            .filter((invoice) => ["draft", "open", "uncollectible"].includes(invoice.status ?? ""))
            .reduce((sum, invoice) => sum + micros(invoice.amount_remaining), 0n);
          expect(BigInt(book.totalDueMicros(account, nowUs))).toBe(owed);
        }
      }),
      { numRuns: 150, seed: 41 },
    );
  });
});
