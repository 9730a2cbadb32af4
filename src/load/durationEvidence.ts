import type { DurationUnit } from "../transform/durationUnit.js";
import type { Warehouse } from "./database.js";

/** Fewer pairs than this say nothing reliable about the unit. */
const MIN_CALLS = 100;

/**
 * Checks the configured duration unit against the data (view duration_unit_evidence): returns a
 * warning when the stored calls imply another unit, so a change on Zoo's side is noticed.
 */
export async function durationUnitWarning(
  warehouse: Warehouse,
  configured: DurationUnit,
): Promise<string | undefined> {
  const result = await warehouse.connection.runAndReadAll(
    "SELECT calls_compared::INTEGER, median_raw_per_us, implied_unit FROM duration_unit_evidence",
  );
  const [calls, median, implied] = (result.getRows()[0] ?? [0, null, "unclear"]) as [
    number,
    number | null,
    string,
  ];
  if (calls < MIN_CALLS || implied === configured) return undefined;
  return `duration looks like ${implied === "unclear" ? "an unknown unit" : `unit "${implied}"`} (median ${median?.toPrecision(4)} raw units per microsecond of completed_at - started_at over ${calls} calls), but --duration-unit is "${configured}"; duration_ms may be off`;
}
