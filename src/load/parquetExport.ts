import { mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import type { Warehouse } from "./database.js";
import { clearDirty, dirtyPartitions, markDirty } from "./dirtyPartitions.js";
import { quotedIdentifier, quotedString } from "./duckdb.js";
import { retryOnOutOfMemory } from "./outOfMemory.js";
import {
  comparePartitions,
  PARTITION_COLUMN,
  PARTITION_FORMAT,
  type Partitioning,
  partitionRange,
  partitionsBetween,
} from "./partitioning.js";
import { fillSql, sqlFile, sqlLiteral } from "./sqlFiles.js";
import { asStorageError } from "./storageError.js";

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

/** One file per partition, always this name: replacing it is a single atomic rename. */
export const PARTITION_FILE = "data.parquet";

/**
 * Rewrites the partitions of a dataset marked dirty in the database. Each partition is written
 * beside its final name (a dot-file, which Spark, Hive, Trino and DuckDB globs ignore), then renamed
 * over it: a reader sees the old file or the new one, never a partial, missing or doubled partition.
 * The dirty mark is cleared only after the rename, so a crash in between is redone by the next run.
 */
export async function writeDirtyPartitions(
  warehouse: Warehouse,
  options: {
    dataset: string;
    outDir: string;
    partitioning: Partitioning;
    runId: string;
    onPartition?: () => void;
    /** Told when a partition needed a higher memory limit than DuckDB had (it is then retried). */
    onWarning?: (message: string) => void;
    /** Only the partitions whose value sorts before this one (those a forward scan has passed). */
    before?: string;
  },
): Promise<number> {
  const { connection } = warehouse;
  const { before } = options;
  const partitions = (await dirtyPartitions(connection, options.dataset))
    .filter((partition) => before === undefined || comparePartitions(partition, before) < 0)
    .sort(comparePartitions);
  const selectSql = sqlFile(`parquet/${options.dataset}.sql`);
  for (const partition of partitions) {
    const dir = path.join(
      options.outDir,
      options.dataset,
      `${PARTITION_COLUMN[options.partitioning]}=${partition}`,
    );
    const finalFile = path.join(dir, PARTITION_FILE);
    const temporary = path.join(dir, `.${PARTITION_FILE}.${options.runId}.tmp`);
    const { start, end } = partitionRange(options.partitioning, partition);
    try {
      await mkdir(dir, { recursive: true });
      const select = fillSql(selectSql, { start: sqlLiteral(start), end: sqlLiteral(end) });
      const copy = async () => {
        await rm(temporary, { force: true });
        await connection.run(
          `COPY (${select}) TO ${quotedString(temporary)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL ${ZSTD_LEVEL}, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`,
        );
      };
      await retryOnOutOfMemory(warehouse, copy, (limit) =>
        options.onWarning?.(
          `writing ${finalFile} needed more memory than DuckDB's limit allowed; raised the limit to ${limit} MB and retried it`,
        ),
      );
      await rename(temporary, finalFile);
    } catch (cause) {
      await rm(temporary, { force: true });
      throw partitionError(cause, finalFile);
    }
    await clearDirty(connection, options.dataset, partition);
    options.onPartition?.();
  }
  return partitions.length;
}

/** A partition being written: `.data.parquet.<run id>.tmp`, beside the partition's file. */
const PARTITION_TEMPORARY = new RegExp(`^\\.${PARTITION_FILE.replace(".", "\\.")}\\..+\\.tmp$`);

/**
 * Removes partition files a killed run left half-written in the datasets under `outDir`. The
 * caller holds the warehouse that owns `outDir` open for writing, so no other run is writing them.
 */
export async function removeStalePartitionFiles(outDir: string): Promise<number> {
  let removed = 0;
  for (const dataset of await readdir(outDir, { withFileTypes: true }).catch(() => [])) {
    if (!dataset.isDirectory()) continue;
    const datasetDir = path.join(outDir, dataset.name);
    for (const partition of await readdir(datasetDir, { withFileTypes: true }).catch(() => [])) {
      if (!partition.isDirectory() || !partition.name.includes("=")) continue;
      const partitionDir = path.join(datasetDir, partition.name);
      for (const entry of await readdir(partitionDir).catch(() => [] as string[])) {
        if (!PARTITION_TEMPORARY.test(entry)) continue;
        await rm(path.join(partitionDir, entry), { force: true });
        removed += 1;
      }
    }
  }
  return removed;
}

/**
 * Marks dirty every partition that has rows in the table but no file in the dataset (a new --out,
 * or files deleted by hand), so that the dataset always ends equal to the table.
 */
export async function markMissingPartitions(
  warehouse: Warehouse,
  options: { dataset: string; table: string; timeColumn: string; outDir: string; partitioning: Partitioning },
): Promise<number> {
  const { connection } = warehouse;
  const present = new Set<string>();
  const column = PARTITION_COLUMN[options.partitioning];
  const datasetDir = path.join(options.outDir, options.dataset);
  for (const entry of await readdir(datasetDir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || !entry.name.startsWith(`${column}=`)) continue;
    const files = await readdir(path.join(datasetDir, entry.name)).catch(() => [] as string[]);
    if (files.includes(PARTITION_FILE)) present.add(entry.name.slice(column.length + 1));
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
  const isFileSystemError = typeof (cause as NodeJS.ErrnoException | null)?.code === "string";
  if (!isFileSystemError && !(asStorageError(cause, file) instanceof ZooUsageError)) return cause;
  return new ZooUsageError({
    code: "output.unwritable",
    message: `Cannot write the Parquet partition ${file}: ${(cause as Error).message}`,
    hint: "Check that --out is writable and the disk has space; the database is intact and the next run rewrites this partition.",
    cause,
  });
}
