import type { Logger } from "../../src/log/logger.js";

/** A logger that keeps the warnings and errors it is told, in order, in `lines`. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug() {},
    info() {},
    warn: (line: string) => lines.push(line),
    error: (line: string) => lines.push(line),
  };
}
