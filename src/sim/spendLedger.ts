import { billingOf } from "./billing.js";
import { kindOf } from "./callFacts.js";
import type { Dataset } from "./dataset.js";

/** A priced call not yet in the listing with its price (billing or the listing itself still to come). */
interface Unsettled {
  /** When it is listed with its price: the later of its listing and its billing. */
  settlesUs: number;
  micros: number;
  month: number;
}

/**
 * The priced spend of some users' calls per UTC month, as their listings show it at a moment: the
 * sum of the prices of the calls listed and billed by then. The simulated clock only moves forward,
 * so each call is priced once, when the clock first passes its creation, and kept aside until it
 * settles: a balance request costs the calls created since the previous one, not the whole history.
 */
export class SpendLedger {
  #examined = 0;
  #lastNowUs = Number.NEGATIVE_INFINITY;
  readonly #spend = new Map<number, bigint>();
  #unsettled: Unsettled[] = [];

  constructor(
    private readonly dataset: Dataset,
    private readonly users: ReadonlySet<number>,
  ) {}

  /** Spend per month (year * 12 + month index) at `nowUs`; `nowUs` never goes back. */
  spendAt(nowUs: number): ReadonlyMap<number, bigint> {
    if (nowUs < this.#lastNowUs) throw new RangeError("the spend ledger only moves forward in time");
    this.#lastNowUs = nowUs;
    const { dataset } = this;
    const created = dataset.timeline.countCreatedBy(nowUs);
    for (; this.#examined < created; this.#examined++) {
      const i = this.#examined;
      if (!this.users.has(dataset.userIndexOf(i))) continue;
      const createdUs = dataset.createdAt(i);
      const billing = billingOf(
        dataset.seed,
        i,
        createdUs,
        kindOf(dataset.seed, i),
        dataset.priceMode,
        dataset.lateBilling,
      );
      const micros = billing.price.micros;
      if (micros === null || micros <= 0) continue;
      const settlesUs = Math.max(billing.billedUs, dataset.timeline.visibleFrom(i));
      this.#unsettled.push({ settlesUs, micros, month: monthOf(createdUs) });
    }
    const still: Unsettled[] = [];
    for (const call of this.#unsettled) {
      if (call.settlesUs > nowUs) still.push(call);
      else this.#spend.set(call.month, (this.#spend.get(call.month) ?? 0n) + BigInt(call.micros));
    }
    this.#unsettled = still;
    return this.#spend;
  }
}

/** A UTC month as year * 12 + month index. */
export function monthOf(us: number): number {
  const date = new Date(Math.floor(us / 1000));
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}
