import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import { simHistory } from "../helpers/simHistory.js";

/**
 * The report shows the month-end forecast `check` judges budgets with: in --json, and on the HTML
 * page as a card (forecast, range and how the range was made) and a line over the daily chart's
 * days ahead.
 */

let history: { db: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  // Ends mid-month (2026-10-15T12:00Z): the forecast has 17 days ahead to draw.
  history = await simHistory({ seed: 2, calls: 10_000, days: 90, now: new Date("2026-10-15T12:00:00Z") });
});

afterAll(async () => {
  await history.cleanup();
});

test("--json and --html carry the forecast check judges budgets with, its range and its days ahead", async () => {
  const [stored] = await queryDb(
    history.db,
    "SELECT strftime(as_of, '%Y-%m-%d') AS as_of FROM forecast_as_of",
  );
  // A budget of one cent: the forecast alert fires and carries the forecast and its range.
  const check = await runCli([
    "check",
    "--db",
    history.db,
    "--budget",
    "0.01",
    "--now",
    String(stored?.as_of),
    "--json",
  ]);
  const alert = check.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { rule: string; value: string; note: string })
    .find((line) => line.rule === "budget-forecast");
  // In --json the note's amounts are exact: "...; range 2406.985961 to 16611.800281, 90% nominal...".
  const [, lo, hi] = /range (\S+) to (\S+), 90% nominal/.exec(alert?.note ?? "") ?? [];
  const expected = { f: alert?.value, lo, hi };
  expect(expected.f).toMatch(/^\d+\.\d{6}$/);
  const json = await runCli(["report", "--db", history.db, "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const { forecast } = JSON.parse(json.stdout) as {
    forecast: {
      month: string;
      forecast_usd: string;
      forecast_low_usd: string;
      forecast_high_usd: string;
      interval: string;
      days: unknown[];
    };
  };
  expect(forecast).toMatchObject({
    month: "2026-10",
    forecast_usd: expected.f,
    forecast_low_usd: expected.lo,
    forecast_high_usd: expected.hi,
  });
  expect(forecast.interval).toMatch(/^90% nominal: /);
  expect(forecast.days).toHaveLength(17);

  const page = path.join(path.dirname(history.db), "report.html");
  const html = await runCli(["report", "--db", history.db, "--html", page]);
  expect(html.code, html.stderr).toBe(0);
  const text = await readFile(page, "utf8");
  expect(text).toContain("Forecast, 2026-10");
  expect(text).toContain(`${expected.f} USD (${expected.lo} to ${expected.hi})`);
  expect(text).toContain(forecast.interval);
  // One point per day ahead, each with its exact forecast; the chart runs to the month's last day.
  expect(
    text.match(/<circle class="mark"[^>]*><title>2026-10-\d\d forecast: [\d.]+ USD forecast<\/title>/g),
  ).toHaveLength(17);
  expect(text).toContain("2026-10-31 forecast:");
});
