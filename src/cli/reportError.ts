import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { printableLines } from "../log/printable.js";

/**
 * The one place that prints errors: message, hint, code; the stack only with --debug.
 * Returns the exit code the process should end with. Messages quote what they failed on (an API
 * message, a path, a bad flag value): escape sequences in them are neutralised, line breaks kept.
 */
export function reportError(error: unknown, debug: boolean, rawWrite: (text: string) => void): ExitCodeValue {
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
