import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { formatLogLine, type LogFormat } from "../log/logger.js";
import { printableLines } from "../log/printable.js";

/**
 * The one place that prints errors: message, hint, code; the stack only with --debug.
 * Returns the exit code the process should end with. Messages quote what they failed on (an API
 * message, a path, a bad flag value): escape sequences in them are neutralised, line breaks kept.
 */
export function reportError(
  error: unknown,
  debug: boolean,
  rawWrite: (text: string) => void,
  format: LogFormat,
  now: () => Date,
): ExitCodeValue {
  if (format === "json") return reportErrorAsJson(error, debug, rawWrite, now);
  const write = (text: string) => rawWrite(`${printableLines(text.replace(/\n$/, ""))}\n`);
  if (error instanceof ZooUsageError) {
    write(`error: ${error.message}\n`);
    if (error.hint) write(`  hint: ${error.hint}\n`);
    write(`  code: ${error.code}\n`);
    if (debug) write(`${stackOf(error)}\n`);
    return error.exitCode;
  }
  write(`error: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
  write(
    debug ? `${stackOf(error)}\n` : "  hint: re-run with --debug for details, and report it if it persists\n",
  );
  return ExitCode.internal;
}

/** `--log-format json`: the error as one log object, so that stderr stays one object a line. */
function reportErrorAsJson(
  error: unknown,
  debug: boolean,
  write: (text: string) => void,
  now: () => Date,
): ExitCodeValue {
  const known = error instanceof ZooUsageError;
  const exitCode = known ? error.exitCode : ExitCode.internal;
  const message = error instanceof Error ? error.message : String(error);
  const fields = {
    code: known ? error.code : "internal",
    exit_code: exitCode,
    ...(known && error.hint ? { hint: error.hint } : {}),
    ...(debug ? { stack: stackOf(error) } : {}),
  };
  const line = formatLogLine(
    { time: now(), level: "error", message: known ? message : `unexpected failure: ${message}`, fields },
    "json",
  );
  write(`${line}\n`);
  return exitCode;
}

function stackOf(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    lines.push(
      depth === 0 ? (current.stack ?? current.message) : `caused by: ${current.stack ?? current.message}`,
    );
    current = current.cause;
  }
  return lines.join("\n");
}
