import type { Warehouse } from "../load/database.js";
import { quotedString } from "../load/duckdb.js";
import { asStorageError } from "../load/storageError.js";
import type { DatasetTarget } from "./datasetTarget.js";

/** The FOCUS dataset under --out: focus/billing_period=YYYY-MM/data.parquet. */
export const FOCUS_DATASET = "focus";
const PARTITION_COLUMN = "billing_period";

/** What a run did to the FOCUS dataset. */
export interface FocusWrite {
  /** Billing periods whose file was written (new or changed rows). */
  written: number;
  /** Billing periods left as they were: their rows did not change. */
  unchanged: number;
  /** Billing periods removed: they have no rows any more. */
  removed: number;
  /** Rows of the view, all periods. */
  rows: number;
}

/**
 * Writes the view focus_costs (the charge ledger as FOCUS 1.2) as a Parquet dataset partitioned by
 * billing period, beside the calls' dataset, locally or in a bucket. A period is rewritten only
 * when its rows changed since its file was written (a digest of its rows, kept in
 * internal.focus_partitions) or its file is gone, so a nightly run uploads the few periods that
 * moved; a period with no rows left is removed. Each file is written whole by DuckDB into the
 * target's staging path and published in one step (a rename, or an upload that replaces the
 * object), so readers see the old file or the new one. A crash between the publish and the
 * digest's commit only makes the next run write the period again.
 */
export async function writeFocusDataset(
  warehouse: Warehouse,
  target: DatasetTarget,
  run: FocusRun,
): Promise<FocusWrite> {
  const { connection } = warehouse;
  // The view computed once: its digests and every period's file are read from this copy.
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${ROWS} AS SELECT * FROM focus_costs`);
  try {
    return await writePeriods(warehouse, target, run);
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${ROWS}`);
  }
}

interface FocusRun {
  runId: string;
  now: Date;
  onPartition?: () => void;
  /** The run's stop: no billing period is started after it (its digest stays as it was). */
  signal?: AbortSignal;
}

/** The temporary copy of focus_costs a run writes from. */
const ROWS = "temp.focus_rows";

async function writePeriods(warehouse: Warehouse, target: DatasetTarget, run: FocusRun): Promise<FocusWrite> {
  const { connection } = warehouse;
  const periods = (
    await connection.runAndReadAll(
      `SELECT strftime(BillingPeriodStart, '%Y-%m') AS period, count(*)::BIGINT AS row_count,
         sum(hash(f))::VARCHAR AS digest
       FROM ${ROWS} AS f GROUP BY 1 ORDER BY 1`,
    )
  ).getRowObjectsJS();
  const stored = new Map(
    (await connection.runAndReadAll("SELECT billing_period, digest FROM internal.focus_partitions"))
      .getRows()
      .map(([period, digest]) => [String(period), String(digest)]),
  );
  const present = await target.presentPartitions(FOCUS_DATASET);
  const result: FocusWrite = { written: 0, unchanged: 0, removed: 0, rows: 0 };
  for (const row of periods) {
    const period = String(row.period);
    const digest = String(row.digest);
    const partition = `${PARTITION_COLUMN}=${period}`;
    result.rows += Number(row.row_count);
    if (stored.get(period) === digest && present.has(partition)) {
      result.unchanged += 1;
      continue;
    }
    if (run.signal?.aborted) return result;
    await writePeriod(warehouse, target, { period, partition, runId: run.runId });
    await connection.run(
      `INSERT OR REPLACE INTO internal.focus_partitions (billing_period, row_count, digest, written_at)
       VALUES ($period, $rows, $digest, $at::TIMESTAMPTZ)`,
      { period, rows: String(row.row_count), digest, at: run.now.toISOString() },
    );
    result.written += 1;
    run.onPartition?.();
  }
  const current = new Set(periods.map((row) => `${PARTITION_COLUMN}=${String(row.period)}`));
  const gone = new Set([...stored.keys()].map((period) => `${PARTITION_COLUMN}=${period}`));
  for (const partition of present) gone.add(partition);
  for (const partition of gone) {
    if (current.has(partition)) continue;
    if (run.signal?.aborted) return result;
    await target.remove(FOCUS_DATASET, partition);
    await connection.run("DELETE FROM internal.focus_partitions WHERE billing_period = $period", {
      period: partition.slice(PARTITION_COLUMN.length + 1),
    });
    result.removed += 1;
  }
  return result;
}

/** One billing period's rows into the target's staging path, then published whole. */
async function writePeriod(
  warehouse: Warehouse,
  target: DatasetTarget,
  where: { period: string; partition: string; runId: string },
): Promise<void> {
  const staged = await target.stage(FOCUS_DATASET, where.partition, where.runId);
  try {
    await warehouse.connection.run(
      `COPY (SELECT * FROM ${ROWS} WHERE strftime(BillingPeriodStart, '%Y-%m') = ${quotedString(where.period)})
       TO ${quotedString(staged)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    await target.publish(staged, FOCUS_DATASET, where.partition);
  } catch (cause) {
    await target.discard(staged);
    throw asStorageError(cause, target.partitionLocation(FOCUS_DATASET, where.partition));
  }
}

/**
 * Forgets what was written for a billing period, so that the next writeFocusDataset rewrites its
 * file whatever its rows: for a file found unreadable.
 */
export async function forgetFocusPeriod(warehouse: Warehouse, partition: string): Promise<void> {
  await warehouse.connection.run("DELETE FROM internal.focus_partitions WHERE billing_period = $period", {
    period: partition.slice(PARTITION_COLUMN.length + 1),
  });
}

/** True when a billing period's file was written since forgetFocusPeriod. */
export async function focusPeriodWritten(warehouse: Warehouse, partition: string): Promise<boolean> {
  const found = await warehouse.connection.runAndReadAll(
    "SELECT 1 FROM internal.focus_partitions WHERE billing_period = $period",
    { period: partition.slice(PARTITION_COLUMN.length + 1) },
  );
  return found.getRows().length > 0;
}
