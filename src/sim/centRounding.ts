/**
 * Stripe amounts are whole cents, so every amount the simulator derives (tax, discounts, refunds,
 * payments, conversions) is rounded to the cent; the usage lines themselves stay the exact sum of
 * their calls' prices. Amounts are integer micro-dollars (a cent is 10,000 of them); the products
 * are taken in bigint so that no binary float ever rounds money.
 */

export const MICROS_PER_CENT = 10_000;
const CENT = BigInt(MICROS_PER_CENT);

/**
 * `micros` x numerator / denominator, rounded to the cent, half up (.5 cent goes up); a negative
 * amount is rounded by its magnitude and keeps its sign.
 */
export function centsHalfUp(micros: number, numerator = 1, denominator = 1): number {
  const scaled = BigInt(Math.abs(micros)) * BigInt(numerator);
  const unit = BigInt(denominator) * CENT;
  const cents = Number((scaled + unit / 2n) / unit);
  return cents === 0 ? 0 : Math.sign(micros) * cents * MICROS_PER_CENT;
}

/** A non-negative `micros` x numerator / denominator, rounded down to the cent. */
export function centsDown(micros: number, numerator = 1, denominator = 1): number {
  const cents = (BigInt(micros) * BigInt(numerator)) / (BigInt(denominator) * CENT);
  return Number(cents) * MICROS_PER_CENT;
}
