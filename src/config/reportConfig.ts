import { ZooUsageError } from "../errors.js";
import { databasePath } from "./databaseSetting.js";
import type { Env } from "./environment.js";

export const DEFAULT_TOP = 10;

/** The flags of `zoo-usage report`, as commander hands them over (all optional). */
export interface ReportFlags {
  db?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  json?: boolean | undefined;
  html?: string | undefined;
  top?: number | undefined;
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
}

/** Pure: flags > environment > defaults, validated, with errors naming the flag. */
export function loadReportConfig(input: { flags: ReportFlags; env: Env }): ReportConfig {
  const { flags, env } = input;
  const from = parseDay("--from", flags.from);
  const to = parseDay("--to", flags.to);
  if (from !== null && to !== null && from > to) {
    throw invalid(`--from ${from} is after --to ${to}`, "Give --from a day on or before --to.");
  }
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
  };
}

function parseDay(flag: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isIsoDay(value)) {
    throw invalid(
      `${flag} expects a UTC calendar day written YYYY-MM-DD, got ${JSON.stringify(value)}`,
      `For example ${flag} 2026-10-01 (days are UTC; both ends are included).`,
    );
  }
  return value;
}

function invalid(message: string, hint: string): ZooUsageError {
  return new ZooUsageError({ code: "config.invalid", message: `Invalid report options: ${message}`, hint });
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDay(text: string): boolean {
  const match = ISO_DAY.exec(text);
  if (match === null) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
