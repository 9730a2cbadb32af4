import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { CLI, REPO_ROOT, spawnCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

const COLUMNS = 80;
const PTY_RUN = path.join(REPO_ROOT, "test/helpers/ptyRun.py");

interface ScreenLine {
  text: string;
  /** The widest the line ever was since it was last cleared whole. */
  widest: number;
  /** The line as last drawn in place (drawn from its start, then cleared past its end), if it was. */
  drawn?: string;
}

/**
 * What a terminal shows for `output`: "\r" moves back to the line's start, ESC [ K clears to its
 * end, other control sequences draw nothing. With every in-place draw, as it stood when drawn.
 */
function screen(output: string): { lines: ScreenLine[]; draws: string[] } {
  const lines: ScreenLine[] = [];
  const draws: string[] = [];
  let line: ScreenLine = { text: "", widest: 0 };
  let column = 0;
  for (let i = 0; i < output.length; i += 1) {
    const char = output[i] ?? "";
    if (char === "\n") {
      lines.push(line);
      line = { text: "", widest: 0 };
      column = 0;
    } else if (char === "\r") {
      column = 0;
    } else if (char === "\x1b" && output[i + 1] === "[") {
      // A control sequence: ESC [ parameters, then one letter that says what it does.
      let last = i + 2;
      while (last < output.length && !/[A-Za-z]/.test(output[last] ?? "")) last += 1;
      if (output[last] === "K") {
        const text = line.text.slice(0, column);
        if (column === 0) line = { text, widest: 0 };
        else {
          line = { ...line, text, drawn: text };
          draws.push(text);
        }
      }
      i = last;
    } else {
      line.text = line.text.slice(0, column) + char + line.text.slice(column + 1);
      column += 1;
      line.widest = Math.max(line.widest, line.text.length);
    }
  }
  if (line.text !== "") lines.push(line);
  return { lines, draws };
}

function numberAfter(summary: string, pattern: RegExp): number {
  const match = pattern.exec(summary);
  if (match?.[1] === undefined) throw new Error(`${pattern} not found in the summary:\n${summary}`);
  return Number(match[1]);
}

/**
 * The built CLI in a real pseudo-terminal (test/helpers/ptyRun.py): the process finds for itself
 * that its stderr is a terminal, and how wide, as it does for a person watching.
 */
describe("progress on a terminal 80 columns wide", () => {
  let sim: RunningSimulator;
  const workspace = tempWorkspace();

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 23,
      // Enough for pages, operations and retries to count; size is not the point.
      calls: 1000,
      days: 4,
      users: 1,
      // Some 5xx answers, so the run retries and its line has retries to count.
      faults: { rate5xx: 0.03, faultSeed: 5 },
    });
  });
  afterAll(async () => {
    await sim.close();
    await (await workspace).cleanup();
  });

  test("no line is wider than the terminal, and the last line's counters are the summary's", async () => {
    const { db, out } = await workspace;
    const result = await spawnCli(
      [PTY_RUN, String(COLUMNS), process.execPath, CLI, "export", "--db", db, "--out", out, "--limit", "100"],
      {
        shell: "python3",
        env: { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url },
        timeoutMs: 60_000,
      },
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const { lines, draws } = screen(result.stdout);
    // Every draw of the live line fits, and holds progress only.
    expect(draws.length).toBeGreaterThan(0);
    expect(draws.filter((draw) => draw.length > COLUMNS)).toEqual([]);
    for (const draw of draws) expect(draw).toMatch(/^[a-z -]+: [^:]*$/);
    // A line drawn in place is left as drawn: nothing appended to it, nothing of a longer draw left
    // over, never wrapped. The summary and log lines are as long as what they say (paths, URLs)
    // and wrap as any text does.
    const liveLines = lines.filter((line) => line.drawn !== undefined);
    expect(liveLines.filter((line) => line.text !== line.drawn || line.widest > COLUMNS)).toEqual([]);
    // Log lines written during the run (the retries) stand on lines of their own, above the live line.
    expect(lines.some((line) => line.drawn === undefined && / warn .*retry 1\//.test(line.text))).toBe(true);
    // The progress line is redrawn in place: the terminal keeps its last state, then the summary.
    const summaryAt = lines.findIndex((line) => line.text.startsWith("export completed"));
    expect(summaryAt).toBeGreaterThan(0);
    const progress = lines[summaryAt - 1]?.text ?? "";
    expect(progress).toMatch(/^completed: /);
    const summary = lines
      .slice(summaryAt)
      .map((line) => line.text)
      .join("\n");
    const expected: Record<string, number> = {
      records: numberAfter(summary, /records seen (\d+)/),
      operations: numberAfter(summary, /async operations fetched (\d+)/),
      retries: numberAfter(summary, /\((\d+) retries\)/),
      pages: numberAfter(summary, /pages (\d+)/),
      partitions: numberAfter(summary, /Parquet partitions written (\d+)/),
      rejected:
        numberAfter(summary, /rejected (\d+)/) +
        numberAfter(summary, /async operations fetched .*, (\d+) rejected\)/),
    };
    const shown = Object.fromEntries(
      [...progress.matchAll(/([\d,]+) (records|operations|rejected|retries|pages|partitions)\b/g)].map(
        ([, value, name]) => [name, Number(value?.replaceAll(",", ""))],
      ),
    );
    // What fits at 80 columns is shown, and the counts that matter most always fit.
    expect(Object.keys(shown)).toEqual(expect.arrayContaining(["records", "operations", "retries"]));
    expect(expected.retries).toBeGreaterThan(0);
    expect(expected.operations).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(shown)) expect([name, value]).toEqual([name, expected[name]]);
  });
});
