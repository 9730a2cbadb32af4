import type { Warehouse } from "../load/database.js";
import { dirtyPartitions, markDirty } from "../load/dirtyPartitions.js";
import { PARTITION_COLUMN, type Partitioning } from "../load/partitioning.js";
import type { DatasetTarget } from "./datasetTarget.js";
import { FOCUS_DATASET, focusPeriodWritten, forgetFocusPeriod } from "./focusDataset.js";

/** What --verify-out did: the summary's `verify`. */
export interface VerifySummary {
  /** Partition files checked, every dataset. */
  objects: number;
  /** Those that were not whole Parquet: each marked to be rewritten by this run. */
  unreadable: number;
  /** Those rewritten (or removed, having no rows) by the end of the run. */
  repaired: number;
}

/** One partition file found unreadable, and why. */
export interface UnreadableFile {
  dataset: string;
  partition: string;
  location: string;
  problem: string;
}

/**
 * Checks every partition file of the datasets (`<dataset>/<column>=<value>/data.parquet`; the
 * partitions of another partitioning than the run's are not the run's to rewrite, so they are
 * skipped) and marks each one that is not whole Parquet to be rewritten: a calls or operations
 * partition as dirty, a FOCUS billing period by forgetting its digest. The run's dataset writers
 * then rewrite it as they would a changed one; a partition with no rows left is removed.
 */
export async function markUnreadablePartitions(
  warehouse: Warehouse,
  target: DatasetTarget,
  datasets: { dirty: readonly string[]; partitioning: Partitioning; focus: boolean },
): Promise<{ objects: number; unreadable: UnreadableFile[] }> {
  const column = PARTITION_COLUMN[datasets.partitioning];
  const checked = [
    ...datasets.dirty.map((dataset) => ({ dataset, column })),
    ...(datasets.focus ? [{ dataset: FOCUS_DATASET, column: "billing_period" }] : []),
  ];
  let objects = 0;
  const unreadable: UnreadableFile[] = [];
  for (const { dataset, column: name } of checked) {
    for (const { partition, problem } of await target.checkPartitions(dataset)) {
      if (!partition.startsWith(`${name}=`)) continue;
      objects += 1;
      if (problem === undefined) continue;
      unreadable.push({
        dataset,
        partition,
        location: target.partitionLocation(dataset, partition),
        problem,
      });
      if (dataset === FOCUS_DATASET) await forgetFocusPeriod(warehouse, partition);
      else await markDirty(warehouse.connection, dataset, { partitions: [partition.slice(name.length + 1)] });
    }
  }
  return { objects, unreadable };
}

/** How many of the unreadable files were rewritten: no longer dirty, or their period written again. */
export async function repairedCount(
  warehouse: Warehouse,
  unreadable: readonly UnreadableFile[],
): Promise<number> {
  let repaired = 0;
  for (const file of unreadable) {
    if (file.dataset === FOCUS_DATASET) {
      if (await focusPeriodWritten(warehouse, file.partition)) repaired += 1;
      continue;
    }
    const value = file.partition.slice(file.partition.indexOf("=") + 1);
    if (!(await dirtyPartitions(warehouse.connection, file.dataset)).includes(value)) repaired += 1;
  }
  return repaired;
}
