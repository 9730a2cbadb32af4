import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { DatasetTarget, UploadStats } from "./datasetTarget.js";
import type { DatasetListing } from "./foreignObjects.js";
import { PARTITION_FILE } from "./localDataset.js";
import { parquetProblem } from "./parquetShape.js";
import type { S3Bucket } from "./s3Bucket.js";

/**
 * The datasets under a bucket prefix, in the local layout. A partition's file is written by DuckDB
 * into a local staging directory, then uploaded as one object: S3 makes a PUT, or a completed
 * multipart upload, visible whole, so a reader sees the old object or the new one. The caller
 * clears a partition's dirty mark only after `publish` returns, that is after S3 confirmed it.
 */
export function s3Dataset(
  bucket: S3Bucket,
  options: { stagingDir: string; now: () => number },
): DatasetTarget {
  const stats: UploadStats = { objects: 0, bytes: 0, seconds: 0, deleted: 0 };
  const partitionKey = (dataset: string, partition: string) => bucket.key(dataset, partition, PARTITION_FILE);
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = options.now();
    try {
      return await work();
    } finally {
      stats.seconds += (options.now() - started) / 1000;
    }
  };
  /** The partition objects of a dataset, `<partition>/data.parquet` with their sizes. */
  const partitionObjects = async (dataset: string) => {
    const datasetPrefix = `${bucket.key(dataset)}/`;
    const objects: { partition: string; key: string; size: number }[] = [];
    for (const { key, size } of await bucket.objectsUnder(dataset)) {
      const [partition, file, ...rest] = key.slice(datasetPrefix.length).split("/");
      if (partition?.includes("=") && file === PARTITION_FILE && rest.length === 0)
        objects.push({ partition, key, size });
    }
    return objects;
  };
  return {
    location: bucket.url,
    datasetLocation: (dataset) => `${bucket.url}/${dataset}`,
    partitionLocation: (dataset, partition) =>
      `s3://${bucket.location.bucket}/${partitionKey(dataset, partition)}`,
    async presentPartitions(dataset) {
      return new Set((await partitionObjects(dataset)).map((object) => object.partition));
    },
    async checkPartitions(dataset) {
      const checks = [];
      for (const object of await partitionObjects(dataset)) {
        const ends = await bucket.objectEnds(object.key, object.size);
        checks.push({ partition: object.partition, problem: parquetProblem(ends) });
      }
      return checks;
    },
    async stage(dataset, partition) {
      const dir = path.join(options.stagingDir, dataset, partition);
      await mkdir(dir, { recursive: true });
      return path.join(dir, PARTITION_FILE);
    },
    async publish(staged, dataset, partition) {
      const bytes = await timed(() => bucket.uploadFile(partitionKey(dataset, partition), staged));
      stats.objects += 1;
      stats.bytes += bytes;
      await rm(staged, { force: true });
    },
    async remove(dataset, partition) {
      await timed(() => bucket.delete(partitionKey(dataset, partition)));
      stats.deleted += 1;
    },
    async discard(staged) {
      await rm(staged, { force: true });
    },
    uploads: () => ({ ...stats }),
  };
}

/**
 * The objects under a bucket prefix, for the checks of a new one (foreignObjects.ts). The
 * program's own there, outside the datasets: the write probe (`probeName`), and the empty "folder"
 * objects (keys ending in "/") that consoles make and readers skip.
 */
export function s3Listing(bucket: S3Bucket, probeName: string): DatasetListing {
  const root = bucket.key();
  return {
    noun: "object",
    list: async () =>
      (await bucket.keysUnder()).map((key) => (root === "" ? key : key.slice(root.length + 1))),
    isOwn: (name) => name === probeName || name === "" || name.endsWith("/"),
  };
}
