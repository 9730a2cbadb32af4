/**
 * Display of exact decimal strings (as DuckDB prints DECIMAL sums). Nothing here adds money: the
 * figures are summed in SQL. `chartValue` turns a figure into a float only to size a bar or a
 * sparkline block, never to print it. Amounts are grouped as every command prints them
 * (src/log/usdText.ts).
 */
import { isDecimal } from "../log/decimalFormat.js";
import { groupDigits } from "../log/usdText.js";
import { roundCents } from "./cents.js";

export { groupDigits };

/** A count with thousands grouped, as amounts are: 49998 -> "49,998". */
export function groupCount(value: number): string {
  return groupDigits(String(value));
}

/** The magnitude of a decimal string, for chart geometry only. */
export function chartValue(decimal: string): number {
  const value = Number(decimal);
  return Number.isFinite(value) ? value : 0;
}

/** A share as a percentage with one decimal ("5.0%"), or "-" without a whole. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

/**
 * An amount rounded to the cent for a headline: "116634.921986" -> "$116,634.92". Rounds as the
 * tables do (half to even, cents.ts), so a headline and its table row read alike; the exact value
 * stays in the tooltips and --json.
 */
export function centsHeadline(decimal: string): string {
  if (!isDecimal(decimal)) return decimal;
  const rounded = roundCents(decimal);
  return rounded.startsWith("-") ? `-$${rounded.slice(1)}` : `$${rounded}`;
}
