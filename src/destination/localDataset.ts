import { mkdir, open, readdir, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { WRITE_PROBE } from "../load/preflight.js";
import { OWNER_FILE } from "./datasetOwner.js";
import type { DatasetTarget } from "./datasetTarget.js";
import type { DatasetListing } from "./foreignObjects.js";
import { type ObjectEnds, PARQUET_HEAD_BYTES, PARQUET_TAIL_BYTES, parquetProblem } from "./parquetShape.js";

/** One file per partition, always this name: replacing it is a single atomic rename. */
export const PARTITION_FILE = "data.parquet";

/**
 * The datasets in a local directory. A partition's file is written beside its final name (a
 * dot-file, which Spark, Hive, Trino and DuckDB globs ignore), then renamed over it: a reader sees
 * the old file or the new one, never a partial, missing or doubled partition.
 */
export function localDataset(outDir: string): DatasetTarget {
  const partitionDir = (dataset: string, partition: string) => path.join(outDir, dataset, partition);
  const partitionFile = (dataset: string, partition: string) =>
    path.join(partitionDir(dataset, partition), PARTITION_FILE);
  const presentPartitions = async (dataset: string) => {
    const present = new Set<string>();
    const datasetDir = path.join(outDir, dataset);
    for (const entry of await readdir(datasetDir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || !entry.name.includes("=")) continue;
      const files = await readdir(path.join(datasetDir, entry.name)).catch(() => [] as string[]);
      if (files.includes(PARTITION_FILE)) present.add(entry.name);
    }
    return present;
  };
  return {
    location: outDir,
    datasetLocation: (dataset) => path.join(outDir, dataset),
    partitionLocation: partitionFile,
    presentPartitions,
    async checkPartitions(dataset) {
      const checks = [];
      for (const partition of [...(await presentPartitions(dataset))].sort()) {
        const ends = await fileEnds(partitionFile(dataset, partition));
        checks.push({ partition, problem: parquetProblem(ends) });
      }
      return checks;
    },
    async stage(dataset, partition, runId) {
      const dir = partitionDir(dataset, partition);
      await mkdir(dir, { recursive: true });
      return path.join(dir, `.${PARTITION_FILE}.${runId}.tmp`);
    },
    async publish(staged, dataset, partition) {
      await rename(staged, partitionFile(dataset, partition));
    },
    async remove(dataset, partition) {
      await rm(partitionFile(dataset, partition), { force: true });
      // The directory goes too when nothing else is in it, so that no reader sees an empty partition.
      await rmdir(partitionDir(dataset, partition)).catch(() => {});
    },
    async discard(staged) {
      await rm(staged, { force: true });
    },
    uploads: () => undefined,
  };
}

/** A file's size and its two ends, read without reading the rest. */
async function fileEnds(file: string): Promise<ObjectEnds> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(PARQUET_HEAD_BYTES, size));
    const tail = Buffer.alloc(Math.min(PARQUET_TAIL_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    await handle.read(tail, 0, tail.length, size - tail.length);
    return { size, head, tail };
  } finally {
    await handle.close();
  }
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
 * The files under a local --out, for the check of a new one (foreignObjects.ts). The program's own
 * there, outside the datasets: a write probe of a running check, a claim's temporary marker.
 */
export function localListing(outDir: string): DatasetListing {
  return {
    noun: "file",
    list: () => filesUnder(outDir, ""),
    isOwn: (name) => WRITE_PROBE.test(name) || OWNER_TEMPORARY.test(name),
  };
}

const OWNER_TEMPORARY = new RegExp(`^\\.${OWNER_FILE.replace(/\./g, "\\.")}\\.\\d+\\.[0-9a-f]+\\.tmp$`);

/** Every file (anything but a directory) under `dir`, named relative to the walk's root; none for a missing directory. */
async function filesUnder(dir: string, relative: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return [];
    throw error;
  });
  const files: string[] = [];
  for (const entry of entries) {
    const name = relative === "" ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await filesUnder(path.join(dir, entry.name), name)));
    else files.push(name);
  }
  return files;
}
