/**
 * Checks on a price already normalised to a canonical decimal string (no exponent, no float
 * arithmetic): it must fit DECIMAL(18,6) exactly and stay under a per-call sanity limit.
 * Returns the reason it cannot be loaded, or undefined when it can.
 */
export const PRICE_SCALE = 6;
const MAX_INTEGER_DIGITS = 18 - PRICE_SCALE;

/** A JSON number keeps at most 15 significant decimal digits exactly through an IEEE double. */
const MAX_EXACT_NUMBER_DIGITS = 15;

/**
 * A plain decimal of at most 15 characters, 12 integer and 6 fraction digits passes every digit check
 * below (at most 14 significant digits, 6 decimal places, 12 integer digits): only the sanity limit is
 * left. Nearly every price takes this path (~1M per full scan; the general path costs ~3 us each).
 */
const SHORT_PLAIN_PRICE = /^\d{1,12}(?:\.\d{1,6})?$/;

export function priceProblem(
  decimal: string,
  maxPriceUsd: number,
  rawWasNumber: boolean,
): string | undefined {
  if (decimal.length <= MAX_EXACT_NUMBER_DIGITS && SHORT_PLAIN_PRICE.test(decimal)) {
    return Number(decimal) > maxPriceUsd ? sanityLimitProblem(decimal, maxPriceUsd) : undefined;
  }
  const [integerPart = "", fraction = ""] = decimal.split(".");
  const significant = `${integerPart}${fraction}`.replace(/^0+/, "").replace(/0+$/, "");
  if (rawWasNumber && significant.length > MAX_EXACT_NUMBER_DIGITS) {
    return `price ${decimal} has ${significant.length} significant digits, more than a JSON number carries exactly (${MAX_EXACT_NUMBER_DIGITS})`;
  }
  if (fraction.replace(/0+$/, "").length > PRICE_SCALE) {
    return `price ${decimal} has more than ${PRICE_SCALE} decimal places (finer than a micro-dollar); it would be rounded`;
  }
  if (integerPart.replace(/^0+/, "").length > MAX_INTEGER_DIGITS || Number(decimal) > maxPriceUsd) {
    return sanityLimitProblem(decimal, maxPriceUsd);
  }
  return undefined;
}

function sanityLimitProblem(decimal: string, maxPriceUsd: number): string {
  return `price ${decimal} USD is above the per-call sanity limit of ${maxPriceUsd} USD (--max-price)`;
}
