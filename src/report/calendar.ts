/**
 * UTC calendar days as `YYYY-MM-DD` strings. Every day in a report is a UTC day (the views cut
 * `timezone('UTC', created_at)` into dates), so the arithmetic here never touches a local zone.
 */
const DAY_MS = 86_400_000;

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `first` to `last`, both included (empty when last < first). */
export function dayRange(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Number of days from `first` to `last`, both included. */
export function daySpan(first: string, last: string): number {
  return Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The last `length` days ending at `last`, never starting before `notBefore`. */
export function trailingWindow(
  last: string,
  length: number,
  notBefore: string,
): { first: string; last: string } {
  const first = addDays(last, -(length - 1));
  return { first: first < notBefore ? notBefore : first, last };
}

/** True when the days `first`..`last` are one whole calendar month (1st to its last day). */
export function isWholeMonth(first: string, last: string): boolean {
  return first.endsWith("-01") && first.slice(0, 7) === last.slice(0, 7) && addDays(last, 1).endsWith("-01");
}
