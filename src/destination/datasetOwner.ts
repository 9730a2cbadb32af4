import { stat } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import type { Warehouse } from "../load/database.js";
import { foreignText } from "../log/printable.js";

/**
 * The marker at the root of --out naming the warehouse that writes the dataset. Parquet readers
 * skip files whose names start with "_" or "." (Spark, Hive, Trino, DuckDB globs of `*.parquet`).
 */
export const OWNER_FILE = "_zoo_usage_owner.json";

/**
 * What the marker holds. Every reader of the dataset can read it, so it holds no local path:
 * `database` is the database file's base name, for messages only (a marker holding a whole path
 * is shown by its base name, and rewritten by its owner's next claim).
 */
export interface OwnerRecord {
  warehouse_id: string;
  database: string;
  claimed_at: string;
}

/** Where the marker is kept: a file in a directory (localOwnerMarker.ts) or an object (s3OwnerMarker.ts). */
export interface OwnerMarker {
  /** The dataset (the directory, or s3://bucket/prefix), for messages. */
  readonly dataset: string;
  /** The marker itself, for messages. */
  readonly location: string;
  read(): Promise<OwnerRecord | undefined>;
  /** Writes the marker unless one exists: false when one did (another claim came first). */
  create(text: string): Promise<boolean>;
  replace(text: string): Promise<void>;
  remove(): Promise<void>;
}

/** A claim that held: the warehouse writing --out, and whether this run made the marker. */
export interface DatasetClaim {
  warehouseId: string;
  database: string;
  created: boolean;
}

/**
 * Makes sure --out belongs to this warehouse before anything is written into it. Two databases
 * writing one dataset overwrite each other's partitions (each rewrites a partition from its own
 * rows), so a dataset owned by another warehouse is refused. A dataset without a marker is claimed
 * (a foreign one was refused when --out was opened, foreignObjects.ts), and the marker is read
 * back: on a store that takes the exclusive create as a plain write, the later of two claims wins
 * and the earlier one stops here, or at its first write (assertStillOwned). A warehouse that moved
 * keeps its dataset: the owner is the warehouse's id, the name only for messages.
 */
export async function claimDataset(
  warehouse: Warehouse,
  marker: OwnerMarker,
  now: Date,
): Promise<DatasetClaim> {
  const warehouseId = await readWarehouseId(warehouse);
  const claim: OwnerRecord = {
    warehouse_id: warehouseId,
    database: path.basename(warehouse.path),
    claimed_at: now.toISOString(),
  };
  const text = `${JSON.stringify(claim, null, 2)}\n`;
  let owner = await marker.read();
  let created = false;
  if (owner === undefined) {
    created = await marker.create(text);
    // Read back whether created or not: the claim that stands is the one the marker holds.
    owner = await marker.read();
  }
  if (owner?.warehouse_id !== warehouseId) throw ownedByOther(marker, owner, warehouse.path);
  if (!created && owner.database !== claim.database) await marker.replace(text);
  return { warehouseId, database: warehouse.path, created };
}

/**
 * The claim checked again before a write into --out: a warehouse whose marker was replaced since
 * it claimed (another claim on a store without exclusive creates, or a marker deleted and taken)
 * stops before it writes anything more.
 */
export async function assertStillOwned(marker: OwnerMarker, claim: DatasetClaim): Promise<void> {
  const owner = await marker.read();
  if (owner?.warehouse_id !== claim.warehouseId) throw ownedByOther(marker, owner, claim.database);
}

export function ownedByOther(
  marker: OwnerMarker,
  owner: OwnerRecord | undefined,
  database: string,
): ZooUsageError {
  const theirs =
    owner === undefined
      ? "no warehouse (its owner marker is gone)"
      : `${foreignText(path.basename(owner.database))} (warehouse ${foreignText(owner.warehouse_id)})`;
  return new ZooUsageError({
    code: "output.other_warehouse",
    message: `The Parquet dataset in ${marker.dataset} belongs to another database: ${theirs}, not ${database}`,
    hint: `Two databases writing one dataset overwrite each other's partitions. Choose another --out for this database; or, if the other database is gone for good, delete ${marker.location} and run again with --adopt-out (the export then writes every partition of this database).`,
  });
}

/**
 * The check of claimDataset that needs no database, made before a new database file is created:
 * a database that does not exist yet is not the owner of a dataset that has one.
 */
export async function assertDatasetFreeForNewDatabase(dbPath: string, marker: OwnerMarker): Promise<void> {
  const exists = await stat(dbPath).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const owner = await marker.read();
  if (owner !== undefined) throw ownedByOther(marker, owner, path.resolve(dbPath));
}

export async function readWarehouseId(warehouse: Warehouse): Promise<string> {
  const reader = await warehouse.connection.runAndReadAll(
    "SELECT warehouse_id FROM internal.warehouse_identity",
  );
  const id = reader.getRows()[0]?.[0];
  if (typeof id !== "string") throw new Error(`${warehouse.path} has no warehouse id`);
  return id;
}

/** A marker's text as a record; `where` names the file (or object) in the error. */
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

export function ownerFileError(where: string, why: string, cause: unknown): ZooUsageError {
  return new ZooUsageError({
    code: "output.other_warehouse",
    message: `Cannot read or write the dataset's owner marker ${where}: ${why}`,
    hint: "It records which database writes this --out. Delete it if this database is the only one writing there; otherwise choose another --out.",
    cause,
  });
}
