import { subscriptionMicros } from "./billingPlan.js";
import type { AccountLedger, CreditLedger } from "./creditLedger.js";
import { BILLABLE, INVOICE_RUN_US } from "./creditLedger.js";
import {
  billingAccountOf,
  callInvoiceItemId,
  derivedStripeId,
  invoiceItemId,
  monthIndexOfMicros,
  monthStartMicros,
} from "./invoiceItems.js";
import type { UserProfile } from "./users.js";

/** How much a planted disagreement adds to its line (SimulatorOptions.invoiceDisagreement). */
export const PLANTED_DIFFERENCE_MICROS = 1_230_000;
/** The amount of the planted extra line (SimulatorOptions.extraInvoiceLine). */
export const EXTRA_LINE_MICROS = 2_500_000;

export type InvoiceStatus = "draft" | "open" | "paid" | "uncollectible" | "void";

/** One invoice line; a subscription line has no invoice item. */
export interface SimInvoiceLine {
  id: string;
  invoiceItem: string | undefined;
  amountMicros: number;
  description: string;
}

/** One invoice: an account's invoice period, its lines (maybe cut short) and its whole subtotal. */
export interface SimInvoice {
  id: string;
  number: string;
  customerId: string;
  customerEmail: string | undefined;
  month: number;
  createdUs: number;
  status: InvoiceStatus;
  subscriptionId: string | null;
  lines: SimInvoiceLine[];
  /** The sum of every line, also of those `lines` leaves out. */
  subtotalMicros: number;
  /** The credits applied as a discount (0: none); total = subtotal - discount. */
  discountMicros: number;
}

/** The invoice shapes a simulator serves (SimulatorOptions' billing fields). */
export interface InvoiceShape {
  perCallItems: boolean;
  subscription: boolean;
  /** `lines` holds at most this many lines (undefined: all). */
  linesLimit: number | undefined;
  /** Draft, open, uncollectible and void invoices beside the paid ones. */
  statuses: boolean;
  plantDisagreement: boolean;
  plantUnlinedCall: boolean;
  plantExtraLine: boolean;
  /**
   * Where the credits a period used show: "none" (default), the calls they paid carry no item and
   * are on no invoice; "line" or "discount", every priced call is on the invoice and the credits
   * applied are a negative line or a discount.
   */
  credits: CreditsOnInvoice;
}

export type CreditsOnInvoice = "none" | "line" | "discount";

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
 * cannot change, so it is built once; statuses are given as the listing is served.
 */
export class InvoiceBook {
  readonly #closed = new Map<string, SimInvoice | null>();

  constructor(
    private readonly source: InvoiceSource,
    private readonly shape: InvoiceShape,
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
    if (!this.shape.statuses) return closed;
    const invoices = closed.map((invoice, k) => ({ ...invoice, status: statusOf(k, closed.length) }));
    const oldest = invoices[0];
    if (oldest !== undefined && invoices.length >= 2)
      invoices.unshift({
        ...oldest,
        id: this.#id("in_1", `${account}#void`, oldest.month),
        number: `${oldest.number}-V`,
        status: "void",
      });
    const draft = this.#build(account, open, "draft");
    if (draft !== null) invoices.push(draft);
    return invoices;
  }

  /** What the account owes at `nowUs`: unpaid final invoices, drafts and billable calls not invoiced yet. */
  totalDueMicros(account: string, nowUs: number): number {
    let due = 0;
    for (const invoice of this.invoicesOf(account, nowUs))
      if (invoice.status === "draft" || invoice.status === "open" || invoice.status === "uncollectible")
        due += invoice.subtotalMicros - invoice.discountMicros;
    if (this.shape.statuses) return due;
    const ledger = this.source.ledger.account(account);
    for (const [period, micros] of ledger.billable)
      if (period >= monthIndexOfMicros(nowUs - INVOICE_RUN_US)) due += micros;
    return due;
  }

  #build(account: string, period: number, status: InvoiceStatus): SimInvoice | null {
    const ledger = this.source.ledger.account(account);
    const lines = this.#usageLines(account, period, ledger);
    const creditsUsed =
      this.shape.credits === "none" || lines.length === 0 ? 0 : (ledger.covered.get(period) ?? 0);
    if (lines.length > 0 && account === this.#plantedAccount() && this.#isFirstUsage(ledger, period)) {
      const [top] = lines;
      if (top !== undefined && this.shape.plantDisagreement) top.amountMicros += PLANTED_DIFFERENCE_MICROS;
      if (top !== undefined && this.shape.plantExtraLine)
        lines.splice(1, 0, {
          id: this.#id("il_1", `${account}#extra`, period),
          invoiceItem: top.invoiceItem,
          amountMicros: EXTRA_LINE_MICROS,
          description: top.description,
        });
    }
    // The credits applied: an invoice item made at the run, so the newest, first.
    if (this.shape.credits === "line" && creditsUsed > 0)
      lines.unshift({
        id: this.#id("il_1", `${account}#credits`, period),
        invoiceItem: this.#id("ii_1", `${account}#credits`, period),
        amountMicros: -creditsUsed,
        description: "API credits applied",
      });
    if (this.shape.subscription)
      lines.push({
        id: this.#id("il_1", `${account}#sub`, period),
        invoiceItem: undefined,
        amountMicros: subscriptionMicros(this.#seatsOf(account)),
        description:
          this.#seatsOf(account) === undefined
            ? "Zoo Pro (monthly)"
            : "Zoo Organization (monthly, per member)",
      });
    if (lines.length === 0) return null;
    const seed = this.source.seed;
    const owner = this.#ownerOf(account);
    const label = periodLabel(period);
    const limit = this.shape.linesLimit;
    return {
      id: this.#id("in_1", account, period),
      number: `${derivedStripeId(seed, "", account, 0).slice(0, 8).toUpperCase()}-${label.replace("-", "")}`,
      customerId: derivedStripeId(seed, "cus_", account, 0).slice(0, 18),
      customerEmail: owner?.orgId === null ? owner.email : undefined,
      month: period,
      createdUs: monthStartMicros(period + 1) + INVOICE_RUN_US,
      status,
      subscriptionId: this.shape.subscription ? derivedStripeId(seed, "sub_1", account, 0) : null,
      lines: limit === undefined ? lines : lines.slice(0, limit),
      subtotalMicros: lines.reduce((sum, line) => sum + line.amountMicros, 0),
      discountMicros: this.shape.credits === "discount" ? creditsUsed : 0,
    };
  }

  /** The period's usage: one line per item, newest first; the unlined call's price on none. */
  #usageLines(account: string, period: number, ledger: AccountLedger): SimInvoiceLine[] {
    const seed = this.source.seed;
    const description = `Zoo API usage, ${periodLabel(period)}`;
    const unlined =
      this.shape.plantUnlinedCall && account === this.#plantedAccount() ? ledger.firstBillable : undefined;
    const shown = this.shape.credits !== "none";
    if (!this.shape.perCallItems) {
      const billable = (ledger.billable.get(period) ?? 0) + (shown ? (ledger.covered.get(period) ?? 0) : 0);
      const micros = billable - (unlined?.period === period ? unlined.micros : 0);
      if (micros <= 0) return [];
      const line = {
        id: this.#id("il_1", account, period),
        invoiceItem: invoiceItemId(seed, account, period),
      };
      return [{ ...line, amountMicros: micros, description }];
    }
    const calls = ledger.calls.get(period);
    const lines: SimInvoiceLine[] = [];
    for (let k = (calls?.index.length ?? 0) - 1; k >= 0; k--) {
      const index = calls?.index[k] ?? 0;
      if (index === unlined?.index || (!shown && calls?.status[k] !== BILLABLE)) continue;
      lines.push({
        id: this.#id("il_1", `${account}#call`, index),
        invoiceItem: callInvoiceItemId(seed, account, index),
        amountMicros: calls?.micros[k] ?? 0,
        description,
      });
    }
    return lines;
  }

  /** No earlier period has usage lines (billable calls, or any priced call when credits show). */
  /** The members an org's subscription is charged for; undefined for a person's account. */
  #seatsOf(account: string): number | undefined {
    const members = this.source.orgMembers(account).length;
    return members === 0 ? undefined : members;
  }

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

/** The status of the k-th of n closed invoices: the newest still open, the second uncollectible. */
function statusOf(k: number, n: number): InvoiceStatus {
  if (k === n - 1) return "open";
  if (k === 1) return "uncollectible";
  return "paid";
}

function periodLabel(period: number): string {
  return `${Math.floor(period / 12)}-${String((period % 12) + 1).padStart(2, "0")}`;
}
