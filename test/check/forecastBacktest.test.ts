import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, test } from "vitest";
import { isInside } from "../../src/check/backtest.js";
import { backtestTable } from "../../src/check/backtestReport.js";
import { FORECAST_SHAPES, runShape, SHAPE_SEEDS, type ShapeRun } from "../helpers/forecastShapes.js";
import { forecastDatabase, simDailySpend } from "../helpers/simDailySpend.js";

/**
 * The month-end forecast and the spike rule replayed (backtestSummary, what `check --backtest`
 * runs) over the usage shapes of test/helpers/forecastShapes.ts, each on 8 seeds: issue 49's
 * targets, and docs/check.md's table, which is this test's output.
 */
const runs = new Map<string, ShapeRun[]>();

beforeAll(() => {
  for (const shape of FORECAST_SHAPES)
    runs.set(
      shape.name,
      SHAPE_SEEDS.map((seed) => runShape(shape, seed)),
    );
});

function forecastsOf(name: string, day: number) {
  return (runs.get(name) ?? []).flatMap((run) => run.summary.forecasts.filter((f) => f.day === day));
}

function mape(name: string, day: number): number {
  const at = forecastsOf(name, day);
  return (
    (100 * at.reduce((sum, f) => sum + Math.abs(Number(f.forecastUsd) / Number(f.actualUsd) - 1), 0)) /
    at.length
  );
}

describe("the month-end forecast on the usage shapes", () => {
  test("every shape is judged over at least 4 months", () => {
    for (const shape of FORECAST_SHAPES) {
      expect(forecastsOf(shape.name, 21).length, shape.name).toBeGreaterThanOrEqual(4);
    }
  });

  test("steady months: error at most 6% at day 14", () => {
    expect(mape("steady", 14)).toBeLessThanOrEqual(6);
  });

  test("a step on the 15th, x1.8 and x0.5: error at most 8% at day 21", () => {
    expect(mape("step x1.8 on the 15th", 21)).toBeLessThanOrEqual(8);
    expect(mape("step x0.5 on the 15th", 21)).toBeLessThanOrEqual(8);
  });

  test("the 90% intervals hold 80-95% of month-ends over all shapes (a spike after the day left out)", () => {
    let counted = 0;
    let inside = 0;
    for (const shapeRuns of runs.values()) {
      for (const run of shapeRuns) {
        for (const forecast of run.summary.forecasts) {
          const asOf = `${forecast.month}-${String(forecast.day + 1).padStart(2, "0")}`;
          const unforeseeable = run.planted.some((day) => day.startsWith(forecast.month) && day >= asOf);
          if (unforeseeable) continue;
          counted++;
          if (isInside(forecast)) inside++;
        }
      }
    }
    const coverage = (100 * inside) / counted;
    expect(coverage).toBeGreaterThanOrEqual(80);
    expect(coverage).toBeLessThanOrEqual(95);
  });

  test("a x5 spike on a Wednesday or a Sunday alerts once; ordinary days stay quiet", () => {
    for (const name of ["x5 spike on a Wednesday", "x5 spike on a Sunday"]) {
      const shapeRuns = runs.get(name) ?? [];
      const planted = shapeRuns.flatMap((run) => run.planted.map((day) => `${run.seed}:${day}`));
      const fired = shapeRuns.flatMap((run) => run.summary.spikes.fired.map((day) => `${run.seed}:${day}`));
      expect(planted.length, name).toBeGreaterThanOrEqual(4 * SHAPE_SEEDS.length);
      // Measured: a few planted spikes land on a day the noise made quiet, under x3 its usual.
      expect(fired.filter((day) => planted.includes(day)).length, name).toBeGreaterThanOrEqual(
        planted.length * 0.9,
      );
      expect(
        fired.filter((day) => !planted.includes(day)),
        name,
      ).toEqual([]);
    }
    for (const name of ["steady", "step x1.8 on the 15th", "step x0.5 on the 15th", "growth 5% a week"]) {
      const fired = (runs.get(name) ?? []).flatMap((run) =>
        run.summary.spikes.fired.map((d) => `${run.seed}:${d}`),
      );
      expect(fired, name).toEqual([]);
    }
  });

  test("docs/check.md's table is the backtest's table (check --backtest prints it) of the shapes", async () => {
    const lines = backtestTable(
      "shape",
      FORECAST_SHAPES.map((shape) => ({ name: shape.name, runs: runs.get(shape.name) ?? [] })),
    );
    const table = lines.join("\n");
    const docs = await readFile(new URL("../../docs/check.md", import.meta.url), "utf8");
    const start = docs.indexOf(lines[0] as string);
    const stated = docs.slice(start, docs.indexOf("\n\n", start));
    expect(stated, `docs/check.md should hold:\n${table}`).toBe(table);
  });
});

describe("the forecast views", () => {
  test("the forecast knows the month once it is over, and brackets what it forecasts", async () => {
    const database = await forecastDatabase(simDailySpend({ calls: 20_000, days: 120, seed: 1 }));
    try {
      const reader = await database.connection.runAndReadAll(
        "SELECT CAST(forecast_usd AS VARCHAR) AS f, CAST(month_to_date_usd AS VARCHAR) AS m, days_ahead, forecast_low_usd <= forecast_usd AND forecast_usd <= forecast_high_usd AS inside FROM forecast_month_at(DATE '2026-10-01')",
      );
      const [row] = reader.getRowObjectsJS();
      expect(row).toEqual({ f: row?.m, m: row?.m, days_ahead: 0, inside: true });
      const actual = await database.connection.runAndReadAll(
        "SELECT CAST(sum(cost_usd) AS VARCHAR) AS usd FROM cost_per_day WHERE day >= DATE '2026-09-01' AND day < DATE '2026-10-01'",
      );
      expect(row?.m).toBe(actual.getRowObjectsJS()[0]?.usd);
    } finally {
      database.close();
    }
  });

  test("the last stored day is complete once a completed export started after it ended", async () => {
    const database = await forecastDatabase(simDailySpend({ calls: 5_000, days: 60, seed: 2 }));
    const asOf = async () =>
      (
        await database.connection.runAndReadAll(
          "SELECT strftime(f.as_of, '%Y-%m-%d') AS view, strftime(m.as_of, '%Y-%m-%d') AS month, (SELECT strftime(max(day), '%Y-%m-%d') FROM cost_per_day) AS last FROM forecast_as_of AS f, forecast_month AS m",
        )
      ).getRowObjectsJS()[0];
    try {
      const last = (await asOf())?.last;
      expect(await asOf()).toEqual({ view: last, month: last, last });
      // A run that started on the last day itself, or failed after it, leaves the day incomplete.
      await database.connection.run(
        `INSERT INTO runs VALUES (TIMESTAMPTZ '${last} 23:59:59+00', 'completed'), (TIMESTAMPTZ '${last} 23:59:59+00' + INTERVAL 2 HOUR, 'failed')`,
      );
      expect((await asOf())?.view).toBe(last);
      await database.connection.run(
        `INSERT INTO runs VALUES (TIMESTAMPTZ '${last} 00:00:00+00' + INTERVAL 1 DAY, 'completed')`,
      );
      const next = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(await asOf()).toEqual({ view: next, month: next, last });
    } finally {
      database.close();
    }
  });
});
