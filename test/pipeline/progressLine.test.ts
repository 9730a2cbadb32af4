import { describe, expect, test } from "vitest";
import { duration, formatProgressLine, type ProgressView } from "../../src/log/progressLine.js";

const counters = {
  phase: "fetching operations",
  pages: 12_345,
  records: 12_345_678,
  operations: 45_678,
  rejected: 12,
  retries: 1728,
  partitions: 31,
  rereads: 0,
};

const known: ProgressView = {
  counters,
  elapsedSeconds: 754,
  done: 45_678,
  total: 120_000,
  rate: { perSecond: 812.4, unit: "operations" },
};

const unknown: ProgressView = {
  counters: { ...counters, phase: "fetching" },
  elapsedSeconds: 42,
  done: 12_345_678,
  rate: { perSecond: 24_012, unit: "records" },
};

describe("formatProgressLine", () => {
  test.each([40, 80, 120, 200])("at %i columns the line never reaches the last column", (columns) => {
    for (const view of [known, unknown]) {
      const line = formatProgressLine(view, columns);
      expect(line.length).toBeLessThanOrEqual(columns - 1);
      expect(line).not.toContain("\n");
    }
  });

  test("at 200 columns: everything, x / N with a percentage and an ETA", () => {
    expect(formatProgressLine(known, 200)).toBe(
      "fetching operations: 45,678 / 120,000 38%, ETA 1m31s, 812 operations/s, 12,345,678 records, 45,678 operations, 12 rejected, 1,728 retries, 12m34s, 12,345 pages, 31 partitions",
    );
  });

  test("at 80 columns: progress, ETA and rate stay; the least important counters go", () => {
    const line = formatProgressLine(known, 80);
    expect(line).toBe("fetching operations: 45,678 / 120,000 38%, ETA 1m31s, 812 operations/s");
  });

  test("at 120 columns: counters follow as they fit, in order of importance", () => {
    const line = formatProgressLine(known, 120);
    expect(line).toBe(
      "fetching operations: 45,678 / 120,000 38%, ETA 1m31s, 812 operations/s, 12,345,678 records, 45,678 operations",
    );
  });

  test("at 40 columns: the phase, the percentage and the ETA", () => {
    expect(formatProgressLine(known, 40)).toBe("fetching operations: 38%, ETA 1m31s");
  });

  test("a total unknown: no x / N, no percentage, no ETA; the rate still", () => {
    const line = formatProgressLine(unknown, 200);
    expect(line).toMatch(/^fetching: 24,012 records\/s, 12,345,678 records, /);
    expect(line).not.toMatch(/ \/ |%|ETA/);
  });

  test("no rate yet: no ETA, x / N still", () => {
    const { rate: _, ...noRate } = known;
    const line = formatProgressLine(noRate, 200);
    expect(line).toMatch(/45,678 \/ 120,000 38%, 12,345,678 records/);
    expect(line).not.toMatch(/ETA|\/s/);
  });

  test("counters at zero go first", () => {
    const view: ProgressView = {
      counters: { ...counters, phase: "fetching", operations: 0, rejected: 0, retries: 0, partitions: 0 },
      elapsedSeconds: 5,
    };
    expect(formatProgressLine(view, 200)).toBe(
      "fetching: 12,345,678 records, 0 operations, 0 rejected, 0 retries, 5s, 12,345 pages, 0 partitions",
    );
    expect(formatProgressLine(view, 50)).toBe("fetching: 12,345,678 records, 5s, 12,345 pages");
  });

  test("a total reached or passed reads 100%, never more", () => {
    expect(formatProgressLine({ ...known, done: 130_000 }, 200)).toMatch(/130,000 \/ 120,000 100%, ETA 0s/);
    expect(formatProgressLine({ ...known, done: 0, total: 0 }, 200)).toMatch(/0 \/ 0 100%/);
  });

  test("re-reads show once there are some, with x / N", () => {
    const view: ProgressView = {
      counters: { ...counters, phase: "re-reading calls pending billing", rereads: 150 },
      elapsedSeconds: 30,
      done: 150,
      total: 600,
      rate: { perSecond: 50, unit: "re-reads" },
    };
    const line = formatProgressLine(view, 200);
    expect(line).toMatch(/^re-reading calls pending billing: 150 \/ 600 25%, ETA 9s, 50 re-reads\/s, /);
    expect(line).toMatch(/, 150 re-reads$/);
    expect(formatProgressLine(known, 200)).not.toMatch(/re-reads/);
  });

  test("a phase longer than the terminal is cut short, marked", () => {
    const line = formatProgressLine({ ...known, counters: { ...counters, phase: "x".repeat(100) } }, 40);
    expect(line).toHaveLength(39);
    expect(line.endsWith("…")).toBe(true);
  });
});

test("duration", () => {
  expect([0, 42.4, 60, 185, 3600, 7620].map(duration)).toEqual([
    "0s",
    "42s",
    "1m00s",
    "3m05s",
    "1h00m",
    "2h07m",
  ]);
});
