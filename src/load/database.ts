import { mkdir, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import { releaseCachedBlocks } from "./cacheRelease.js";
import { type DuckDBConnection, DuckDBInstance, quotedString } from "./duckdb.js";
import { moveInternalState } from "./internalSchema.js";
import { MOVE_INTERNAL_STATE, SCHEMA_STEPS, schemaStatements } from "./schemaFiles.js";
import { recordSchema, schemaIsCurrent } from "./schemaState.js";
import { removeSpillFolderSync, removeStaleSpillFiles } from "./spillFolder.js";
import { asStorageError } from "./storageError.js";
import { inTransaction } from "./transaction.js";
import { finishClassifications, forgetClassifications, lacksDerivedRows } from "./unfinishedClasses.js";
import { commentWarehouse } from "./warehouseComments.js";
import { assertWarehousePath } from "./warehouseFile.js";
import { openUnlessLocked } from "./warehouseLock.js";
import { inspectWarehouse } from "./warehouseShape.js";
import { startFromTemplate } from "./warehouseTemplate.js";

/** An open warehouse: one DuckDB file, one connection, schema and views applied. */
export interface Warehouse {
  path: string;
  connection: DuckDBConnection;
  /**
   * Doubles DuckDB's memory limit, for a batch that needs more than it (very long records): the
   * new limit in MB, or undefined when it is already at its ceiling.
   */
  raiseMemoryLimit(): Promise<number | undefined>;
  /**
   * Lets the checkpoint at close merge short row groups, once a table (CLOSE_VACUUM_TASKS): for a
   * writer whose run is done.
   */
  mergeAtClose(): Promise<void>;
  /**
   * Lets go of the table blocks DuckDB keeps cached (cacheRelease.ts), at the current limit.
   * Between batches, partitions, or reads of much of a table.
   */
  releaseCache(): Promise<void>;
  close(): void;
}

/**
 * DuckDB's memory limit for an export: per DuckDB thread (each thread of a Parquet write or an
 * insert holds its own buffers, so a limit shared by all threads runs out on a month's partition),
 * and never below the floor, whatever the cores: the account tables' joins (spenders over a large
 * account's API tokens) need more than one thread's share. The limit is not what the export uses:
 * what DuckDB holds follows the batches, which are bounded in bytes. Past it DuckDB spills to its
 * temp folder beside the database, or fails with an "Out of Memory Error" where it cannot (an
 * insert's buffers, which a full batch needs in one piece); the loader and the Parquet writer then
 * raise it and retry (outOfMemory.ts), up to the ceiling.
 */
const MEMORY_LIMIT_MB_PER_THREAD = 128;
const MEMORY_LIMIT_FLOOR_MB = 512;
const MEMORY_LIMIT_CEILING_MB = 4096;

/**
 * Rows per row group of the rows an export writes (DuckDB's default: 122,880). A transaction's rows
 * go straight into the file a full row group at a time; short of one, they go through the WAL, and
 * each checkpoint rewrites the table's last, growing row group. Export batches hold 10k-50k rows,
 * so with the default nearly every batch goes through the WAL and is rewritten at checkpoints; at
 * this size most of a batch goes straight into the file, which shortens COMMIT and lowers the peak
 * memory (the benchmark's README keeps the figures). DuckDB takes it only as an ATTACH option;
 * other tools opening the file use their own.
 */
export const TABLE_ROW_GROUP_ROWS = 16_384;

/**
 * DuckDB puts the rows a session appends into a new row group after the table's last one on disk,
 * and only a checkpoint that may vacuum merges them: without any merge, every run would add a row
 * group, and a block of 256 KB, to each table it appends to (api_calls, balance_snapshots, the page
 * ladder, own calls), and the file would grow every night by about a megabyte whatever the account.
 * Unbounded, the merges would also rewrite the short row groups each bulk batch leaves (see below):
 * seconds and hundreds of MB at the first nightly run after a large export. So one merge a table at
 * each run's close: DuckDB's max_vacuum_tasks counts the row groups its merges take in, and stops
 * scheduling once it has reached the limit, so a limit of 1 is exactly one merge. That is as many
 * row groups as a night adds, and the blocks a merge frees are used again.
 */
const CLOSE_VACUUM_TASKS = 1;

/**
 * Opens (or creates) the DuckDB file for writing. DuckDB allows one writing process per file, and
 * takes the lock at open: a second export, or any running process holding the file, fails here
 * at once (warehouseLock.ts).
 * A path that is not a DuckDB file, or a DuckDB file of something else, is refused untouched.
 */
export async function openWarehouse(
  dbPath: string,
  options: { readOnly?: boolean } = {},
): Promise<Warehouse> {
  await assertWarehousePath(dbPath);
  const resolved = path.resolve(dbPath);
  if (!options.readOnly) {
    try {
      await mkdir(path.dirname(resolved), { recursive: true });
    } catch (cause) {
      throw new ZooUsageError({
        code: "config.invalid",
        message: `Cannot create the directory of the database ${resolved}: ${(cause as Error).message}`,
        hint: "Choose a writable location with --db.",
        cause,
      });
    }
  }
  if (!options.readOnly) await startFromTemplate(resolved);
  const { instance, connection } = await (options.readOnly
    ? openReadOnly(resolved)
    : openForWriting(resolved));
  try {
    await prepare(connection, resolved, options.readOnly === true);
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    // Opening for writing commits the schema and its comments: a full disk or a file-size limit
    // can meet that first write.
    throw asStorageError(error, `the database ${resolved}`);
  }
  let memoryLimitMb = initialMemoryLimitMb();
  return {
    path: resolved,
    connection,
    async raiseMemoryLimit() {
      if (memoryLimitMb >= MEMORY_LIMIT_CEILING_MB) return undefined;
      memoryLimitMb = Math.min(MEMORY_LIMIT_CEILING_MB, memoryLimitMb * 2);
      await connection.run(`SET memory_limit = '${memoryLimitMb}MB'`);
      return memoryLimitMb;
    },
    async mergeAtClose() {
      await connection.run(`SET max_vacuum_tasks = ${CLOSE_VACUUM_TASKS}`);
    },
    async releaseCache() {
      await releaseCachedBlocks(connection, memoryLimitMb);
    },
    close() {
      connection.closeSync();
      instance.closeSync();
      if (!options.readOnly) removeSpillFolderSync(`${resolved}.tmp`);
    },
  };
}

function initialMemoryLimitMb(): number {
  return Math.min(
    MEMORY_LIMIT_CEILING_MB,
    Math.max(MEMORY_LIMIT_FLOOR_MB, MEMORY_LIMIT_MB_PER_THREAD * duckdbThreads()),
  );
}

function duckdbThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Session settings, and for writing the schema, on a connection that holds the file. */
async function prepare(connection: DuckDBConnection, resolved: string, readOnly: boolean): Promise<void> {
  // Without this, a timestamp without zone and every CAST to DATE follow the machine's zone.
  await connection.run("SET TimeZone = 'UTC'");
  const shape = await inspectWarehouse(connection, resolved);
  if (readOnly) {
    if (shape === "empty") {
      throw new ZooUsageError({
        code: "warehouse.unreadable",
        message: `${resolved} is not a zoo-usage database: it holds none of zoo-usage's tables`,
        hint: "Point --db at the database `zoo-usage export` writes.",
      });
    }
    return;
  }
  await removeStaleSpillFiles(`${resolved}.tmp`);
  // DuckDB's defaults suit an interactive session, not a batch job beside a busy JS thread (the
  // threads are set as the instance is made: openForWriting). Memory: the default limit is 80% of
  // RAM, and DuckDB's allocator keeps up to 128 MB a thread of freed memory before it returns any;
  // a limit per thread and freed memory returned from 16 MB keep the peak well below that at the
  // same CPU. A smaller checkpoint threshold costs CPU at each one: walCheckpoint.ts instead.
  // Where DuckDB spills: beside the file, as when it is opened directly (not the working directory).
  await connection.run(`SET temp_directory = ${quotedString(`${resolved}.tmp`)}`);
  await connection.run(`SET memory_limit = '${initialMemoryLimitMb()}MB'`);
  await connection.run("SET checkpoint_threshold = '64MB'");
  // No row-group merging ("vacuum") at the checkpoints during a run. Each batch leaves its last,
  // partial row group behind; merging them rewrites their neighbours too, so the checkpoints of a
  // large export would rewrite much of the file. The checkpoint at the run's close merges once a
  // table (mergeAtClose).
  await connection.run("SET max_vacuum_tasks = 0");
  await connection.run("SET allocator_flush_threshold = '16MB'");
  await connection.run("SET allocator_bulk_deallocation_flush_threshold = '16MB'");
  await createSchema(connection, resolved);
  await finishClassifications(connection, () => releaseCachedBlocks(connection, initialMemoryLimitMb()));
}

/**
 * Tables, views and their comments in one transaction: one commit instead of one per statement at
 * each start, and a crash in the middle leaves no half-made schema (nor a half-moved bookkeeping:
 * an older database's internal tables move once the internal schema exists, before the identity
 * file would make a new id and before the views read them). Skipped when the catalog is the one
 * this version's last application left (schemaState.ts): re-making 33 views and their 365 column
 * comments is most of an open's time, and would change nothing.
 */
async function createSchema(connection: DuckDBConnection, file: string): Promise<void> {
  if (await schemaIsCurrent(connection)) {
    // The id is data, not catalog: made again if its row went, as the full application would.
    await connection.run(schemaStatements("internal/warehouse_id.sql"));
    return;
  }
  await inTransaction(connection, async () => {
    for (const step of SCHEMA_STEPS) {
      if (step === MOVE_INTERNAL_STATE) await moveInternalState(connection);
      else await connection.run(schemaStatements(step));
    }
    await commentWarehouse(connection);
  });
  // Recorded as the next open will read it: DuckDB prints a definition it loaded from the file
  // otherwise than one it has just parsed (`DECIMAL(38, 6)` for `DECIMAL(38,6)`), so the file is
  // closed and attached again. Apart from the schema's commit: a crash between the two only makes
  // the next open apply it again. The file is unlocked for that moment: a process that takes it
  // then makes this open fail as locked, and one that changed it and let go leaves it unrecorded.
  await connection.run("USE memory");
  await connection.run("DETACH warehouse");
  const closed = await fileStamp(file);
  await attachWarehouse(connection, file);
  if ((await fileStamp(file)) === closed) await recordSchema(connection);
  // A database made before the stored billing classes, usage grains and calls' rollup gets them at
  // the end of this open (finishClassifications).
  if (await lacksDerivedRows(connection)) await forgetClassifications(connection);
}

/** What tells a file changed: its inode, size and modification time in nanoseconds. */
async function fileStamp(file: string): Promise<string> {
  const { ino, size, mtimeNs } = await stat(file, { bigint: true });
  return `${ino}:${size}:${mtimeNs}`;
}

interface Opened {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
}

async function openReadOnly(file: string): Promise<Opened> {
  const instance = await openUnlessLocked(file, () =>
    DuckDBInstance.create(file, { access_mode: "READ_ONLY" }),
  );
  return { instance, connection: await instance.connect() };
}

/**
 * The file attached to an in-memory instance as the default database, for its row group size.
 * DuckDB's threads are one fewer than the cores: all of them would take the core that parses and
 * validates, and DuckDB's threads would then spend CPU contending for it. Set as the instance is
 * made, not with SET afterwards, which starts its default threads only to stop one again, and
 * would leave the open's first statements (the ATTACH, the look at the catalog) on two threads.
 */
async function openForWriting(file: string): Promise<Opened> {
  const instance = await DuckDBInstance.create(":memory:", { threads: String(duckdbThreads()) });
  const connection = await instance.connect();
  try {
    await attachWarehouse(connection, file);
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  return { instance, connection };
}

/** Attaches the file as the connection's default database, for writing. */
async function attachWarehouse(connection: DuckDBConnection, file: string): Promise<void> {
  await openUnlessLocked(file, async () => {
    await connection.run(
      `ATTACH ${quotedString(file)} AS warehouse (ROW_GROUP_SIZE ${TABLE_ROW_GROUP_ROWS})`,
    );
    await connection.run("USE warehouse");
  });
}
