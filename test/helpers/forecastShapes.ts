import { type BacktestSummary, backtestSummary } from "../../src/check/backtestReport.js";
import type { SimulatorOptions } from "../../src/sim/index.js";
import { plantedSpikeDays } from "../../src/sim/usageShape.js";
import { shapeDailySpend } from "./shapeDailySpend.js";

/**
 * The usage shapes the forecast's backtest is measured on (docs/check.md's table): each a history of
 * the simulator's seasonal account with lognormal day noise, on several seeds, judged on the months
 * where its shape is.
 */
export interface ForecastShape {
  name: string;
  options: SimulatorOptions;
  /** The months (YYYY-MM) judged: those the shape changes. */
  months: readonly string[];
}

/** Seven months of history before the clock's 2026-11-01, with lognormal day noise. */
export const SHAPE_HISTORY = { days: 214, lognormalNoise: 0.25 } as const;
/** The spend of a mean day: an account where single calls' prices even out. */
export const SHAPE_USD_PER_DAY = 100;
export const SHAPE_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const ALL = ["2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-10"] as const;

export const FORECAST_SHAPES: readonly ForecastShape[] = [
  { name: "steady", options: {}, months: ALL },
  { name: "step x1.8 on the 15th", options: { stepDay: "2026-10-15", stepFactor: 1.8 }, months: ["2026-10"] },
  { name: "step x0.5 on the 15th", options: { stepDay: "2026-10-15", stepFactor: 0.5 }, months: ["2026-10"] },
  { name: "growth 5% a week", options: { growthPerWeek: 0.05 }, months: ALL },
  { name: "quiet September (x0.4)", options: { quietMonth: "2026-09" }, months: ["2026-09", "2026-10"] },
  { name: "x5 spike on a Wednesday", options: { spikeWeekday: 3, spikeFactor: 5 }, months: ALL },
  { name: "x5 spike on a Sunday", options: { spikeWeekday: 0, spikeFactor: 5 }, months: ALL },
];

/** One seed's backtest of a shape, beside the spike days it planted in the months judged. */
export interface ShapeRun {
  seed: number;
  summary: BacktestSummary;
  planted: string[];
}

export function runShape(shape: ForecastShape, seed: number): ShapeRun {
  const series = shapeDailySpend({ ...SHAPE_HISTORY, ...shape.options, seed }, SHAPE_USD_PER_DAY);
  const endDay = series.firstDay + series.micros.length;
  const summary = backtestSummary(series, endDay, (month) => shape.months.includes(month));
  const planted = plantedSpikeDays(
    { spikeWeekday: shape.options.spikeWeekday },
    series.firstDay,
    endDay,
  ).filter((day) => summary.months.includes(day.slice(0, 7)));
  return { seed, summary, planted };
}
