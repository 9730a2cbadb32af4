import { callFailed, type EndpointKind, isBillable } from "./callFacts.js";
import { type LateBilling, NO_LATE_BILLING, settledAtUs } from "./lateBilling.js";
import { hash32, logBetween, unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_MINUTE, US_PER_MS, US_PER_SECOND } from "./time.js";

/**
 * How prices are made. "realistic" follows Zoo's published rules (see priceOf), so every price is
 * whole cents. "adversarial" serves odd money instead: sub-cent amounts with up to 6 decimals, a few
 * very large ones, free-tier zeros and charged failures, for the tests of exactness.
 */
export type PriceMode = "realistic" | "adversarial";
export const PRICE_MODES: readonly PriceMode[] = ["realistic", "adversarial"];

/**
 * Pricing eras (Zoo's pricing pages): $0.50 per started minute until 2025-09-30, per second from
 * then on; calls under 10 s are free until 2025-10-14. Both dates are read as the start of that UTC
 * day, and the era of a call is the one its created_at falls in.
 */
export const PER_SECOND_FROM_US = Date.UTC(2025, 8, 30) * US_PER_MS;
export const SHORT_CALLS_FREE_UNTIL_US = Date.UTC(2025, 9, 14) * US_PER_MS;
const SHORT_CALL_US = 10 * US_PER_SECOND;
const CENTS_PER_MINUTE = 50;
const MICROS_PER_CENT = 10_000;

/** What a call's price depends on. */
export interface PriceFacts {
  seed: number;
  index: number;
  createdUs: number;
  /** Billed run time (completed_at - started_at). */
  runUs: number;
  /** Compute (CAD jobs, code execution, modeling sessions); metadata calls cost nothing. */
  billable: boolean;
  /** Answered with an error status, or the operation it started failed: not charged. */
  failed: boolean;
  /** Billing leaves some rows without a price (the spec allows null); the exporter must keep them. */
  priceMissing: boolean;
  mode: PriceMode;
}

/** The price and billed quantities of a call once billing has completed. */
export interface Price {
  /** Exact price in micro-dollars, or null for a call billing leaves without a price. */
  micros: number | null;
  /** Started minutes, the per-minute era's billed quantity. */
  minutes: number;
  /** Started seconds, the per-second era's billed quantity; null before the field existed. */
  seconds: number | null;
}

/**
 * The price of a call: a pure function of its facts. Quantities are the started minutes and seconds
 * of the run; the price applies the call's era to them. Integer cents keep half-up rounding exact:
 * seconds/120 dollars is 5*seconds/6 cents, rounded half-up as floor((5*seconds + 3) / 6).
 */
export function priceOf(facts: PriceFacts): Price {
  const minutes = Math.ceil(facts.runUs / US_PER_MINUTE);
  const seconds = Math.ceil(facts.runUs / US_PER_SECOND);
  if (facts.mode === "adversarial") {
    const micros = facts.priceMissing ? null : adversarialMicros(facts.seed, facts.index, facts.billable);
    return { micros, minutes, seconds };
  }
  const perMinute = facts.createdUs < PER_SECOND_FROM_US;
  // `seconds` appeared in the spec in late 2025, with per-second billing: per-minute records lack it.
  const quantities = { minutes, seconds: perMinute ? null : seconds };
  if (facts.priceMissing) return { micros: null, ...quantities };
  if (!facts.billable || facts.failed) return { micros: 0, ...quantities };
  if (perMinute) return { micros: minutes * CENTS_PER_MINUTE * MICROS_PER_CENT, ...quantities };
  if (facts.createdUs < SHORT_CALLS_FREE_UNTIL_US && facts.runUs < SHORT_CALL_US) {
    return { micros: 0, ...quantities };
  }
  return { micros: Math.floor((5 * seconds + 3) / 6) * MICROS_PER_CENT, ...quantities };
}

/** ~3% of billed rows carry no price at all. */
const NULL_PRICE_SHARE = 0.03;

/**
 * Billing facts of one call, all as absolute microseconds. The spec describes started_at and
 * completed_at as the times the call "started/completed billing"; billing completes 1 to 30 minutes
 * after the call (never before the call itself has ended), or later for a share of calls (see
 * settledAtUs), and only then are price, completed_at, minutes and seconds filled in, and
 * updated_at moves (inferred from those field descriptions: the spec says no more).
 */
export interface Billing {
  startedUs: number;
  completedUs: number;
  runUs: number;
  billedUs: number;
  /** updated_at while billing is pending: the row was written a few ms after the call. */
  pendingUpdateUs: number;
  /** Price and billed quantities, shown once billing has completed. */
  price: Price;
  /** Some rows never got a duration (older writers); keep the exporter honest about nulls. */
  durationMissing: boolean;
}

export function billingOf(
  seed: number,
  i: number,
  createdUs: number,
  kind: EndpointKind,
  mode: PriceMode,
  late: LateBilling = NO_LATE_BILLING,
): Billing {
  const startedUs = createdUs + Math.round(logBetween(seed, i, SALT.startDelay, 2, 300) * US_PER_MS);
  const runUs = Math.max(
    1,
    Math.round(logBetween(seed, i, SALT.runTime, kind.runMs[0], kind.runMs[1]) * US_PER_MS),
  );
  const completedUs = startedUs + runUs;
  const delayUs = US_PER_MINUTE + Math.floor(unit(seed, i, SALT.billingDelay) * 29 * US_PER_MINUTE);
  const billable = isBillable(kind);
  return {
    startedUs,
    completedUs,
    runUs,
    billedUs: settledAtUs(seed, i, Math.max(createdUs + delayUs, completedUs + 5 * US_PER_SECOND), late),
    pendingUpdateUs: createdUs + US_PER_MS + (hash32(seed, i, SALT.pendingUpdate) % (19 * US_PER_MS)),
    price: priceOf({
      seed,
      index: i,
      createdUs,
      runUs,
      billable,
      failed: callFailed(seed, i, kind),
      priceMissing: unit(seed, i, SALT.priceClass) < NULL_PRICE_SHARE,
      mode,
    }),
    durationMissing: unit(seed, i, SALT.durationMissing) < 0.02,
  };
}

/**
 * Odd money: ~15% exactly 0 (free tier), ~0.2% large (50 to 5000 USD, whole cents), the rest 0.0001
 * to 0.50 USD with up to 6 decimals, whether the call failed or not. Metadata calls are 0.
 */
function adversarialMicros(seed: number, i: number, billable: boolean): number {
  const u = unit(seed, i, SALT.priceClass);
  if (u < 0.18 || !billable) return 0;
  if (u < 0.182) return Math.round(logBetween(seed, i, SALT.priceAmount, 50, 5000) * 100) * 10_000;
  return Math.round(logBetween(seed, i, SALT.priceAmount, 100, 500_000));
}
