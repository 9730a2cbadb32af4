import { isoDay } from "../forecast/epochDay.js";
import { microsText, textMicros } from "../forecast/microsText.js";
import { intervalLabel, monthForecast, monthToDateOf } from "../forecast/monthForecast.js";
import { type DailySeries, weekdayOf } from "../forecast/rateModel.js";
import type { Alert } from "./alert.js";
import type { SpikeBaseline } from "./spikeJudge.js";
import { judgeSpike } from "./spikeJudge.js";

/**
 * The budget rule on the month of the last complete day (the day before `asOf`): budget-actual when
 * the month-to-date reaches `actualPercent`% of the budget, budget-forecast when the month-end
 * forecast reaches `forecastPercent`% while days of the month remain. Shares are exact (BigInt),
 * rounded half up to the micro-dollar. The note names the budget and the share.
 */
export function budgetAlerts(
  series: DailySeries,
  asOf: number,
  budget: { usd: string; actualPercent: string; forecastPercent: string },
): Alert[] {
  const month = monthToDateOf(series, asOf);
  const period = isoDay(month.monthDay).slice(0, 7);
  const daysKnown = Math.min(asOf, month.nextMonthDay) - month.monthDay;
  const budgetMicros = textMicros(budget.usd);
  const share = (percent: string) =>
    Number((BigInt(budgetMicros) * BigInt(textMicros(percent)) + 50_000_000n) / 100_000_000n);
  const named = (percent: string) => `${percent}% of the {budget} budget`;
  const alerts: Alert[] = [];
  const actualLimit = share(budget.actualPercent);
  const mtd = month.micros;
  if (mtd > 0 && mtd >= actualLimit) {
    alerts.push({
      rule: "budget-actual",
      subject: "account",
      value: microsText(mtd),
      threshold: microsText(actualLimit),
      period,
      unit: "usd",
      note: `${named(budget.actualPercent)}, ${daysKnown} days in`,
      amounts: { budget: microsText(budgetMicros) },
    });
  }
  // Under 14 days of history there is no forecast: the month-to-date alone is judged.
  const forecast = monthForecast(series, asOf);
  if (forecast === null) return alerts;
  const forecastLimit = share(budget.forecastPercent);
  const total = forecast.forecastMicros;
  if (forecast.days.length > 0 && total > 0 && total >= forecastLimit) {
    const shift = forecast.shiftDay === null ? "" : `, usage changed on ${isoDay(forecast.shiftDay)}`;
    alerts.push({
      rule: "budget-forecast",
      subject: "account",
      value: microsText(total),
      threshold: microsText(forecastLimit),
      period,
      unit: "usd",
      note: `${named(budget.forecastPercent)}; range {low} to {high}, ${intervalLabel(forecast.interval)}${shift}, ${daysKnown} days in`,
      amounts: {
        budget: microsText(budgetMicros),
        low: microsText(forecast.lowMicros),
        high: microsText(forecast.highMicros),
      },
    });
  }
  return alerts;
}

const WEEKDAY_NAMES = ["Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays"];

/** The spike rule on the last complete day (the day before `asOf`). */
export function spikeAlerts(
  series: DailySeries,
  asOf: number,
  rule: { factor: string; minUsd: string; baseline: SpikeBaseline },
): Alert[] {
  const judged = judgeSpike(series, asOf - 1, {
    factorMillionths: BigInt(textMicros(rule.factor)),
    minMicros: textMicros(rule.minUsd),
    baseline: rule.baseline,
  });
  if (judged === null || !judged.fired) return [];
  const basis =
    judged.basis === "weekday"
      ? `median of ${judged.baselineDays} ${WEEKDAY_NAMES[weekdayOf(judged.day)]}`
      : judged.basis === "forecast"
        ? "the forecast of the day"
        : judged.basis === "floor"
          ? "a quarter of the 28-day median"
          : `median of ${judged.baselineDays} days`;
  return [
    {
      rule: "spike",
      subject: "account",
      value: microsText(judged.micros),
      threshold: microsText(judged.limitMicros),
      period: isoDay(judged.day),
      unit: "usd",
      note: `usual {usual} (${basis}), x${rule.factor}`,
      amounts: { usual: microsText(judged.usualMicros) },
    },
  ];
}
