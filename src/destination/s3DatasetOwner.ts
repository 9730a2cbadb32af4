import { stat } from "node:fs/promises";
import path from "node:path";
import type { Warehouse } from "../load/database.js";
import { OWNER_FILE, type OwnerRecord, ownedByOther, parseOwner, readWarehouseId } from "./datasetOwner.js";
import type { S3Bucket } from "./s3Bucket.js";

/**
 * claimDataset for a bucket prefix: the owner marker is the object `<prefix>/_zoo_usage_owner.json`,
 * with the local owner file's content and meaning. A new marker is created with a conditional put
 * (If-None-Match: *), so of two warehouses claiming a new prefix at once only one wins.
 */
export async function claimS3Dataset(warehouse: Warehouse, bucket: S3Bucket, now: Date): Promise<void> {
  const warehouseId = await readWarehouseId(warehouse);
  const key = bucket.key(OWNER_FILE);
  const claim: OwnerRecord = {
    warehouse_id: warehouseId,
    database: warehouse.path,
    claimed_at: now.toISOString(),
  };
  const text = `${JSON.stringify(claim, null, 2)}\n`;
  let owner = await readS3Owner(bucket);
  if (owner === undefined) {
    if (await bucket.writeText(key, text, { onlyIfAbsent: true })) return;
    // Another warehouse claimed it between the read and the put: its claim stands.
    owner = await readS3Owner(bucket);
  }
  if (owner?.warehouse_id === warehouseId) {
    if (owner.database !== warehouse.path) await bucket.writeText(key, text);
    return;
  }
  throw ownedByOther(bucket.url, `${bucket.url}/${OWNER_FILE}`, owner, warehouse.path);
}

/** assertDatasetFreeForNewDatabase for a bucket prefix: checked before a new database is created. */
export async function assertS3DatasetFreeForNewDatabase(dbPath: string, bucket: S3Bucket): Promise<void> {
  const exists = await stat(dbPath).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const owner = await readS3Owner(bucket);
  if (owner !== undefined)
    throw ownedByOther(bucket.url, `${bucket.url}/${OWNER_FILE}`, owner, path.resolve(dbPath));
}

async function readS3Owner(bucket: S3Bucket): Promise<OwnerRecord | undefined> {
  const key = bucket.key(OWNER_FILE);
  const text = await bucket.readText(key);
  return text === undefined ? undefined : parseOwner(text, `${bucket.url}/${OWNER_FILE}`);
}
