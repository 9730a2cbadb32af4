import { expect, test } from "vitest";
import { createProgress } from "../../src/pipeline/progress.js";

function harness(isTty: boolean) {
  let now = 0;
  const written: string[] = [];
  const logged: string[] = [];
  const progress = createProgress({
    isTty,
    write: (text) => written.push(text),
    log: (line) => logged.push(line),
    now: () => now,
    intervalMs: 1000,
  });
  return { progress, written, logged, tick: (ms: number) => (now += ms) };
}

test("in a pipe: a log line per phase change and per interval, never a repeated one", () => {
  const { progress, logged, tick } = harness(false);
  progress.update({ phase: "fetching" });
  progress.add({ pages: 1, records: 100 });
  tick(1500);
  progress.add({ pages: 1, records: 100 });
  progress.update({ phase: "writing parquet" });
  progress.update({ phase: "completed" });
  progress.done();
  expect(logged).toHaveLength(4);
  expect(logged[0]).toMatch(/^fetching: 0 pages/);
  expect(logged[1]).toMatch(
    /^fetching: 2 pages, 200 records, 0 operations, 0 rejected, 0 retries, 0 partitions written, 133 items\/s, 1\.5 s$/,
  );
  expect(logged[3]).toMatch(/^completed: 2 pages/);
});

test("on a terminal: one line redrawn in place, ended with a newline", () => {
  const { progress, written, tick } = harness(true);
  progress.update({ phase: "fetching" });
  tick(2000);
  progress.add({ pages: 3, records: 300, rejected: 1 });
  progress.update({ retries: 2 });
  progress.done();
  expect(written.every((text) => text === "\n" || text.startsWith("\r\x1b[2K"))).toBe(true);
  expect(written.at(-2)).toMatch(/3 pages, 300 records, 0 operations, 1 rejected, 2 retries/);
  expect(written.at(-1)).toBe("\n");
});
