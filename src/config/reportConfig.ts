import { ZooUsageError } from "../errors.js";
import { databasePath } from "./databaseSetting.js";
import type { Env } from "./environment.js";

export const DEFAULT_TOP = 10;

/** The flags of `zoo-usage report`, as commander hands them over (all optional). */
export interface ReportFlags {
  db?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  month?: string | undefined;
  json?: boolean | undefined;
  html?: string | undefined;
  top?: number | undefined;
  showEmail?: boolean | undefined;
}

export interface ReportConfig {
  dbPath: string;
  /** First UTC day of the period (included), or null for the start of the data. */
  from: string | null;
  /** Last UTC day of the period (included), or null for the end of the data. */
  to: string | null;
  json: boolean;
  htmlPath: string | null;
  /** Rows in the "top" lists (endpoints, most expensive calls). */
  top: number;
  /** Email addresses are personal data: shown only when asked for. */
  showEmail: boolean;
}

/** Pure: flags > environment > defaults, validated, with errors naming the flag. */
export function loadReportConfig(input: { flags: ReportFlags; env: Env }): ReportConfig {
  const { flags, env } = input;
  const { from, to } = period(flags);
  const top = flags.top ?? DEFAULT_TOP;
  if (!Number.isSafeInteger(top) || top < 1 || top > 1000) {
    throw invalid(`--top must be an integer from 1 to 1000, got ${top}`, "For example --top 20.");
  }
  if (flags.html !== undefined && flags.html.trim() === "") {
    throw invalid("--html needs a file name", "For example --html report.html.");
  }
  return {
    // The same database as `export`, by the same rule.
    dbPath: databasePath(flags.db, env),
    from,
    to,
    json: flags.json ?? false,
    htmlPath: flags.html ?? null,
    top,
    showEmail: flags.showEmail ?? false,
  };
}

/** The period's UTC days: --month alone, or --from / --to (a day, or a month meaning its first / last day). */
function period(flags: ReportFlags): { from: string | null; to: string | null } {
  if (flags.month !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined) {
      throw invalid(
        "--month cannot be combined with --from or --to",
        "Give either --month 2026-10, or --from 2026-10-01 --to 2026-10-31 (--from 2026-10 --to 2026-12 for months).",
      );
    }
    const month = parseMonth("--month", flags.month);
    return { from: firstDayOf(month), to: lastDayOf(month) };
  }
  const from = parseBound("--from", flags.from, firstDayOf, "2026-10-01");
  const to = parseBound("--to", flags.to, lastDayOf, "2026-10-31");
  if (from !== null && to !== null && from > to) {
    throw invalid(`--from ${from} is after --to ${to}`, "Give --from a day on or before --to.");
  }
  return { from, to };
}

/** A day as given, or a month turned into its first or last day (`dayOf`). */
function parseBound(
  flag: string,
  value: string | undefined,
  dayOf: (month: string) => string,
  exampleDay: string,
): string | null {
  if (value === undefined) return null;
  if (isIsoDay(value)) return value;
  if (isIsoMonth(value)) return dayOf(value);
  throw invalid(
    `${flag} expects a UTC calendar day written YYYY-MM-DD, got ${JSON.stringify(value)} (a month written YYYY-MM works too)`,
    `For example ${flag} ${exampleDay} or ${flag} 2026-10 (days are UTC; both ends are included).`,
  );
}

function parseMonth(flag: string, value: string): string {
  if (!isIsoMonth(value)) {
    throw invalid(
      `${flag} expects a UTC calendar month written YYYY-MM, got ${JSON.stringify(value)}`,
      `For example ${flag} 2026-10 (the whole UTC month, from its first day to its last).`,
    );
  }
  return value;
}

function invalid(message: string, hint: string): ZooUsageError {
  return new ZooUsageError({ code: "config.invalid", message: `Invalid report options: ${message}`, hint });
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDay(text: string): boolean {
  const match = ISO_DAY.exec(text);
  if (match === null) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True for a calendar month written YYYY-MM (2026-13 is not one). */
export function isIsoMonth(text: string): boolean {
  return ISO_MONTH.test(text);
}

/** "2026-10" -> "2026-10-01". */
export function firstDayOf(month: string): string {
  return `${month}-01`;
}

/** "2024-02" -> "2024-02-29": day 0 of the next month is the last day of this one, in UTC. */
export function lastDayOf(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
}
