import type { DailySeries } from "../../src/forecast/rateModel.js";
import { CallRate, callRateShape } from "../../src/sim/callRate.js";
import { DEFAULT_NOW_ISO } from "../../src/sim/dataset.js";
import type { SimulatorOptions } from "../../src/sim/index.js";

const US_PER_DAY = 86_400_000_000;

/**
 * The simulator's daily-volume model as daily spend, without generating its calls: each UTC day of
 * the history costs its call rate's weight (weekday, trend, the day's draw, the planted shape) x
 * `usdPerDay` on a mean day. That is an account large enough that the price of single calls evens
 * out, leaving the day-to-day noise of the model: what the forecast's accuracy is measured on.
 */
export function shapeDailySpend(options: SimulatorOptions, usdPerDay: number): DailySeries {
  const nowUs = new Date(options.now ?? DEFAULT_NOW_ISO).getTime() * 1000;
  const days = options.days ?? 90;
  const startUs = nowUs - days * US_PER_DAY;
  const rate = new CallRate(options.seed ?? 1, startUs, nowUs, callRateShape(options));
  const firstDay = Math.floor(startUs / US_PER_DAY);
  const micros = Array.from({ length: days }, (_, i) =>
    Math.round(rate.weightOf(firstDay + i) * usdPerDay * 1e6),
  );
  return { firstDay, micros };
}
