import type { SimulatorOptions } from "../sim/index.js";

/**
 * The demo's simulated account: an org of three members whose admin exports it in org scope, with
 * the shapes every view has something to show for. Its ids are its own (no `zoo-usage sim` seed
 * serves them), so a `sim` account's export into the demo's database is refused as another
 * account's. Everything is a function of the seed and `now`: two demos of one day are identical.
 */
export function demoSimulatorOptions(now: Date, calls: number): SimulatorOptions {
  return {
    seed: 1,
    accountIds: "demo",
    calls,
    days: 90,
    // User 0 is billed personally; users 1 to 3 are the org (user 1 its admin, with three API
    // tokens, two sharing their last 4 characters), and its calls also go through the org's two
    // service accounts: spend per token, service account and member has several rows each.
    users: 4,
    // The history ends at the start of today (UTC): near the export's clock, so the operations
    // window covers its last days as it would a real account's, and the same all day, so a second
    // demo run finds nothing new, as the quick start says.
    now,
    // Invoices of several shapes: paid, open, draft, uncollectible and void; a Pro subscription
    // line; a sales tax line; a coupon off the invoice.
    invoiceStatuses: true,
    subscription: true,
    invoiceTax: "line",
    invoiceDiscount: "coupon",
    // Credits that last about a week of the recent spend: the runway shows a date in sight.
    runwayGrantDays: 7,
  };
}

/** The user whose token the demo exports with: the org's admin, in org scope. */
export const DEMO_EXPORTING_USER = 1;
