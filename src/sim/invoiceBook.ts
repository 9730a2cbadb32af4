import { subscriptionMicros } from "./billingPlan.js";
import type { AccountLedger, CreditLedger } from "./creditLedger.js";
import { BILLABLE, INVOICE_RUN_US } from "./creditLedger.js";
import {
  chargeLines,
  type InvoiceStatus,
  type LineDraft,
  PLAIN_SETTLEMENT,
  settle,
} from "./invoiceAmounts.js";
import {
  billingAccountOf,
  callInvoiceItemId,
  derivedStripeId,
  invoiceItemId,
  monthIndexOfMicros,
  monthStartMicros,
} from "./invoiceItems.js";
import { listedInvoices } from "./invoiceListing.js";
import type { InvoiceShape } from "./invoiceShape.js";
import type { SimInvoice } from "./simInvoice.js";
import type { UserProfile } from "./users.js";

/** How much a planted disagreement adds to its line (SimulatorOptions.invoiceDisagreement). */
export const PLANTED_DIFFERENCE_MICROS = 1_230_000;
/** The amount of the planted extra line (SimulatorOptions.extraInvoiceLine). */
export const EXTRA_LINE_MICROS = 2_500_000;

/** The planted shapes land on the account of user 0. */
export interface InvoiceSource {
  readonly seed: number;
  readonly ledger: CreditLedger;
  readonly firstCallUs: number;
  profileOf(u: number): UserProfile | undefined;
  /** The users of an org (an org's account id is its id). */
  orgMembers(orgId: string): number[];
}

/**
 * The simulator's invoices, from the credit ledger: each invoice period (a UTC month, closed by the
 * invoice run in the first hours of the next) bills what credits did not pay. Its lines are
 * "invoice items in reverse chronological order, followed by the subscription, if any" (spec):
 * one item for the period, or one per call, then the subscription line. A closed period's invoice
 * cannot change, so it is built once; statuses, copies and payments are given as the listing is
 * served (invoiceListing.ts), the amounts by invoiceAmounts.ts.
 */
export class InvoiceBook {
  readonly #closed = new Map<string, SimInvoice | null>();

  constructor(
    private readonly source: InvoiceSource,
    readonly shape: InvoiceShape,
  ) {}

  /** The invoices of `account` at `nowUs`, oldest first (a voided one before its reissue). */
  invoicesOf(account: string, nowUs: number): SimInvoice[] {
    const { ledger } = this.source;
    ledger.advanceTo(nowUs);
    const first = monthIndexOfMicros(this.source.firstCallUs);
    const open = monthIndexOfMicros(nowUs - INVOICE_RUN_US);
    const closed: SimInvoice[] = [];
    for (let period = first; period < open; period++) {
      const key = `${account}:${period}`;
      let invoice = this.#closed.get(key);
      if (invoice === undefined) {
        invoice = this.#build(account, period, "paid");
        this.#closed.set(key, invoice);
      }
      if (invoice !== null) closed.push(invoice);
    }
    const draft = this.shape.statuses ? this.#build(account, open, "draft") : null;
    return listedInvoices({ seed: this.source.seed, account, nowUs, shape: this.shape }, closed, draft);
  }

  /**
   * What the account owes at `nowUs`: the amount remaining on drafts, open and uncollectible
   * invoices, and the billable calls not invoiced yet.
   */
  totalDueMicros(account: string, nowUs: number): number {
    let due = 0;
    for (const invoice of this.invoicesOf(account, nowUs))
      if (invoice.status === "draft" || invoice.status === "open" || invoice.status === "uncollectible")
        due += invoice.settlement.remainingMicros;
    if (this.shape.statuses) return due;
    const ledger = this.source.ledger.account(account);
    for (const [period, micros] of ledger.billable)
      if (period >= monthIndexOfMicros(nowUs - INVOICE_RUN_US)) due += micros;
    return due;
  }

  /** The invoice of a period: a closed one, dated at its run; a draft, dated at the run opening it. */
  #build(account: string, period: number, status: InvoiceStatus): SimInvoice | null {
    const ledger = this.source.ledger.account(account);
    const drafts = this.#usageLines(account, period, ledger);
    const creditsUsed =
      this.shape.credits === "none" || drafts.length === 0 ? 0 : (ledger.covered.get(period) ?? 0);
    if (drafts.length > 0 && account === this.#plantedAccount() && this.#isFirstUsage(ledger, period)) {
      const [top] = drafts;
      if (top !== undefined && this.shape.plantDisagreement) top.plantedUsdMicros = PLANTED_DIFFERENCE_MICROS;
      if (top !== undefined && this.shape.plantExtraLine)
        drafts.splice(1, 0, {
          id: this.#id("il_1", `${account}#extra`, period),
          invoiceItem: top.invoiceItem,
          description: top.description,
          kind: "extra",
          usdMicros: EXTRA_LINE_MICROS,
          plantedUsdMicros: 0,
        });
    }
    // The credits applied: an invoice item made at the run, so the newest, first.
    if (this.shape.credits === "line" && creditsUsed > 0)
      drafts.unshift({
        id: this.#id("il_1", `${account}#credits`, period),
        invoiceItem: this.#id("ii_1", `${account}#credits`, period),
        description: "API credits applied",
        kind: "credits",
        usdMicros: -creditsUsed,
        plantedUsdMicros: 0,
      });
    if (this.shape.subscription)
      drafts.push({
        id: this.#id("il_1", `${account}#sub`, period),
        invoiceItem: undefined,
        description:
          this.#seatsOf(account) === undefined
            ? "Zoo Pro (monthly)"
            : "Zoo Organization (monthly, per member)",
        kind: "subscription",
        usdMicros: subscriptionMicros(this.#seatsOf(account)),
        plantedUsdMicros: 0,
      });
    if (drafts.length === 0) return null;
    const { lines, charges } = chargeLines(
      drafts,
      this.shape.credits === "discount" ? creditsUsed : 0,
      this.shape,
      this.#id("il_1", `${account}#tax`, period),
    );
    const seed = this.source.seed;
    const owner = this.#ownerOf(account);
    const label = periodLabel(period);
    return {
      id: this.#id("in_1", account, period),
      number: `${derivedStripeId(seed, "", account, 0).slice(0, 8).toUpperCase()}-${label.replace("-", "")}`,
      customerId: derivedStripeId(seed, "cus_", account, 0).slice(0, 18),
      customerEmail: owner?.orgId === null ? owner.email : undefined,
      month: period,
      // A draft is made by the run that opens its period; a closed invoice by the one closing it.
      createdUs: monthStartMicros(status === "draft" ? period : period + 1) + INVOICE_RUN_US,
      status,
      subscriptionId: this.shape.subscription ? derivedStripeId(seed, "sub_1", account, 0) : null,
      currency: this.shape.currency.code,
      lines,
      charges,
      settlement: settle(charges.totalMicros, status, PLAIN_SETTLEMENT),
    };
  }

  /** The period's usage: one line per item, newest first; the unlined call's price on none. */
  #usageLines(account: string, period: number, ledger: AccountLedger): LineDraft[] {
    const seed = this.source.seed;
    const description = `Zoo API usage, ${periodLabel(period)}`;
    const unlined =
      this.shape.plantUnlinedCall && account === this.#plantedAccount() ? ledger.firstBillable : undefined;
    const shown = this.shape.credits !== "none";
    const usage = { description, kind: "usage", plantedUsdMicros: 0 } as const;
    if (!this.shape.perCallItems) {
      const billable = (ledger.billable.get(period) ?? 0) + (shown ? (ledger.covered.get(period) ?? 0) : 0);
      const micros = billable - (unlined?.period === period ? unlined.micros : 0);
      if (micros <= 0) return [];
      const id = this.#id("il_1", account, period);
      return [{ ...usage, id, invoiceItem: invoiceItemId(seed, account, period), usdMicros: micros }];
    }
    const calls = ledger.calls.get(period);
    const lines: LineDraft[] = [];
    for (let k = (calls?.index.length ?? 0) - 1; k >= 0; k--) {
      const index = calls?.index[k] ?? 0;
      if (index === unlined?.index || (!shown && calls?.status[k] !== BILLABLE)) continue;
      lines.push({
        ...usage,
        id: this.#id("il_1", `${account}#call`, index),
        invoiceItem: callInvoiceItemId(seed, account, index),
        usdMicros: calls?.micros[k] ?? 0,
      });
    }
    return lines;
  }

  /** The members an org's subscription is charged for; undefined for a person's account. */
  #seatsOf(account: string): number | undefined {
    const members = this.source.orgMembers(account).length;
    return members === 0 ? undefined : members;
  }

  /** No earlier period has usage lines (billable calls, or any priced call when credits show). */
  #isFirstUsage(ledger: AccountLedger, period: number): boolean {
    const shown = this.shape.credits !== "none";
    for (const [other, micros] of ledger.billable) if (other < period && micros > 0) return false;
    for (const [other, micros] of ledger.covered) if (shown && other < period && micros > 0) return false;
    return true;
  }

  #id(prefix: string, account: string, period: number): string {
    return derivedStripeId(this.source.seed, prefix, account, period);
  }

  /** The account whose first invoice carries the planted disagreements: user 0's. */
  #plantedAccount(): string | undefined {
    const user = this.source.profileOf(0);
    return user === undefined ? undefined : billingAccountOf(user).id;
  }

  #ownerOf(account: string): UserProfile | undefined {
    for (let u = 0; ; u++) {
      const user = this.source.profileOf(u);
      if (user === undefined) return undefined;
      if (billingAccountOf(user).id === account) return user;
    }
  }
}

function periodLabel(period: number): string {
  return `${Math.floor(period / 12)}-${String((period % 12) + 1).padStart(2, "0")}`;
}
