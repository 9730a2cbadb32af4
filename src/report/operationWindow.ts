import type { OperationFigures } from "./figures.js";

/**
 * The days spend by operation type covers, in words: the view has no date, so its rows are the
 * operations stored, which an export fetches only within --operations-window unless told
 * --operations all. Both outputs say so beside the figures, not the report's period.
 */
export function operationWindowText(
  figures: OperationFigures["by_type_and_status"],
  to: " to " | " .. " = " to ",
): string {
  const { first_day: first, last_day: last } = figures;
  if (first === null || last === null) return "no stored operation has a creation day";
  return first === last ? `operations created ${first}` : `operations created ${first}${to}${last}`;
}

/** Where the window comes from and how to widen it. */
export const OPERATION_WINDOW_NOTE =
  "Only the operations stored: an export fetches those of the calls created within --operations-window (35 days by default) of its run; zoo-usage export --operations all fetches the older ones. The report's period does not apply: the view cost_per_operation_type has no date.";
