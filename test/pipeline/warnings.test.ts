import { expect, test } from "vitest";
import { RunWarnings } from "../../src/pipeline/warnings.js";

function collect() {
  const logged: string[] = [];
  return { warnings: new RunWarnings((line) => logged.push(line)), logged };
}

test("a warning repeated is one line with its first example and a count; the log hears it once", () => {
  const { warnings, logged } = collect();
  for (let i = 0; i < 5000; i++) warnings.add(`call ${i} is listed after a newer call`, "out of order");
  warnings.add("the same text twice");
  warnings.add("the same text twice");
  expect(warnings.lines()).toEqual([
    "call 0 is listed after a newer call (and 4999 more like it)",
    "the same text twice (and 1 more like it)",
  ]);
  expect(logged).toEqual(["call 0 is listed after a newer call", "the same text twice"]);
});

test("past 20 kinds the rest are counted in one line, and a long line is cut", () => {
  const { warnings, logged } = collect();
  for (let i = 0; i < 100_000; i++) warnings.add(`distinct warning ${i}`);
  warnings.add("x".repeat(10_000));
  const lines = warnings.lines();
  expect(lines).toHaveLength(21);
  expect(lines[20]).toBe("99981 more warning(s) of 10000+ other kind(s) not listed");
  expect(logged).toHaveLength(21);
  expect(JSON.stringify(lines).length).toBeLessThan(2000);

  const { warnings: one } = collect();
  one.add("y".repeat(10_000));
  expect(one.lines()[0]).toHaveLength(400);
});
