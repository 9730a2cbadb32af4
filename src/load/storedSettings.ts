import { ZooUsageError } from "../errors.js";
import { type DurationUnit, UNITS_PER_MS } from "../transform/durationUnit.js";
import { readStoredSettings, storeSettings } from "./checkpoint.js";
import type { Warehouse } from "./database.js";
import { markDirty } from "./dirtyPartitions.js";
import type { Partitioning } from "./partitioning.js";
import { inTransaction } from "./transaction.js";

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
  const { durationUnit: storedUnit, partitioning: storedPartitioning } = await readStoredSettings(connection);
  if (storedPartitioning !== null && storedPartitioning !== settings.partitioning) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `This database's Parquet dataset is partitioned by ${storedPartitioning}, not ${settings.partitioning}`,
      hint: `Keep --partition ${storedPartitioning}, or start a new dataset with a new --db and --out.`,
    });
  }
  let note: string | undefined;
  await inTransaction(connection, async () => {
    if (storedUnit !== null && storedUnit !== settings.durationUnit) {
      await connection.run("UPDATE api_calls SET duration_ms = duration_raw / $units_per_ms", {
        units_per_ms: UNITS_PER_MS[settings.durationUnit],
      });
      await markDirty(connection, "api_calls", {
        table: "api_calls",
        timeColumn: "created_at",
        partitioning: settings.partitioning,
      });
      note = `duration unit changed from ${storedUnit} to ${settings.durationUnit}: duration_ms recomputed for every call`;
    }
    await storeSettings(connection, settings);
  });
  return note;
}
