import { expect, test } from "vitest";
import { shouldCommit } from "../../src/sources/runSource.js";

/**
 * When the scan commits its batch after a page. A full batch always commits (a crash loses at most
 * --batch-records); a stopping run commits what it has; otherwise a batch commits early only while
 * no commit is in flight (idle) and it holds at least min(10,000, --batch-records) records.
 */
const CASES: [what: string, size: number, batchRecords: number, idle: boolean, aborted: boolean, boolean][] =
  [
    ["empty, idle", 0, 50_000, true, false, false],
    ["full", 50_000, 50_000, false, false, true],
    ["past full (a big page)", 50_999, 50_000, false, false, true],
    ["full while idle", 50_000, 50_000, true, false, true],
    ["one short of full, a commit in flight", 49_999, 50_000, false, false, false],
    ["eager threshold reached while idle", 10_000, 50_000, true, false, true],
    ["one short of the eager threshold, idle", 9_999, 50_000, true, false, false],
    ["eager threshold reached, a commit in flight", 10_000, 50_000, false, false, false],
    ["small batches: the threshold is the batch size", 500, 500, true, false, true],
    ["small batches: one short, idle", 499, 500, true, false, false],
    ["batch size below 10k: full commits even when busy", 2_000, 2_000, false, false, true],
    ["stopping with a commit in flight", 1, 50_000, false, true, true],
    ["stopping with nothing in the batch", 0, 50_000, true, true, true],
  ];

test.each(
  CASES.map(([what, size, batchRecords, idle, aborted, commits]) => ({
    what,
    size,
    batchRecords,
    idle,
    aborted,
    commits,
  })),
)("$what: commits $commits", ({ size, batchRecords, idle, aborted, commits }) => {
  expect(shouldCommit({ size, batchRecords, idle, aborted })).toBe(commits);
});

test("a batch full by its bytes commits whatever its records, even with a commit in flight", () => {
  expect(shouldCommit({ size: 1_200, batchRecords: 25_000, idle: false, aborted: false, full: true })).toBe(
    true,
  );
  expect(shouldCommit({ size: 1_200, batchRecords: 25_000, idle: false, aborted: false, full: false })).toBe(
    false,
  );
});
