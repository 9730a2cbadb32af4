/**
 * Checks on a price already normalised to a canonical decimal string (no exponent, no float
 * arithmetic): it must fit DECIMAL(18,6) exactly and stay under a per-call sanity limit.
 * Returns the reason it cannot be loaded, or undefined when it can.
 */
export const PRICE_SCALE = 6;
const MAX_INTEGER_DIGITS = 18 - PRICE_SCALE;

/** A JSON number keeps at most 15 significant decimal digits exactly through an IEEE double. */
const MAX_EXACT_NUMBER_DIGITS = 15;

export function priceProblem(
  decimal: string,
  maxPriceUsd: number,
  rawWasNumber: boolean,
): string | undefined {
  const [integerPart = "", fraction = ""] = decimal.split(".");
  const significant = `${integerPart}${fraction}`.replace(/^0+/, "").replace(/0+$/, "");
  if (rawWasNumber && significant.length > MAX_EXACT_NUMBER_DIGITS) {
    return `price ${decimal} has ${significant.length} significant digits, more than a JSON number carries exactly (${MAX_EXACT_NUMBER_DIGITS})`;
  }
  if (fraction.replace(/0+$/, "").length > PRICE_SCALE) {
    return `price ${decimal} has more than ${PRICE_SCALE} decimal places (finer than a micro-dollar); it would be rounded`;
  }
  if (integerPart.replace(/^0+/, "").length > MAX_INTEGER_DIGITS || Number(decimal) > maxPriceUsd) {
    return `price ${decimal} USD is above the per-call sanity limit of ${maxPriceUsd} USD (--max-price)`;
  }
  return undefined;
}
