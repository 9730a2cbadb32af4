import { DEFAULT_DB } from "../config/exportConfig.js";
import { ZooUsageError } from "../errors.js";
import { isIsoDay } from "./calendar.js";

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
export function loadReportConfig(input: {
  flags: ReportFlags;
  env: Record<string, string | undefined>;
}): ReportConfig {
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
    // The same database as `export` by default.
    dbPath: flags.db ?? (env.ZOO_USAGE_DB || DEFAULT_DB),
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
