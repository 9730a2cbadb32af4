import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import { simHistory } from "../helpers/simHistory.js";

/**
 * The report shows the month-end forecast: in --json as forecast_month and forecast_days have it,
 * and on the HTML page as a card (forecast and range) and a line over the daily chart's days ahead.
 */

let history: { db: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  // Ends mid-month (2026-10-15T12:00Z): the forecast has 17 days ahead to draw.
  history = await simHistory({ seed: 2, calls: 10_000, days: 90, now: new Date("2026-10-15T12:00:00Z") });
});

afterAll(async () => {
  await history.cleanup();
});

test("--json and --html carry the forecast of forecast_month, its range and its days ahead", async () => {
  const [expected] = await queryDb(
    history.db,
    "SELECT CAST(forecast_usd AS VARCHAR) AS f, CAST(forecast_low_usd AS VARCHAR) AS lo, CAST(forecast_high_usd AS VARCHAR) AS hi, days_ahead FROM forecast_month",
  );
  expect(expected?.days_ahead).toBe(17);
  const json = await runCli(["report", "--db", history.db, "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const { forecast } = JSON.parse(json.stdout) as {
    forecast: {
      month: string;
      forecast_usd: string;
      forecast_low_usd: string;
      forecast_high_usd: string;
      days: unknown[];
    };
  };
  expect(forecast).toMatchObject({
    month: "2026-10",
    forecast_usd: expected?.f,
    forecast_low_usd: expected?.lo,
    forecast_high_usd: expected?.hi,
  });
  expect(forecast.days).toHaveLength(17);

  const page = path.join(path.dirname(history.db), "report.html");
  const html = await runCli(["report", "--db", history.db, "--html", page]);
  expect(html.code, html.stderr).toBe(0);
  const text = await readFile(page, "utf8");
  expect(text).toContain("Forecast, 2026-10");
  expect(text).toContain(`${expected?.f} USD (${expected?.lo} to ${expected?.hi})`);
  // One point per day ahead, each with its exact forecast; the chart runs to the month's last day.
  expect(
    text.match(/<circle class="mark"[^>]*><title>2026-10-\d\d forecast: [\d.]+ USD forecast<\/title>/g),
  ).toHaveLength(17);
  expect(text).toContain("2026-10-31 forecast:");
});
