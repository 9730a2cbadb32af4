import { SIM_DEFAULTS } from "./defaults.js";
import { unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_DAY, US_PER_HOUR, US_PER_MS } from "./time.js";

/**
 * When billing lands for the calls Zoo does not settle right away. Zoo charges at month end (its
 * pricing pages), and when `price`, `completed_at` and `stripe_invoice_item_id` are filled in is
 * undocumented, so a share of calls settles days after the call: some a number of days later, some
 * when the month closes. Until then they are listed as pending, with the early updated_at.
 */
export interface LateBillingOptions {
  /** 0..1: share of calls whose billing lands late (default 0.05). */
  share?: number;
  /** Days after the on-time billing moment a late call settles, drawn uniformly (default [3, 40]). */
  days?: readonly [number, number];
  /** 0..1: share of the late calls that settle when their UTC month closes instead (default 0.3). */
  monthEndShare?: number;
}

export interface LateBilling {
  readonly share: number;
  readonly minDays: number;
  readonly maxDays: number;
  readonly monthEndShare: number;
}

export const NO_LATE_BILLING: LateBilling = { share: 0, minDays: 0, maxDays: 0, monthEndShare: 0 };

/** Checked options with defaults; RangeError names the one that is wrong. */
export function lateBillingOf(options: LateBillingOptions = {}): LateBilling {
  const share = options.share ?? SIM_DEFAULTS.lateBillingShare;
  const [minDays, maxDays] = options.days ?? [3, 40];
  const monthEndShare = options.monthEndShare ?? 0.3;
  if (!(share >= 0 && share <= 1)) throw new RangeError(`lateBilling.share must be in 0..1, not ${share}`);
  if (!(monthEndShare >= 0 && monthEndShare <= 1))
    throw new RangeError(`lateBilling.monthEndShare must be in 0..1, not ${monthEndShare}`);
  if (!(minDays >= 0 && maxDays >= minDays && Number.isFinite(maxDays)))
    throw new RangeError(
      `lateBilling.days must be [min, max] with 0 <= min <= max, not [${minDays}, ${maxDays}]`,
    );
  return { share, minDays, maxDays, monthEndShare };
}

export function isBilledLate(seed: number, i: number, late: LateBilling): boolean {
  return late.share > 0 && unit(seed, i, SALT.lateBilling) < late.share;
}

/**
 * The moment call i's billing lands, given when it would land on time. A month-end call settles in
 * the first hours of the UTC month after its on-time moment (the invoice run); the others settle
 * minDays..maxDays days late.
 */
export function settledAtUs(seed: number, i: number, onTimeUs: number, late: LateBilling): number {
  if (!isBilledLate(seed, i, late)) return onTimeUs;
  if (unit(seed, i, SALT.lateBillingMonthEnd) < late.monthEndShare) {
    const onTime = new Date(Math.floor(onTimeUs / US_PER_MS));
    const nextMonthMs = Date.UTC(onTime.getUTCFullYear(), onTime.getUTCMonth() + 1, 1);
    return nextMonthMs * US_PER_MS + Math.floor(unit(seed, i, SALT.lateBillingDelay) * 6 * US_PER_HOUR);
  }
  const days = late.minDays + unit(seed, i, SALT.lateBillingDelay) * (late.maxDays - late.minDays);
  return onTimeUs + Math.floor(days * US_PER_DAY);
}
