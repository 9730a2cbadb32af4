import { isDecimal, roundDecimal } from "../log/decimalFormat.js";
import { foreignText } from "../log/printable.js";

/**
 * The unit of an alert's value and threshold: days, hours or calls, or else money in the currency
 * of that ISO code, in lower case (usd, eur).
 */
export type AlertUnit = string;

const COUNT_UNITS: ReadonlySet<string> = new Set(["days", "hours", "calls"]);

/**
 * One alert: what fired (rule), about what (subject), its value against its threshold, and the
 * period it is about (a month YYYY-MM, a day YYYY-MM-DD, a snapshot or run, "-" for now). Values
 * are decimal text as the warehouse computed them (money exact to the micro unit); a threshold of
 * "" means the rule has none (it fires on what it finds).
 */
export interface Alert {
  rule: string;
  subject: string;
  value: string;
  threshold: string;
  period: string;
  unit: AlertUnit;
  /**
   * Context for people: the range of a forecast, the usual day of a spike, the oldest call. An
   * amount in it is written {name}, its exact value in `amounts` (decimal text, in the alert's unit
   * or followed by its own currency code, "12.500000 EUR"), so that the people line prints it as it
   * prints the value (to the cent, with the unit) and the JSON line exactly.
   */
  note: string;
  amounts?: Readonly<Record<string, string>> | undefined;
}

/** The alert as its JSON line (--json): rule, subject, value, threshold, period, unit, note. */
export function alertJson(alert: Alert): string {
  const { rule, subject, value, threshold, period, unit } = alert;
  const note = filled(alert, (exact) => exact);
  return JSON.stringify({ rule, subject, value, threshold, period, unit, note });
}

/** How a rule's value stands to its threshold, in the people line. */
const VERBS: Readonly<Record<string, string>> = {
  runway: "below",
  uncollectible: "of",
  refund: "of",
};

/**
 * The alert as one line for people, e.g. "budget-forecast: account, 2026-10: 612.40 USD reaches
 * 500.00 USD (...)" or "refund: invoice ABC-202609, 2026-09: 30.00 EUR of 120.00 EUR (refunded)".
 */
export function alertLine(alert: Alert): string {
  const value = amount(alert.value, alert.unit);
  const verb = VERBS[alert.rule] ?? "reaches";
  const compared = alert.threshold === "" ? "" : ` ${verb} ${amount(alert.threshold, alert.unit)}`;
  const text = filled(alert, (exact) => {
    const [decimal = exact, code] = exact.split(" ");
    return amount(decimal, code ?? alert.unit);
  });
  const note = text === "" ? "" : ` (${text})`;
  // The subject and unit can be text the API sent (an invoice number, a currency code) or a rules
  // file's label: control characters are shown as escapes, never sent to the terminal.
  return foreignText(`${alert.rule}: ${alert.subject}, ${alert.period}: ${value}${compared}${note}`);
}

/** The note with each {name} of `amounts` written by `write`. */
function filled(alert: Alert, write: (exact: string) => string): string {
  const amounts = alert.amounts ?? {};
  return alert.note.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const exact = amounts[name];
    return exact === undefined ? whole : write(exact);
  });
}

/** Money to the cent for reading ("1,234.57 USD"; the JSON line keeps every decimal). */
function amount(value: string, unit: AlertUnit): string {
  if (COUNT_UNITS.has(unit)) return `${value} ${unit}`;
  if (unit === "") return value;
  const code = unit.toUpperCase();
  const cents = roundedCents(value);
  return cents === null ? `${value} ${code}` : `${cents} ${code}`;
}

/**
 * Exact decimal text rounded half to even to the cent, digits grouped: "2055.476" -> "2,055.48",
 * "0.125" -> "0.12", "0.135" -> "0.14", as the report rounds. Null for text that is not a decimal.
 */
export function roundedCents(value: string): string | null {
  return isDecimal(value) ? roundDecimal(value, 2) : null;
}
