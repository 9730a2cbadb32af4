/**
 * How a price (already canonical decimal text from the schema: no exponent, no float arithmetic) is
 * stored in `price_usd DECIMAL(18,6)`: exactly when it has at most 6 decimal places, otherwise
 * rounded half-even to the micro-dollar with the printed text kept in `price_raw`. `price_flags`
 * says what is unusual about it. Only what cannot be stored at all is a problem: more than 12
 * integer digits, or above the per-call sanity limit (--max-price) in either direction.
 */
export const PRICE_SCALE = 6;
const MAX_INTEGER_DIGITS = 18 - PRICE_SCALE;

/** A price as the row stores it. */
export interface StoredPrice {
  /** The DECIMAL(18,6) value as text, at most 6 decimal places. */
  usd: string;
  /** The printed decimal when `usd` is not exactly it (rounded), else null. */
  raw: string | null;
  /** "rounded", "negative" or "negative,rounded"; null for an ordinary price. */
  flags: string | null;
}

export type PriceResult = { ok: true; price: StoredPrice } | { ok: false; problem: string };

/**
 * A non-negative plain decimal of at most 12 integer and 6 fraction digits is stored as it is: only
 * the sanity limit is left to check. Nearly every price takes this path (~1M per full scan).
 */
const SHORT_PLAIN_PRICE = /^\d{1,12}(?:\.\d{1,6})?$/;

/**
 * True when DuckDB, reading the JSON number itself into DECIMAL(18,6), stores exactly this price:
 * stored unchanged (non-negative, at most 6 decimal places) and at most 15 characters, so at most
 * 14 significant digits, which a double carries exactly (test/load/bulkLoad.test.ts).
 */
export function isPlainPrice(decimal: string): boolean {
  return decimal.length <= 15 && SHORT_PLAIN_PRICE.test(decimal);
}

/**
 * `decimal` as stored, or why it cannot be. `noun` names the value in a problem: a call's "price",
 * an invoice's or a balance's "amount".
 */
export function storedPrice(decimal: string, maxPriceUsd: number, noun = "price"): PriceResult {
  if (SHORT_PLAIN_PRICE.test(decimal)) {
    // At most 18 digits: Number() may round the last one, which only matters exactly at the limit,
    // and the limit is a sanity check, not money arithmetic.
    if (Number(decimal) > maxPriceUsd)
      return { ok: false, problem: sanityLimitProblem(decimal, maxPriceUsd) };
    return { ok: true, price: { usd: decimal, raw: null, flags: null } };
  }
  const negative = decimal.startsWith("-");
  const magnitude = negative ? decimal.slice(1) : decimal;
  const [integerPart = "0", fraction = ""] = magnitude.split(".");
  const rounded = roundHalfEven(integerPart, fraction);
  if (rounded.integer.length > MAX_INTEGER_DIGITS) {
    return {
      ok: false,
      problem: `${noun} ${decimal} has more than ${MAX_INTEGER_DIGITS} integer digits: it does not fit DECIMAL(18,6)`,
    };
  }
  if (Number(magnitude) > maxPriceUsd)
    return { ok: false, problem: sanityLimitProblem(decimal, maxPriceUsd) };
  const usdMagnitude = rounded.fraction === "" ? rounded.integer : `${rounded.integer}.${rounded.fraction}`;
  const isZero = /^0(?:\.0*)?$/.test(usdMagnitude);
  const usd = negative && !isZero ? `-${usdMagnitude}` : usdMagnitude;
  const flags = [negative ? "negative" : "", rounded.changed ? "rounded" : ""].filter((flag) => flag !== "");
  return {
    ok: true,
    price: { usd, raw: rounded.changed ? decimal : null, flags: flags.length > 0 ? flags.join(",") : null },
  };
}

/**
 * Rounds a non-negative decimal (digit strings, canonical) to PRICE_SCALE places, half to even: the
 * rounding of IEEE 754 and of banking, which does not drift upwards over many calls.
 */
export function roundHalfEven(
  integerPart: string,
  fraction: string,
): { integer: string; fraction: string; changed: boolean } {
  if (fraction.length <= PRICE_SCALE) return { integer: integerPart, fraction, changed: false };
  const kept = BigInt(`${integerPart}${fraction.slice(0, PRICE_SCALE)}`);
  const rest = fraction.slice(PRICE_SCALE);
  const first = rest.charCodeAt(0) - 48;
  const beyondHalf = /[1-9]/.test(rest.slice(1));
  const up = first > 5 || (first === 5 && (beyondHalf || kept % 2n === 1n));
  const value = (up ? kept + 1n : kept).toString().padStart(PRICE_SCALE + 1, "0");
  return {
    integer: value.slice(0, -PRICE_SCALE),
    fraction: value.slice(-PRICE_SCALE).replace(/0+$/, ""),
    changed: true,
  };
}

function sanityLimitProblem(decimal: string, maxPriceUsd: number): string {
  const side = decimal.startsWith("-")
    ? `below the per-call sanity limit of -${maxPriceUsd}`
    : `above the per-call sanity limit of ${maxPriceUsd}`;
  return `price ${decimal} USD is ${side} USD (--max-price)`;
}
