import fc from "fast-check";
import { expect, test } from "vitest";
import { type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, tempWorkspace } from "../helpers/exportHarness.js";
import { expectSquare, readLedger } from "./ledgerRead.js";

/**
 * The ledger's identities over random seeds and random combinations of the simulator's invoice
 * shapes: each counting invoice's rows add up to its total and to its amount_due, paid + outstanding
 * + written off = due, each month's usage rows are its usage and its four classes, and with nothing
 * planted no row is a difference.
 */
const shapes = fc.record({
  seed: fc.integer({ min: 1, max: 100_000 }),
  invoiceItems: fc.constantFrom("per-month" as const, "per-call" as const),
  subscription: fc.boolean(),
  invoiceTax: fc.constantFrom(undefined, "amount" as const, "line" as const),
  invoiceDiscount: fc.constantFrom(undefined, "coupon" as const, "item-gross" as const, "item-net" as const),
  creditsOnInvoice: fc.constantFrom("none" as const, "line" as const, "discount" as const),
  invoiceStatuses: fc.boolean(),
  invoiceRefund: fc.boolean(),
  partialPayment: fc.boolean(),
  customerBalance: fc.boolean(),
  voidReissue: fc.boolean(),
  invoiceCurrency: fc.constantFrom(undefined, "eur" as const),
});

test("any seed, any combination of shapes: the identities hold, nothing differs", async () => {
  await fc.assert(
    fc.asyncProperty(shapes, async (drawn) => {
      const options: SimulatorOptions = Object.fromEntries(
        Object.entries({
          calls: 600,
          days: 100,
          users: 2,
          now: new Date("2026-06-20T00:00:00Z"),
          ...drawn,
        }).filter(([, value]) => value !== undefined),
      );
      const sim = await startSimulator(options);
      const workspace = await tempWorkspace();
      try {
        const run = await exportOnce({
          baseUrl: sim.url,
          token: sim.users[0]?.token ?? "",
          flags: { db: workspace.db, out: workspace.out, operations: false },
          now: () => sim.clock.now(),
        });
        expect(run.exitCode).toBe(0);
        expectSquare(await readLedger(workspace.db));
      } finally {
        await sim.close();
        await workspace.cleanup();
      }
    }),
    { numRuns: 6, seed: 45 },
  );
});
