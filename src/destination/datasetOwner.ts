import { link, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import type { Warehouse } from "../load/database.js";
import { removeOrphanedTemporariesOf, temporaryBeside } from "../load/orphanedTemporaries.js";
import { asStorageError } from "../load/storageError.js";

/**
 * The file at the root of --out naming the warehouse that writes the dataset. Parquet readers skip
 * files whose names start with "_" or "." (Spark, Hive, Trino, DuckDB globs of `*.parquet`).
 */
export const OWNER_FILE = "_zoo_usage_owner.json";

export interface OwnerRecord {
  warehouse_id: string;
  database: string;
  claimed_at: string;
}

/**
 * Makes sure --out belongs to this warehouse before anything is written into it. Two databases
 * writing one dataset overwrite each other's partitions (each rewrites a partition from its own
 * rows), so a dataset owned by another warehouse is refused. A dataset without an owner file (new,
 * or written by a version before owner files) is claimed. A warehouse that moved keeps its dataset:
 * the owner is the warehouse's id, the path is only for messages.
 */
export async function claimDataset(warehouse: Warehouse, outDir: string, now: Date): Promise<void> {
  const warehouseId = await readWarehouseId(warehouse);
  const file = path.join(outDir, OWNER_FILE);
  const claim: OwnerRecord = {
    warehouse_id: warehouseId,
    database: warehouse.path,
    claimed_at: now.toISOString(),
  };
  await removeOrphanedTemporariesOf(file);
  let owner = await readOwner(file);
  if (owner === undefined) {
    if (await createExclusively(file, claim)) return;
    // Another process claimed it between the read and the create: its claim stands.
    owner = await readOwner(file);
  }
  if (owner?.warehouse_id === warehouseId) {
    if (owner.database !== warehouse.path) await replace(file, claim);
    return;
  }
  throw ownedByOther(outDir, file, owner, warehouse.path);
}

export function ownedByOther(
  outDir: string,
  file: string,
  owner: OwnerRecord | undefined,
  database: string,
): ZooUsageError {
  return new ZooUsageError({
    code: "output.other_warehouse",
    message: `The Parquet dataset in ${outDir} belongs to another database: ${owner?.database ?? "unknown"} (warehouse ${owner?.warehouse_id ?? "unknown"}), not ${database}`,
    hint: `Two databases writing one dataset overwrite each other's partitions. Choose another --out for this database; or, if the other database is gone for good, delete ${file} (the next export then writes every partition of this database).`,
  });
}

/**
 * The check of claimDataset that needs no database, made before a new database file is created:
 * a database that does not exist yet is not the owner of a dataset that has one.
 */
export async function assertDatasetFreeForNewDatabase(dbPath: string, outDir: string): Promise<void> {
  if (
    await stat(dbPath).then(
      () => true,
      () => false,
    )
  )
    return;
  const file = path.join(outDir, OWNER_FILE);
  const owner = await readOwner(file);
  if (owner !== undefined) throw ownedByOther(outDir, file, owner, path.resolve(dbPath));
}

export async function readWarehouseId(warehouse: Warehouse): Promise<string> {
  const reader = await warehouse.connection.runAndReadAll(
    "SELECT warehouse_id FROM internal.warehouse_identity",
  );
  const id = reader.getRows()[0]?.[0];
  if (typeof id !== "string") throw new Error(`${warehouse.path} has no warehouse id`);
  return id;
}

async function readOwner(file: string): Promise<OwnerRecord | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw ownerFileError(file, (error as Error).message, error);
  }
  return parseOwner(text, file);
}

/** An owner file's text as a record; `where` names the file (or object) in the error. */
export function parseOwner(text: string, where: string): OwnerRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw ownerFileError(where, "it is not JSON", error);
  }
  const record = parsed as Partial<OwnerRecord> | null;
  if (typeof record?.warehouse_id !== "string" || typeof record.database !== "string") {
    throw ownerFileError(where, "it has no warehouse_id and database", undefined);
  }
  return {
    warehouse_id: record.warehouse_id,
    database: record.database,
    claimed_at: String(record.claimed_at),
  };
}

/** Writes the claim beside the file, then links it in: link fails if the file appeared meanwhile. */
async function createExclusively(file: string, claim: OwnerRecord): Promise<boolean> {
  const temporary = await writeTemporary(file, claim);
  try {
    await link(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw asStorageError(error, `the dataset's owner file ${file}`);
  } finally {
    await rm(temporary, { force: true });
  }
}

async function replace(file: string, claim: OwnerRecord): Promise<void> {
  const temporary = await writeTemporary(file, claim);
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw asStorageError(error, `the dataset's owner file ${file}`);
  }
}

async function writeTemporary(file: string, claim: OwnerRecord): Promise<string> {
  const temporary = temporaryBeside(file);
  try {
    await writeFile(temporary, `${JSON.stringify(claim, null, 2)}\n`, { flag: "wx" });
  } catch (error) {
    await rm(temporary, { force: true });
    throw asStorageError(error, `the dataset's owner file ${file}`);
  }
  return temporary;
}

function ownerFileError(file: string, why: string, cause: unknown): ZooUsageError {
  return new ZooUsageError({
    code: "output.other_warehouse",
    message: `Cannot read or write the dataset's owner file ${file}: ${why}`,
    hint: "It records which database writes this --out. Delete it if this database is the only one writing there; otherwise choose another --out.",
    cause,
  });
}
