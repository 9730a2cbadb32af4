import { ZooUsageError } from "../errors.js";
import { type DurationUnit, UNITS_PER_MS } from "../transform/durationUnit.js";
import type { Warehouse } from "./database.js";
import { PARTITION_FORMAT, type Partitioning } from "./partitioning.js";

/**
 * Reconciles the run's settings with those the stored data was built with:
 * - a new duration unit recomputes duration_ms for every row (and so every Parquet partition);
 * - a new partitioning is refused: the existing dataset would be left in the old layout.
 * Returns a note for the run's output when something was recomputed.
 */
export async function reconcileSettings(
  warehouse: Warehouse,
  settings: { durationUnit: DurationUnit; partitioning: Partitioning; outDir: string },
): Promise<string | undefined> {
  const { connection } = warehouse;
  const result = await connection.runAndReadAll("SELECT duration_unit, partitioning FROM export_state");
  const [storedUnit, storedPartitioning] = (result.getRows()[0] ?? [null, null]) as (string | null)[];
  if (storedPartitioning !== null && storedPartitioning !== settings.partitioning) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `This database's Parquet dataset is partitioned by ${storedPartitioning}, not ${settings.partitioning}`,
      hint: `Keep --partition ${storedPartitioning}, or start a new dataset with a new --db and --out.`,
    });
  }
  let note: string | undefined;
  await connection.run("BEGIN TRANSACTION");
  try {
    if (storedUnit !== null && storedUnit !== settings.durationUnit) {
      await connection.run("UPDATE api_calls SET duration_ms = duration_raw / $units_per_ms", {
        units_per_ms: UNITS_PER_MS[settings.durationUnit],
      });
      await connection.run(
        "INSERT INTO parquet_dirty SELECT DISTINCT 'api_calls', strftime(timezone('UTC', created_at), $format) FROM api_calls ON CONFLICT DO NOTHING",
        { format: PARTITION_FORMAT[settings.partitioning] },
      );
      note = `duration unit changed from ${storedUnit} to ${settings.durationUnit}: duration_ms recomputed for every call`;
    }
    await connection.run("UPDATE export_state SET duration_unit = $unit, partitioning = $partitioning", {
      unit: settings.durationUnit,
      partitioning: settings.partitioning,
    });
    await connection.run("COMMIT");
  } catch (error) {
    await connection.run("ROLLBACK");
    throw error;
  }
  return note;
}
