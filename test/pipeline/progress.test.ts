import { expect, test } from "vitest";
import { createProgress } from "../../src/log/progress.js";

const CLEAR_TO_END = "\x1b[K";

function harness(isTty: boolean, columns: number | undefined = 200) {
  return harnessOf(isTty, () => columns);
}

function harnessOf(isTty: boolean, columns: () => number | undefined) {
  let now = 0;
  let retries = 0;
  const written: string[] = [];
  const logged: string[] = [];
  const progress = createProgress({
    isTty,
    write: (text) => written.push(text),
    log: (line) => logged.push(line),
    now: () => now,
    retries: () => retries,
    columns,
    intervalMs: 1000,
  });
  return {
    progress,
    written,
    logged,
    tick: (ms: number) => (now += ms),
    retry: (n: number) => (retries += n),
  };
}

test("in a pipe: a log line per phase change and per interval, never a repeated one", () => {
  const { progress, logged, tick } = harness(false);
  progress.update({ phase: "fetching", counting: "records" });
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

test("retries are read from the client's count at each line, in a pipe and on a terminal", () => {
  for (const isTty of [false, true]) {
    const { progress, logged, written, tick, retry } = harness(isTty);
    progress.update({ phase: "fetching operations", counting: "operations" });
    retry(1727);
    tick(2000);
    progress.add({ operations: 10 });
    retry(1);
    progress.update({ phase: "completed" });
    progress.done();
    const last = isTty ? (written.at(-2) ?? "") : (logged.at(-1) ?? "");
    expect(last).toMatch(isTty ? /1,728 retries/ : /1728 retries/);
  }
});

test("on a terminal: one line redrawn in place, cleared to its end, ended with a newline", () => {
  const { progress, written, tick, retry } = harness(true);
  progress.update({ phase: "fetching", counting: "records" });
  tick(2000);
  progress.add({ pages: 3, records: 300, rejected: 1 });
  retry(2);
  progress.done();
  expect(written.every((text) => text === "\n" || (text.startsWith("\r") && text.endsWith("\x1b[K")))).toBe(
    true,
  );
  expect(written.at(-2)).toMatch(/300 records, 0 operations, 1 rejected, 2 retries, 2s, 3 pages/);
  expect(written.at(-1)).toBe("\n");
});

test("on a terminal: the rate is the phase's own, over the last seconds, not the run's average", () => {
  const { progress, written, tick } = harness(true);
  progress.update({ phase: "fetching", counting: "records" });
  // 10 s at 1,000 records/s, then 10 s at 100 records/s.
  for (let second = 0; second < 10; second += 1) {
    tick(1000);
    progress.add({ records: 1000, pages: 1 });
  }
  expect(written.at(-1)).toMatch(/1,000 records\/s/);
  for (let second = 0; second < 10; second += 1) {
    tick(1000);
    progress.add({ records: 100, pages: 1 });
  }
  expect(written.at(-1)).toMatch(/ 100 records\/s/);
  // Operations start from their own count: the records before them do not add to their rate.
  progress.update({ phase: "fetching operations", counting: "operations", total: 1000 });
  for (let second = 0; second < 4; second += 1) {
    tick(1000);
    progress.add({ operations: 50 });
  }
  const line = written.at(-1) ?? "";
  expect(line).toMatch(/fetching operations: 200 \/ 1,000 20%, ETA 16s, 50 operations\/s/);
  expect(line).not.toMatch(/records\/s/);
});

test("on a terminal: the line follows the terminal's width", () => {
  for (const columns of [40, 80, 120]) {
    const { progress, written, tick } = harness(true, columns);
    progress.update({ phase: "fetching", counting: "records" });
    tick(1000);
    progress.add({ pages: 1234, records: 12_345_678, rejected: 12, partitions: 3 });
    progress.done();
    for (const text of written) {
      const visible = text.replace(/^\r/, "").replace(CLEAR_TO_END, "");
      expect(visible.length).toBeLessThan(columns);
    }
  }
});

test("on a terminal: a log line goes above the live line, which is drawn again below it", () => {
  const { progress, written, tick } = harness(true);
  progress.above("before any line");
  progress.update({ phase: "fetching", counting: "records" });
  tick(2000);
  progress.add({ pages: 1, records: 10 });
  const live = written.at(-1) ?? "";
  progress.above("a warning");
  progress.done();
  progress.above("after the end");
  expect(written[0]).toBe("before any line\n");
  expect(written.at(-4)).toBe(`\r\x1b[Ka warning\n${live}`);
  expect(written.at(-2)).toBe("\n");
  expect(written.at(-1)).toBe("after the end\n");
});

test("in a pipe: a log line is written as it is", () => {
  const { progress, written } = harness(false);
  progress.update({ phase: "fetching", counting: "records" });
  progress.above("a warning");
  expect(written).toEqual(["a warning\n"]);
});

test("on a terminal: done ends the line once; what comes after draws nothing", () => {
  const { progress, written, tick } = harness(true);
  progress.update({ phase: "fetching", counting: "records" });
  progress.done();
  const count = written.length;
  tick(5000);
  progress.add({ records: 5 });
  progress.update({ phase: "completed" });
  progress.done();
  expect(written).toHaveLength(count);
  expect(written.at(-1)).toBe("\n");
});

test("a run that ends before anything was shown shows nothing at its end", () => {
  for (const isTty of [false, true]) {
    const { progress, written, logged } = harness(isTty);
    progress.done();
    expect([...written, ...logged]).toEqual([]);
  }
});

test("on a terminal that reports no width, the line fits 80 columns", () => {
  for (const columns of [undefined, 0]) {
    const { progress, written, tick } = harnessOf(true, () => columns);
    progress.update({ phase: "fetching", counting: "records" });
    tick(1000);
    progress.add({ pages: 1234, records: 12_345_678, rejected: 12, partitions: 3 });
    const line = (written.at(-1) ?? "").replace(/^\r/, "").replace(CLEAR_TO_END, "");
    expect(line.length).toBeGreaterThan(40);
    expect(line.length).toBeLessThan(80);
  }
});

test("on a terminal: the re-reads of calls pending billing show x / N and their rate", () => {
  const { progress, written, tick } = harness(true);
  progress.update({ phase: "re-reading calls pending billing", counting: "rereads", total: 40 });
  for (let second = 0; second < 2; second += 1) {
    tick(1000);
    progress.add({ rereads: 10 });
  }
  expect(written.at(-1)).toMatch(
    /^\rre-reading calls pending billing: 20 \/ 40 50%, ETA 2s, 10 re-reads\/s, /,
  );
});
