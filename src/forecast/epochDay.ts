/** The forecast counts UTC days since 1970-01-01: whole numbers that step by one across any DST. */
const DAY_MS = 86_400_000;

/** A UTC day's number from YYYY-MM-DD. */
export function epochDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/** A UTC day's number as YYYY-MM-DD. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the UTC month holding `day`. */
export function firstOfMonth(day: number): number {
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}
