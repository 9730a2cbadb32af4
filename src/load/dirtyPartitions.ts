import type { DuckDBConnection } from "./duckdb.js";
import { quotedIdentifier } from "./duckdb.js";
import { PARTITION_FORMAT, type Partitioning } from "./partitioning.js";

/**
 * The Parquet partitions a dataset must rewrite (the internal.parquet_dirty table): marked in the
 * transaction that changes their rows, cleared once the partition's file is swapped in.
 */
export type DirtyRows =
  /** Partitions named outright (those with rows but no file). */
  | { partitions: readonly string[] }
  /**
   * The partitions of the rows of `table` (a table of the warehouse or a temp table), by the UTC
   * time in `timeColumn`; with `since`, only the rows from that instant on.
   */
  | { table: string; timeColumn: string; partitioning: Partitioning; since?: string | null };

/** Marks partitions of `dataset` to rewrite; marking one twice is harmless. */
export async function markDirty(
  connection: DuckDBConnection,
  dataset: string,
  rows: DirtyRows,
): Promise<void> {
  if ("partitions" in rows) {
    for (const partition of rows.partitions) {
      await connection.run(
        "INSERT INTO internal.parquet_dirty (dataset, partition) VALUES ($dataset, $partition) ON CONFLICT DO NOTHING",
        {
          dataset,
          partition,
        },
      );
    }
    return;
  }
  const time = quotedIdentifier(rows.timeColumn);
  const since =
    rows.since === undefined || rows.since === null ? "" : ` WHERE ${time} >= $since::TIMESTAMPTZ`;
  await connection.run(
    `INSERT INTO internal.parquet_dirty (dataset, partition) SELECT DISTINCT $dataset, strftime(timezone('UTC', ${time}), $format) FROM ${quotedIdentifier(rows.table)}${since} ON CONFLICT DO NOTHING`,
    {
      dataset,
      format: PARTITION_FORMAT[rows.partitioning],
      ...(since === "" ? {} : { since: rows.since as string }),
    },
  );
}

/** The partitions of `dataset` marked to rewrite. */
export async function dirtyPartitions(connection: DuckDBConnection, dataset: string): Promise<string[]> {
  const dirty = await connection.runAndReadAll(
    "SELECT partition FROM internal.parquet_dirty WHERE dataset = $dataset",
    {
      dataset,
    },
  );
  return dirty.getRows().map((row) => String(row[0]));
}

/** Clears a partition's mark, once its file holds its rows. */
export async function clearDirty(
  connection: DuckDBConnection,
  dataset: string,
  partition: string,
): Promise<void> {
  await connection.run(
    "DELETE FROM internal.parquet_dirty WHERE dataset = $dataset AND partition = $partition",
    {
      dataset,
      partition,
    },
  );
}
