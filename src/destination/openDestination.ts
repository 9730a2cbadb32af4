import type { RetryPolicy } from "../api/retryPolicy.js";
import type { Warehouse } from "../load/database.js";
import { removeOrphanedTemporariesOf } from "../load/orphanedTemporaries.js";
import { assertWritableDirectory, type RunDirectory } from "../load/preflight.js";
import { assertDatasetFreeForNewDatabase, claimDataset } from "./datasetOwner.js";
import type { DatasetTarget } from "./datasetTarget.js";
import { assertNoForeignObjects, assertNoNewObjects } from "./foreignObjects.js";
import { localDataset, localListing, removeStalePartitionFiles } from "./localDataset.js";
import { localOwnerMarker } from "./localOwnerMarker.js";
import { guardedByOwner } from "./ownerGuard.js";
import { openS3Bucket } from "./s3Bucket.js";
import { s3Dataset, s3Listing } from "./s3Dataset.js";
import { isS3Url, parseS3Url } from "./s3Location.js";
import { s3OwnerMarker } from "./s3OwnerMarker.js";
import type { S3Settings } from "./s3Settings.js";

/** The --out of a run, checked and ready: the datasets' target and what the run does with it. */
export interface ExportDestination {
  /** Every write into it is preceded by a look at the owner marker (ownerGuard.ts). */
  target: DatasetTarget;
  /** The local directories the run makes once every check passed (none for a bucket). */
  directories: RunDirectory[];
  /** Refuses a dataset another warehouse owns, before a new database file is created. */
  assertFreeForNewDatabase(dbPath: string): Promise<void>;
  /** Claims the dataset for the open warehouse, then removes what killed runs left in it. */
  claim(warehouse: Warehouse, now: Date): Promise<void>;
  close(): void;
}

/** The probe object of the bucket check: readers skip names that start with "_". */
const S3_PROBE = "_zoo_usage_write_check";

/**
 * Opens --out before any data work, creating nothing: a directory is checked writable (the run
 * makes it later); a bucket prefix is listed and written to (a probe object put and deleted), so
 * that wrong credentials, a missing bucket or refused access fail the run before the database or
 * the API is touched. A new --out (no owner marker) holding what this export did not write is
 * refused then too, unless `adoptOut` (foreignObjects.ts). The run's stop (`effects.stop`) abandons
 * the bucket's requests, this check's too.
 */
export async function openDestination(
  config: { outDir: string; s3: S3Settings; adoptOut: boolean },
  effects: { retry: RetryPolicy; now: () => number; stagingDir: string; stop: AbortSignal },
): Promise<ExportDestination> {
  const adopt = { adopt: config.adoptOut };
  if (!isS3Url(config.outDir)) {
    await assertWritableDirectory(config.outDir, "--out");
    const marker = localOwnerMarker(config.outDir);
    await assertNoForeignObjects(marker, localListing(config.outDir), adopt);
    // A local marker is created exclusively (a link): one claim wins, and it is the one read back.
    const guarded = guardedByOwner(localDataset(config.outDir), marker);
    return {
      target: guarded.target,
      directories: [{ dir: config.outDir, flag: "--out" }],
      assertFreeForNewDatabase: (dbPath) => assertDatasetFreeForNewDatabase(dbPath, marker),
      claim: async (warehouse, now) => {
        // What a claim killed between its write and its link left of the marker goes first.
        await removeOrphanedTemporariesOf(marker.location);
        guarded.claimed(await claimDataset(warehouse, marker, now));
        await removeStalePartitionFiles(config.outDir);
      },
      close: () => {},
    };
  }
  const location = parseS3Url(config.outDir);
  // The config accepts only a parsed location: this is a programming error, not a user's.
  if ("error" in location) throw new Error(`--out ${config.outDir}: ${location.error}`);
  const bucket = await openS3Bucket(location, config.s3, effects.retry, effects.now, { stop: effects.stop });
  try {
    await bucket.preflight(S3_PROBE);
    const marker = s3OwnerMarker(bucket);
    const listing = s3Listing(bucket, S3_PROBE);
    const before = await assertNoForeignObjects(marker, listing, adopt);
    // A store may ignore the marker's conditional put: a run that made the marker also finds
    // another new claim's objects before its first upload.
    const guarded = guardedByOwner(s3Dataset(bucket, effects), marker, async (claim) => {
      if (claim.created && before !== undefined) await assertNoNewObjects(marker, listing, before, claim);
    });
    return {
      target: guarded.target,
      directories: [],
      assertFreeForNewDatabase: (dbPath) => assertDatasetFreeForNewDatabase(dbPath, marker),
      claim: async (warehouse, now) => guarded.claimed(await claimDataset(warehouse, marker, now)),
      close: () => bucket.close(),
    };
  } catch (error) {
    bucket.close();
    throw error;
  }
}
