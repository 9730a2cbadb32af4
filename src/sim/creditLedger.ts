import { billingOf } from "./billing.js";
import { MONTHLY_CREDIT_MICROS } from "./billingPlan.js";
import { BillingQueue } from "./billingQueue.js";
import { kindOf } from "./callFacts.js";
import type { CallContext } from "./callRecord.js";
import { billingAccountOf, monthIndexOfMicros } from "./invoiceItems.js";
import { US_PER_DAY, US_PER_HOUR } from "./time.js";
import type { Timeline } from "./timeline.js";
import type { UserProfile } from "./users.js";

/** A call's fate once billed: paid by credits, or billable (it gets a stripe_invoice_item_id). */
export const COVERED = 1;
export const BILLABLE = 2;

/** The month's invoice run: the first hours of the next UTC month (the invoices' created_at). */
export const INVOICE_RUN_US = 2 * US_PER_HOUR;
/** Stable credits every account is granted when its history starts: $20. */
const WELCOME_GRANT_MICROS = 20_000_000;
/** A second grant lands this long before the simulator's start, so the credits still run then. */
const RUNWAY_GRANT_LEAD_US = 2 * US_PER_DAY;
/** ... sized to this many days of the account's recent spend, so they last about a week more. */
export const RUNWAY_GRANT_DAYS = 10;
const RECENT_DAYS = 14;
const GRANT_STEP_MICROS = 100_000_000;

/**
 * The invoice period of a call: the month whose invoice bills it (or would, were it billable). A
 * call billed after its month's invoice run lands on the next invoice: the month closing when it
 * was billed.
 */
export function periodOf(createdUs: number, billedUs: number): number {
  return Math.max(monthIndexOfMicros(createdUs), monthIndexOfMicros(billedUs - INVOICE_RUN_US));
}

/** A grant of stable credits: an amount, or the runway grant sized when it lands. */
interface Grant {
  atUs: number;
  micros: number | "runway";
}

/** One billing account's credits and what its billed calls came to, per invoice period. */
export class AccountLedger {
  monthlyMonth = Number.NEGATIVE_INFINITY;
  monthlyLeft = 0;
  stableLeft = 0;
  stableGranted = 0;
  /** Monthly credits consumed, per UTC month of billing; stable credits consumed in all. */
  readonly monthlyUsed = new Map<number, number>();
  stableUsed = 0;
  /** Priced spend paid by credits, and billable, per invoice period. */
  readonly covered = new Map<number, number>();
  readonly billable = new Map<number, number>();
  /** The priced calls of each period, in billing order, with prices and fates (kept for per-call items). */
  readonly calls = new Map<number, { index: number[]; micros: number[]; status: number[] }>();
  /** The first billable call, which a planted disagreement leaves without a line. */
  firstBillable: { index: number; period: number; micros: number } | undefined;
  readonly #grants: Grant[];
  readonly #spendByDay = new Map<number, number>();

  readonly #startUs: number;

  readonly #runwayDays: number;

  constructor(startUs: number, runwayUs: number, runwayDays = RUNWAY_GRANT_DAYS) {
    this.#startUs = startUs;
    this.#runwayDays = runwayDays;
    const welcome: Grant = { atUs: startUs, micros: WELCOME_GRANT_MICROS };
    const runway: Grant = { atUs: runwayUs, micros: "runway" };
    this.#grants = [welcome, runway].sort((a, b) => a.atUs - b.atUs);
  }

  /** Applies the stable grants due by `us`. */
  grantUpTo(us: number): void {
    while (this.#grants.length > 0 && (this.#grants[0]?.atUs ?? 0) <= us) {
      const grant = this.#grants.shift();
      if (grant === undefined) return;
      const micros = grant.micros === "runway" ? this.#runwayGrant(grant.atUs) : grant.micros;
      this.stableLeft += micros;
      this.stableGranted += micros;
    }
  }

  /** Monthly credits first, then stable; a call the credits cannot pay whole is billable whole. */
  charge(index: number, micros: number, createdUs: number, billedUs: number, keepCalls: boolean): number {
    this.grantUpTo(billedUs);
    const month = monthIndexOfMicros(billedUs);
    if (month !== this.monthlyMonth) {
      this.monthlyMonth = month;
      this.monthlyLeft = MONTHLY_CREDIT_MICROS;
    }
    const day = Math.floor(billedUs / US_PER_DAY);
    this.#spendByDay.set(day, (this.#spendByDay.get(day) ?? 0) + micros);
    const period = periodOf(createdUs, billedUs);
    const status = micros <= this.monthlyLeft + this.stableLeft ? COVERED : BILLABLE;
    if (status === COVERED) {
      const fromMonthly = Math.min(micros, this.monthlyLeft);
      this.monthlyLeft -= fromMonthly;
      this.stableLeft -= micros - fromMonthly;
      this.stableUsed += micros - fromMonthly;
      this.monthlyUsed.set(month, (this.monthlyUsed.get(month) ?? 0) + fromMonthly);
      this.covered.set(period, (this.covered.get(period) ?? 0) + micros);
    } else {
      this.billable.set(period, (this.billable.get(period) ?? 0) + micros);
      this.firstBillable ??= { index, period, micros };
    }
    if (keepCalls) {
      let calls = this.calls.get(period);
      if (calls === undefined) {
        calls = { index: [], micros: [], status: [] };
        this.calls.set(period, calls);
      }
      calls.index.push(index);
      calls.micros.push(micros);
      calls.status.push(status);
    }
    return status;
  }

  /** The credits left at `us` (the ledger advanced to `us`): this month's monthly, and stable. */
  balanceAt(us: number): { monthlyMicros: number; stableMicros: number } {
    this.grantUpTo(us);
    const fresh = monthIndexOfMicros(us) !== this.monthlyMonth;
    return { monthlyMicros: fresh ? MONTHLY_CREDIT_MICROS : this.monthlyLeft, stableMicros: this.stableLeft };
  }

  /**
   * runwayDays (RUNWAY_GRANT_DAYS unless planted) of the account's daily spend over the RECENT_DAYS before `atUs` (or since its
   * history began, if later), in whole $100, at least $100.
   */
  #runwayGrant(atUs: number): number {
    const today = Math.floor(atUs / US_PER_DAY);
    const windowDays = Math.min(RECENT_DAYS, Math.max(1, Math.ceil((atUs - this.#startUs) / US_PER_DAY)));
    let recent = 0;
    for (let day = today - windowDays; day <= today; day++) recent += this.#spendByDay.get(day) ?? 0;
    const wanted = (recent / windowDays) * this.#runwayDays;
    // A planted short runway is sized to the micro-dollar: whole $100 would outlast a few days.
    if (this.#runwayDays < RUNWAY_GRANT_DAYS) return Math.max(1, Math.round(wanted));
    return Math.max(1, Math.ceil(wanted / GRANT_STEP_MICROS)) * GRANT_STEP_MICROS;
  }
}

/** What the ledger reads from the dataset. */
export interface LedgerSource extends Pick<CallContext, "seed" | "priceMode" | "lateBilling"> {
  readonly timeline: Timeline;
  ownerOf(i: number): UserProfile;
  userIndexOf(i: number): number;
}

/**
 * Every billing account's credits (the org for its members, else the user), charged call by call in
 * the order billing lands (ties by call index), so a call's fate does not depend on when anyone
 * asked. The simulated clock only moves forward: each call is priced once, when the clock first
 * passes its creation, and charged once its billing lands.
 */
export class CreditLedger {
  readonly accounts = new Map<string, AccountLedger>();
  #status = new Uint8Array(1024);
  #examined = 0;
  #processedUs = Number.NEGATIVE_INFINITY;
  readonly #pending = new BillingQueue();

  constructor(
    private readonly source: LedgerSource,
    private readonly runwayGrantUs: number,
    private readonly keepCalls: boolean,
    private readonly runwayDays = RUNWAY_GRANT_DAYS,
  ) {}

  get processedUs(): number {
    return this.#processedUs;
  }

  /** The ledger of `account` (made on first use: an account with no priced call yet still has credits). */
  account(account: string): AccountLedger {
    let ledger = this.accounts.get(account);
    if (ledger === undefined) {
      const startUs = this.source.timeline.createdAt(0);
      ledger = new AccountLedger(
        startUs,
        Math.max(startUs, this.runwayGrantUs - RUNWAY_GRANT_LEAD_US),
        this.runwayDays,
      );
      this.accounts.set(account, ledger);
    }
    return ledger;
  }

  /** COVERED or BILLABLE for a priced call billed by `nowUs`; 0 for any other call. */
  statusOf(i: number, nowUs: number): number {
    this.advanceTo(nowUs);
    return this.#status[i] ?? 0;
  }

  /**
   * Charges every call billed by `nowUs`, in billing order. Calls are examined in creation order;
   * before call j is examined, every pending call billed by j's creation is charged (no call
   * created later can be billed earlier), so only the calls in flight wait in the queue.
   */
  advanceTo(nowUs: number): void {
    if (nowUs <= this.#processedUs) return;
    const { source } = this;
    const { timeline, seed } = source;
    const created = timeline.countCreatedBy(nowUs);
    for (; this.#examined < created; this.#examined++) {
      const i = this.#examined;
      const createdUs = timeline.createdAt(i);
      this.#chargeDue(createdUs);
      const billing = billingOf(seed, i, createdUs, kindOf(seed, i), source.priceMode, source.lateBilling);
      const micros = billing.price.micros;
      if (micros === null || micros <= 0) continue;
      const account = billingAccountOf(source.ownerOf(i)).id;
      this.#pending.push({ index: i, account, createdUs, billedUs: billing.billedUs, micros });
    }
    this.#chargeDue(nowUs);
    this.#processedUs = nowUs;
  }

  #chargeDue(us: number): void {
    for (let call = this.#pending.popDue(us); call !== undefined; call = this.#pending.popDue(us)) {
      const ledger = this.account(call.account);
      this.#setStatus(
        call.index,
        ledger.charge(call.index, call.micros, call.createdUs, call.billedUs, this.keepCalls),
      );
    }
  }

  #setStatus(i: number, status: number): void {
    if (i >= this.#status.length) {
      const grown = new Uint8Array(Math.max(i + 1, this.#status.length * 2));
      grown.set(this.#status);
      this.#status = grown;
    }
    this.#status[i] = status;
  }
}
