import { foreignText } from "../log/printable.js";
import { groupDigits } from "../log/usdText.js";

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
  /** Context for people: the range of a forecast, the usual day of a spike, the oldest call. */
  note: string;
}

/** The alert as its JSON line (--json): rule, subject, value, threshold, period, unit, note. */
export function alertJson(alert: Alert): string {
  const { rule, subject, value, threshold, period, unit, note } = alert;
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
  const note = alert.note === "" ? "" : ` (${alert.note})`;
  // The subject and unit can be text the API sent (an invoice number, a currency code) or a rules
  // file's label: control characters are shown as escapes, never sent to the terminal.
  return foreignText(`${alert.rule}: ${alert.subject}, ${alert.period}: ${value}${compared}${note}`);
}

/** Money to the cent for reading ("1,234.57 USD"; the JSON line keeps every decimal). */
function amount(value: string, unit: AlertUnit): string {
  if (COUNT_UNITS.has(unit)) return `${value} ${unit}`;
  const code = unit.toUpperCase();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (match === null) return `${value} ${code}`;
  const [, sign = "", integer = "", fraction = ""] = match;
  // Cents by truncation of the text: no float touches the amount.
  return `${sign}${groupDigits(integer)}.${fraction.padEnd(2, "0").slice(0, 2)} ${code}`;
}
