import { rm } from "node:fs/promises";
import { ZooUsageError } from "../errors.js";
import type { Warehouse } from "../load/database.js";
import { clearDirty, dirtyPartitions, markDirty } from "../load/dirtyPartitions.js";
import { quotedIdentifier, quotedString } from "../load/duckdb.js";
import { retryOnOutOfMemory } from "../load/outOfMemory.js";
import {
  comparePartitions,
  PARTITION_COLUMN,
  PARTITION_FORMAT,
  type Partitioning,
  partitionRange,
  partitionsBetween,
} from "../load/partitioning.js";
import { fillSql, sqlFile, sqlLiteral } from "../load/sqlFiles.js";
import { asStorageError } from "../load/storageError.js";
import type { DatasetTarget } from "./datasetTarget.js";

/**
 * Rows per Parquet row group. DuckDB's writer holds a row group in memory before it compresses it,
 * so its default of 122,880 rows makes a month's partition write the export's memory peak; this
 * size takes well under half of that, for files about the same size.
 */
const ROW_GROUP_ROWS = 16_384;

/**
 * zstd level 2 instead of DuckDB's 3: faster to write, and no larger on this data; level 1 is faster
 * still but makes noticeably larger files.
 */
const ZSTD_LEVEL = 2;

/**
 * Rewrites the partitions of a dataset marked dirty in the database. Each partition is written by
 * DuckDB into the target's staging path, then published whole (a rename over the local file, or an
 * upload that replaces the object); a partition left with no rows is removed. The dirty mark is
 * cleared only after that, so a crash or a failed upload in between is redone by the next run.
 * After the run's stop (`signal`) no partition is started: the rest stay dirty for the next run.
 */
export async function writeDirtyPartitions(
  warehouse: Warehouse,
  options: {
    dataset: string;
    target: DatasetTarget;
    partitioning: Partitioning;
    runId: string;
    onPartition?: () => void;
    /** Told when a partition needed a higher memory limit than DuckDB had (it is then retried). */
    onWarning?: (message: string) => void;
    /** Only the partitions whose value sorts before this one (those a forward scan has passed). */
    before?: string;
    /** The run's stop. */
    signal?: AbortSignal;
  },
): Promise<number> {
  const { connection } = warehouse;
  const { before, target, dataset } = options;
  const partitions = (await dirtyPartitions(connection, dataset))
    .filter((partition) => before === undefined || comparePartitions(partition, before) < 0)
    .sort(comparePartitions);
  const selectSql = sqlFile(`parquet/${dataset}.sql`);
  let written = 0;
  for (const partition of partitions) {
    if (options.signal?.aborted) break;
    const name = `${PARTITION_COLUMN[options.partitioning]}=${partition}`;
    const finalFile = target.partitionLocation(dataset, name);
    const { start, end } = partitionRange(options.partitioning, partition);
    let staged: string | undefined;
    try {
      staged = await target.stage(dataset, name, options.runId);
      const file = staged;
      const select = fillSql(selectSql, { start: sqlLiteral(start), end: sqlLiteral(end) });
      let rows = 0;
      const copy = async () => {
        await rm(file, { force: true });
        const result = await connection.run(
          `COPY (${select}) TO ${quotedString(file)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL ${ZSTD_LEVEL}, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`,
        );
        rows = result.rowsChanged;
      };
      await retryOnOutOfMemory(warehouse, copy, (limit) =>
        options.onWarning?.(
          `writing ${finalFile} needed more memory than DuckDB's limit allowed; raised the limit to ${limit} MB and retried it`,
        ),
      );
      if (rows > 0) {
        await target.publish(file, dataset, name);
      } else {
        await target.discard(file);
        await target.remove(dataset, name);
      }
    } catch (cause) {
      if (staged !== undefined) await target.discard(staged);
      throw partitionError(cause, finalFile);
    }
    await clearDirty(connection, dataset, partition);
    // A month's rows were read to write it: none of it is read again.
    await warehouse.releaseCache();
    options.onPartition?.();
    written += 1;
  }
  return written;
}

/**
 * Marks dirty every partition that has rows in the table but no file in the dataset (a new --out,
 * or files deleted by hand), so that the dataset always ends equal to the table.
 */
export async function markMissingPartitions(
  warehouse: Warehouse,
  options: {
    dataset: string;
    table: string;
    timeColumn: string;
    target: DatasetTarget;
    partitioning: Partitioning;
  },
): Promise<number> {
  const { connection } = warehouse;
  const column = PARTITION_COLUMN[options.partitioning];
  const present = new Set<string>();
  for (const name of await options.target.presentPartitions(options.dataset)) {
    if (name.startsWith(`${column}=`)) present.add(name.slice(column.length + 1));
  }
  const timeColumn = quotedIdentifier(options.timeColumn);
  const table = quotedIdentifier(options.table);
  const format = PARTITION_FORMAT[options.partitioning];
  // The first and last partitions cost a min and a max. Listing the distinct partitions formats
  // the time of every row, which grows with the history at each nightly run, so it is done only
  // when a partition between the first and the last has no file.
  const bounds = await connection.runAndReadAll(
    `SELECT strftime(timezone('UTC', min(${timeColumn})), $format), strftime(timezone('UTC', max(${timeColumn})), $format) FROM ${table}`,
    { format },
  );
  const [first, last] = bounds.getRows()[0] ?? [];
  if (first === null || first === undefined || last === null || last === undefined) return 0;
  if (allPresent(partitionsBetween(options.partitioning, String(first), String(last)), present)) return 0;
  const expected = await connection.runAndReadAll(
    `SELECT DISTINCT strftime(timezone('UTC', ${timeColumn}), $format) FROM ${table}`,
    { format },
  );
  const missing = expected
    .getRows()
    .map((row) => String(row[0]))
    .filter((partition) => !present.has(partition));
  await markDirty(connection, options.dataset, { partitions: missing });
  return missing.length;
}

function allPresent(partitions: Iterable<string>, present: ReadonlySet<string>): boolean {
  for (const partition of partitions) if (!present.has(partition)) return false;
  return true;
}

/**
 * A partition that cannot be written: a storage failure (or any file-system error) says what to
 * check on the disk; anything else (DuckDB refusing a value, say) is not the disk's fault and passes
 * through as it is, so its hint does not send the user to free space that is not the problem.
 */
function partitionError(cause: unknown, file: string): unknown {
  // An object store's failure already says what to do about the store.
  if (cause instanceof ZooUsageError) return cause;
  const isFileSystemError = typeof (cause as NodeJS.ErrnoException | null)?.code === "string";
  if (!isFileSystemError && !(asStorageError(cause, file) instanceof ZooUsageError)) return cause;
  return new ZooUsageError({
    code: "output.unwritable",
    message: `Cannot write the Parquet partition ${file}: ${(cause as Error).message}`,
    hint: "Check that --out is writable and the disk has space (for an s3:// --out, the staging directory beside the database); the database is intact and the next run rewrites this partition.",
    cause,
  });
}
