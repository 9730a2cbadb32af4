import { expect } from "vitest";

export interface JsonLogEntry {
  time: string;
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

/**
 * Every line of a `--log-format json` stderr, parsed: fails unless there is at least one and each
 * is one JSON object with a UTC time, a known level and a message.
 */
export function expectJsonLogLines(stderr: string): JsonLogEntry[] {
  const lines = stderr.split("\n").filter((line) => line !== "");
  expect(lines.length).toBeGreaterThan(0);
  return lines.map((line) => {
    const entry = JSON.parse(line) as JsonLogEntry;
    expect(entry.time, line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(["debug", "info", "warn", "error"]).toContain(entry.level);
    expect(typeof entry.message).toBe("string");
    return entry;
  });
}
