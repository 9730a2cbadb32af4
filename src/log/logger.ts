import { jsonLine } from "./jsonLine.js";
import { printableLines } from "./printable.js";

/**
 * Line logger, to stderr in the CLI (stdout is reserved for results and `--json` output). Injected everywhere
 * so that tests can capture lines and the CLI decides the level and the format: `text` for people,
 * `json` (one object a line) for log collectors.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

/** Structured context of a log line: `fields` in JSON, `key=value` after the message in text. */
export type LogFields = Record<string, string | number | boolean | null>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createLogger(options: {
  level: LogLevel;
  format?: LogFormat | undefined;
  /** Where a line goes (without its line break): the CLI's stderr, a test's list. */
  write: (line: string) => void;
  now?: () => Date;
}): Logger {
  const { write } = options;
  const now = options.now ?? (() => new Date());
  const threshold = LEVEL_ORDER[options.level];
  const format = options.format ?? "text";
  const emit = (level: LogLevel, message: string, fields?: LogFields) => {
    if (LEVEL_ORDER[level] < threshold) return;
    write(formatLogLine({ time: now(), level, message, fields }, format));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

/** One log line, without its line break (also what the CLI prints an error as). */
export function formatLogLine(
  entry: { time: Date; level: LogLevel; message: string; fields?: LogFields | undefined },
  format: LogFormat,
): string {
  const { time, level, message, fields } = entry;
  const hasFields = fields !== undefined && Object.keys(fields).length > 0;
  if (format === "json") {
    return jsonLine({ time: time.toISOString(), level, message, ...(hasFields ? { fields } : {}) });
  }
  const suffix = hasFields
    ? ` ${Object.entries(fields)
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(" ")}`
    : "";
  // Messages quote API data and DuckDB errors: escape sequences in them never reach the terminal.
  return `${time.toISOString()} ${level.padEnd(5)} ${printableLines(`${message}${suffix}`)}`;
}

/** A logger that drops everything: the default for library use and quiet tests. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
