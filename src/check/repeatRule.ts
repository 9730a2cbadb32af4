import type { ReportedAlert } from "../load/alertState.js";
import type { Alert } from "./alert.js";

/**
 * Whether an alert is reported now: always when it was never reported, or last reported on an
 * earlier UTC day; on the same UTC day only when its value moved by more than `stepPercent` of the
 * value reported (any move from 0). The move is a ratio: a float is fine for it; a value that is
 * not a number ("never") does not move.
 */
export function isDue(
  alert: Alert,
  previous: ReportedAlert | undefined,
  now: Date,
  stepPercent: string,
): boolean {
  if (previous === undefined) return true;
  if (utcDay(previous.reportedAt) !== utcDay(now)) return true;
  const before = Number(previous.value);
  const after = Number(alert.value);
  if (!Number.isFinite(before) || !Number.isFinite(after)) return false;
  if (before === 0) return after !== 0;
  return (Math.abs(after - before) / Math.abs(before)) * 100 > Number(stepPercent);
}

function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}
