/**
 * Money to the cent for the report's human output (terminal and HTML), where a finance reader
 * compares columns: the exact value stays in --json and in the HTML tooltip. Rounds half to even on
 * the decimal digits (log/decimalFormat.ts, as check's text does). An amount that is not zero never reads as
 * zero: one that rounds to 0.00 shows as "<0.01" (or "-<0.01"), so an unexplained micro-dollar is
 * not hidden by the rounding.
 */
import { roundDecimal } from "../log/decimalFormat.js";

/** "1234.125" -> "1,234.12", "0.135" -> "0.14": rounded half to even, thousands grouped. */
export function roundCents(decimal: string): string {
  return roundDecimal(decimal, 2);
}

/** "1234567.125" -> "1,234,567.12"; "0.000001" -> "<0.01"; "-2" -> "-2.00". */
export function cents(decimal: string): string {
  const rounded = roundCents(decimal);
  if (rounded !== "0.00" || isZero(decimal)) return rounded;
  return decimal.startsWith("-") ? "-<0.01" : "<0.01";
}

/** The same with its sign always shown ("+1.23", "-0.50"), zero unsigned: for differences. */
export function signedCents(decimal: string): string {
  const value = cents(decimal);
  return value.startsWith("-") || value === "0.00" ? value : `+${value}`;
}

/** Whether an exact decimal string is zero. */
export function isZero(decimal: string): boolean {
  return /^-?0*(?:\.0*)?$/.test(decimal);
}
