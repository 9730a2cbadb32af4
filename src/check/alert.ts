import { groupDigits } from "../log/usdText.js";

/** The unit of an alert's value and threshold. */
export type AlertUnit = "usd" | "days" | "hours" | "calls";

/**
 * One alert: what fired (rule), about what (subject), its value against its threshold, and the
 * period it is about (a month YYYY-MM, a day YYYY-MM-DD, a snapshot or run, "-" for now). Values
 * are decimal text as the warehouse computed them (USD exact to the micro-dollar).
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

/** The alert as one line for people, e.g. "budget-forecast account 2026-10: 612.40 USD, over 500.00 USD (...)". */
export function alertLine(alert: Alert): string {
  const value = amount(alert.value, alert.unit);
  const threshold = amount(alert.threshold, alert.unit);
  const verb = alert.rule === "runway" ? "below" : "reaches";
  const note = alert.note === "" ? "" : ` (${alert.note})`;
  return `${alert.rule}: ${alert.subject}, ${alert.period}: ${value} ${verb} ${threshold}${note}`;
}

/** Money to the cent for reading ("1,234.57 USD"; the JSON line keeps the micro-dollars). */
function amount(value: string, unit: AlertUnit): string {
  if (unit !== "usd") return `${value} ${unit}`;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (match === null) return `${value} USD`;
  const [, sign = "", integer = "", fraction = ""] = match;
  // Cents by truncation of the text: no float touches the amount.
  return `${sign}${groupDigits(integer)}.${fraction.padEnd(2, "0").slice(0, 2)} USD`;
}
