import { billingOf } from "./billing.js";
import { kindOf } from "./callFacts.js";
import type { Dataset } from "./dataset.js";
import {
  billingAccountOf,
  derivedStripeId,
  invoiceItemId,
  monthIndexOfMicros,
  monthStartMicros,
} from "./invoiceItems.js";
import { US_PER_HOUR } from "./time.js";
import type { UserProfile } from "./users.js";

/** How much a planted disagreement adds to its line (SimulatorOptions.invoiceDisagreement). */
export const PLANTED_DIFFERENCE_MICROS = 1_230_000;

/** One invoice line: the month's invoice item of an account and what its calls cost. */
export interface SimInvoiceLine {
  id: string;
  invoiceItem: string;
  amountMicros: number;
  description: string;
}

/** One invoice: an account's closed UTC month, every priced call of it billed. */
export interface SimInvoice {
  id: string;
  number: string;
  customerId: string;
  customerEmail: string | undefined;
  month: number;
  createdUs: number;
  lines: SimInvoiceLine[];
  totalMicros: number;
}

/** What one closed month adds up to, per billing account; `settled` once every priced call is billed. */
interface MonthTotals {
  settled: boolean;
  byAccount: Map<string, number>;
}

/**
 * A month still settling, summed up to its first call not billed at `nowUs`: the calls before it
 * stay billed as the clock moves on, so a later request resumes there.
 */
interface PartialMonth {
  nowUs: number;
  next: number;
  byAccount: Map<string, number>;
}

/**
 * The simulator's invoices, derived from its calls: an account gets an invoice for each closed UTC
 * month in which its calls cost something, once every priced call of that month is billed (late
 * billing can land weeks after the month ends: until then the month has no invoice). Its one line
 * is the month's invoice item (the id those calls carry in stripe_invoice_item_id) with the sum of
 * their prices, exact in micro-dollars. The current month has no invoice yet.
 *
 * Summing a month reads every call of it once, so a month is summed on first request and kept once
 * settled (it cannot change after that); a month still settling keeps its sums up to its first
 * unbilled call, and a later request goes on from there.
 */
export class InvoiceBook {
  readonly #dataset: Dataset;
  readonly #plantDisagreement: boolean;
  readonly #settled = new Map<number, MonthTotals>();
  readonly #partial = new Map<number, PartialMonth>();

  constructor(dataset: Dataset, plantDisagreement: boolean) {
    this.#dataset = dataset;
    this.#plantDisagreement = plantDisagreement;
  }

  /** The invoices of `account` at `nowUs`, oldest first. */
  invoicesOf(account: string, nowUs: number): SimInvoice[] {
    const invoices: SimInvoice[] = [];
    const timeline = this.#dataset.timeline;
    const first = monthIndexOfMicros(timeline.createdAt(0));
    const current = monthIndexOfMicros(nowUs);
    const planted = this.#plantDisagreement ? this.#plantedAccount() : undefined;
    let plantedYet = false;
    for (let month = first; month < current; month++) {
      const totals = this.#monthTotals(month, nowUs);
      const micros = totals.byAccount.get(account);
      if (!totals.settled || micros === undefined) continue;
      const plant: boolean = account === planted && !plantedYet;
      plantedYet ||= plant;
      invoices.push(this.#invoice(account, month, micros + (plant ? PLANTED_DIFFERENCE_MICROS : 0)));
    }
    return invoices;
  }

  /** The account whose oldest invoice carries the planted disagreement: user 0's. */
  #plantedAccount(): string | undefined {
    const user = this.#dataset.profileOf(0);
    return user === undefined ? undefined : billingAccountOf(user).id;
  }

  #invoice(account: string, month: number, micros: number): SimInvoice {
    const seed = this.#dataset.seed;
    const owner = this.#ownerOf(account);
    const year = Math.floor(month / 12);
    const label = `${year}-${String((month % 12) + 1).padStart(2, "0")}`;
    return {
      id: derivedStripeId(seed, "in_1", account, month),
      number: `${derivedStripeId(seed, "", account, 0).slice(0, 8).toUpperCase()}-${label.replace("-", "")}`,
      customerId: derivedStripeId(seed, "cus_", account, 0).slice(0, 18),
      customerEmail: owner?.orgId === null ? owner.email : undefined,
      month,
      // The invoice run: the first hours of the next month.
      createdUs: monthStartMicros(month + 1) + 2 * US_PER_HOUR,
      lines: [
        {
          id: derivedStripeId(seed, "il_1", account, month),
          invoiceItem: invoiceItemId(seed, account, month),
          amountMicros: micros,
          description: `Zoo API usage, ${label}`,
        },
      ],
      totalMicros: micros,
    };
  }

  #ownerOf(account: string): UserProfile | undefined {
    for (let u = 0; ; u++) {
      const user = this.#dataset.profileOf(u);
      if (user === undefined) return undefined;
      if (billingAccountOf(user).id === account) return user;
    }
  }

  #monthTotals(month: number, nowUs: number): MonthTotals {
    const known = this.#settled.get(month);
    if (known !== undefined) return known;
    const dataset = this.#dataset;
    const { timeline, seed } = dataset;
    const to = timeline.countCreatedBy(monthStartMicros(month + 1) - 1);
    // Resumed only on a clock that has not gone back: calls billed then are billed now.
    const partial = this.#partial.get(month);
    const resume = partial !== undefined && partial.nowUs <= nowUs ? partial : undefined;
    const from = resume?.next ?? timeline.countCreatedBy(monthStartMicros(month) - 1);
    const byAccount = new Map(resume?.byAccount ?? []);
    let settled = true;
    let i = from;
    for (; i < to; i++) {
      const createdUs = timeline.createdAt(i);
      const billing = billingOf(seed, i, createdUs, kindOf(seed, i), dataset.priceMode, dataset.lateBilling);
      const micros = billing.price.micros;
      if (micros === null || micros <= 0) continue;
      if (billing.billedUs > nowUs || timeline.visibleFrom(i) > nowUs) {
        settled = false;
        break;
      }
      const account = billingAccountOf(dataset.ownerOf(i)).id;
      byAccount.set(account, (byAccount.get(account) ?? 0) + micros);
    }
    const totals = { settled, byAccount };
    if (settled) {
      this.#settled.set(month, totals);
      this.#partial.delete(month);
    } else this.#partial.set(month, { nowUs, next: i, byAccount: new Map(byAccount) });
    return totals;
  }
}
