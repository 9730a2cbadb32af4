import type { RetryPolicy } from "../api/retryPolicy.js";
import type { Warehouse } from "../load/database.js";
import { assertWritableDirectory, type RunDirectory } from "../load/preflight.js";
import { assertDatasetFreeForNewDatabase, claimDataset } from "./datasetOwner.js";
import type { DatasetTarget } from "./datasetTarget.js";
import { localDataset, removeStalePartitionFiles } from "./localDataset.js";
import { openS3Bucket } from "./s3Bucket.js";
import { s3Dataset } from "./s3Dataset.js";
import { assertS3DatasetFreeForNewDatabase, claimS3Dataset } from "./s3DatasetOwner.js";
import { isS3Url, parseS3Url } from "./s3Location.js";
import type { S3Settings } from "./s3Settings.js";

/** The --out of a run, checked and ready: the datasets' target and what the run does with it. */
export interface ExportDestination {
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
 * the API is touched. The run's stop (`effects.stop`) abandons the bucket's requests, this check's
 * too.
 */
export async function openDestination(
  config: { outDir: string; s3: S3Settings },
  effects: { retry: RetryPolicy; now: () => number; stagingDir: string; stop: AbortSignal },
): Promise<ExportDestination> {
  if (!isS3Url(config.outDir)) {
    await assertWritableDirectory(config.outDir, "--out");
    return {
      target: localDataset(config.outDir),
      directories: [{ dir: config.outDir, flag: "--out" }],
      assertFreeForNewDatabase: (dbPath) => assertDatasetFreeForNewDatabase(dbPath, config.outDir),
      claim: async (warehouse, now) => {
        await claimDataset(warehouse, config.outDir, now);
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
  } catch (error) {
    bucket.close();
    throw error;
  }
  return {
    target: s3Dataset(bucket, { stagingDir: effects.stagingDir, now: effects.now }),
    directories: [],
    assertFreeForNewDatabase: (dbPath) => assertS3DatasetFreeForNewDatabase(dbPath, bucket),
    claim: (warehouse, now) => claimS3Dataset(warehouse, bucket, now),
    close: () => bucket.close(),
  };
}
