import { printableLines } from "./printable.js";

/**
 * Plain line logger to stderr (stdout is reserved for results and `--json` output). Injected
 * everywhere so that tests can capture lines and the CLI decides the level.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createLogger(options: {
  level: LogLevel;
  write?: (line: string) => void;
  now?: () => Date;
}): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const threshold = LEVEL_ORDER[options.level];
  const emit = (level: LogLevel, message: string) => {
    if (LEVEL_ORDER[level] < threshold) return;
    // Messages quote API data and DuckDB errors: escape sequences in them never reach the terminal.
    write(`${now().toISOString()} ${level.padEnd(5)} ${printableLines(message)}`);
  };
  return {
    debug: (m) => emit("debug", m),
    info: (m) => emit("info", m),
    warn: (m) => emit("warn", m),
    error: (m) => emit("error", m),
  };
}

/** A logger that drops everything: the default for library use and quiet tests. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
