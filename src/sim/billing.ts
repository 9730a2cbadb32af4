import { type LateBilling, NO_LATE_BILLING, settledAtUs } from "./lateBilling.js";
import { hash32, logBetween, unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_MINUTE, US_PER_MS, US_PER_SECOND } from "./time.js";

/**
 * Billing facts of one call, all as absolute microseconds. The spec describes started_at and
 * completed_at as the times the call "started/completed billing"; billing completes 1 to 30 minutes
 * after the call (never before the call itself has ended), or later for a share of calls (see
 * settledAtUs), and only then are price, completed_at, minutes and seconds filled in (zoo-api.md:
 * "updated_at moves when billing completes").
 */
export interface Billing {
  startedUs: number;
  completedUs: number;
  runUs: number;
  billedUs: number;
  /** updated_at while billing is pending: the row was written a few ms after the call. */
  pendingUpdateUs: number;
  /** Exact price in micro-dollars, or null for a non-billable call. */
  priceMicros: number | null;
  /** Some rows never got a duration (older writers); keep the exporter honest about nulls. */
  durationMissing: boolean;
}

export function billingOf(
  seed: number,
  i: number,
  createdUs: number,
  runMs: readonly [number, number],
  billable: boolean,
  late: LateBilling = NO_LATE_BILLING,
): Billing {
  const startedUs = createdUs + Math.round(logBetween(seed, i, SALT.startDelay, 2, 300) * US_PER_MS);
  const runUs = Math.max(1, Math.round(logBetween(seed, i, SALT.runTime, runMs[0], runMs[1]) * US_PER_MS));
  const completedUs = startedUs + runUs;
  const delayUs = US_PER_MINUTE + Math.floor(unit(seed, i, SALT.billingDelay) * 29 * US_PER_MINUTE);
  return {
    startedUs,
    completedUs,
    runUs,
    billedUs: settledAtUs(seed, i, Math.max(createdUs + delayUs, completedUs + 5 * US_PER_SECOND), late),
    pendingUpdateUs: createdUs + US_PER_MS + (hash32(seed, i, SALT.pendingUpdate) % (19 * US_PER_MS)),
    priceMicros: priceMicrosOf(seed, i, billable),
    durationMissing: unit(seed, i, SALT.durationMissing) < 0.02,
  };
}

/**
 * Prices: ~3% null (non-billable), ~15% exactly 0 (free tier), ~0.2% large (50 to 5000 USD, whole
 * cents), the rest 0.0001 to 0.50 USD with up to 6 decimals. Integer micro-dollars keep them exact.
 * Only compute (CAD jobs, code execution, modeling sessions) costs money: metadata calls such as
 * GET /user or polling an operation are priced 0, so cost per endpoint looks like a real bill.
 */
function priceMicrosOf(seed: number, i: number, billable: boolean): number | null {
  const u = unit(seed, i, SALT.priceClass);
  if (u < 0.03) return null;
  if (u < 0.18 || !billable) return 0;
  if (u < 0.182) return Math.round(logBetween(seed, i, SALT.priceAmount, 50, 5000) * 100) * 10_000;
  return Math.round(logBetween(seed, i, SALT.priceAmount, 100, 500_000));
}
