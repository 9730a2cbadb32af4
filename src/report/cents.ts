/**
 * Money to the cent for the report's tables, where a finance reader compares columns: the exact
 * value stays in --json and in the HTML tooltip. Rounds half away from zero on the decimal digits
 * (BigInt, no float). An amount that is not zero never reads as zero: under half a cent it shows
 * as "<0.01" (or "-<0.01"), so an unexplained micro-dollar is not hidden by the rounding.
 */
import { groupDigits } from "./usd.js";

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/** "1234567.125" -> "1,234,567.13"; "0.000001" -> "<0.01"; "-2" -> "-2.00". */
export function cents(decimal: string): string {
  const match = DECIMAL.exec(decimal);
  if (match === null) return decimal;
  const [, sign = "", integer = "", fraction = ""] = match;
  const thousandths = BigInt(`${integer}${fraction.padEnd(3, "0").slice(0, 3)}`);
  const rounded = (thousandths + 5n) / 10n;
  if (rounded === 0n) return /[1-9]/.test(`${integer}${fraction}`) ? `${sign}<0.01` : "0.00";
  const text = rounded.toString().padStart(3, "0");
  return `${sign}${groupDigits(`${text.slice(0, -2)}.${text.slice(-2)}`)}`;
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
