import { TREND_PER_WEEK } from "../../dist/sim/callRate.js";

/** The account every size is compared with: 200k calls over 90 days. */
const REFERENCE = { calls: 200_000, days: 90 };

/**
 * The days of history over which `calls` put as many calls in the last `windowDays` as the
 * reference account does, so that a nightly run (its lookback and its operations window) has the
 * same work at every size. The simulator's rate grows by TREND_PER_WEEK from the history's first
 * day, so the same average daily volume over a longer history is busier at its end: 1M calls over
 * 450 days put ~24% more calls in the last 35 days than 200k over 90. The weekdays and the draw of
 * each day's volume are the calendar day's, the same at every size when the histories end on the
 * same day (run.mjs). An account smaller than the reference's window gets the reference's average
 * daily volume.
 */
export function historyDaysForSameRecentVolume(calls, windowDays) {
  const target = recentCalls(REFERENCE.calls, REFERENCE.days, windowDays);
  if (calls <= target) return Math.max(1, Math.round((REFERENCE.days * calls) / REFERENCE.calls));
  // recentCalls falls as the history lengthens (for days >= windowDays): bisect.
  let low = windowDays;
  let high = windowDays;
  while (recentCalls(calls, high, windowDays) > target) high *= 2;
  while (high - low > 0.01) {
    const mid = (low + high) / 2;
    if (recentCalls(calls, mid, windowDays) > target) low = mid;
    else high = mid;
  }
  return Math.round(high);
}

/** Expected calls in the last `windowDays` of `days`: the rate grows linearly from the first day. */
function recentCalls(calls, days, windowDays) {
  const perDay = TREND_PER_WEEK / 7;
  return (calls * windowDays * (1 + perDay * (days - windowDays / 2))) / (days * (1 + (perDay * days) / 2));
}
