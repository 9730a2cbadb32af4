/**
 * The one way the CLI prints an amount of USD (export summary, report): exact decimal text as
 * DuckDB prints a DECIMAL(x, 6), never a binary float. In JSON it is the string itself, with its 6
 * decimal places; in terminal text the integer digits are grouped by thousands and " USD" follows,
 * as in "54,207.687837 USD". Nothing is rounded: the micro-dollars stay.
 */
import { groupDecimal } from "./decimalFormat.js";

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Decimal places of every USD amount printed: the micro-dollar of DECIMAL(18, 6). */
export const USD_PLACES = 6;

/** "54207.687837" -> "54,207.687837": digits unchanged, thousands grouped (Intl, on the exact text). */
export function groupDigits(decimal: string): string {
  return groupDecimal(decimal);
}

/**
 * An amount for terminal text: "54207.6878" -> "54,207.687800 USD". Fewer than USD_PLACES decimal
 * places are padded with zeros (the same value); more are kept (an exact value is never cut).
 */
export function usdText(decimal: string): string {
  const match = DECIMAL.exec(decimal);
  if (match === null) return `${decimal} USD`;
  const [, sign = "", integer = "", fraction = ""] = match;
  return `${groupDigits(`${sign}${integer}.${fraction.padEnd(USD_PLACES, "0")}`)} USD`;
}
