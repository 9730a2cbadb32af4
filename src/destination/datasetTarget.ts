/** What a run sent to object storage: the summary's `upload`. */
export interface UploadStats {
  /** Partition objects uploaded (each one replaced whole). */
  objects: number;
  bytes: number;
  /** Wall time spent uploading and deleting. */
  seconds: number;
  /** Partition objects deleted: partitions left with no rows. */
  deleted: number;
}

/** One partition's file as a check found it: `problem` says why it is not readable Parquet. */
export interface PartitionCheck {
  /** The directory name: "created_month=2024-05". */
  partition: string;
  problem: string | undefined;
}

/**
 * Where the Parquet datasets are written: a local directory (localDataset.ts) or a bucket prefix
 * (s3Dataset.ts). Both hold the same layout, `<dataset>/<column>=<value>/data.parquet`; the
 * partition writer makes each file with DuckDB into `stage`, then `publish` makes it the
 * partition's file whole, or `remove` drops a partition left with no rows.
 */
export interface DatasetTarget {
  /** The directory, or s3://bucket/prefix: for messages and the summary. */
  readonly location: string;
  /** A dataset's location, for messages. */
  datasetLocation(dataset: string): string;
  /** The partitions of a dataset (directory names, "created_month=2024-05") that hold a file. */
  presentPartitions(dataset: string): Promise<Set<string>>;
  /**
   * Every partition file of a dataset checked for a whole Parquet frame (size, the magic at both
   * ends, a footer that fits: parquetShape.ts), reading only its two ends.
   */
  checkPartitions(dataset: string): Promise<PartitionCheck[]>;
  /** A path to write a partition's new file to before it is published. */
  stage(dataset: string, partition: string, runId: string): Promise<string>;
  /** Makes the staged file the partition's file, whole. */
  publish(staged: string, dataset: string, partition: string): Promise<void>;
  /** Removes a partition's file; a partition that has none is fine. */
  remove(dataset: string, partition: string): Promise<void>;
  /** Drops a staged file after a failure. */
  discard(staged: string): Promise<void>;
  /** The partition file's name as messages show it. */
  partitionLocation(dataset: string, partition: string): string;
  /** What was uploaded, for a bucket; undefined for a directory. */
  uploads(): UploadStats | undefined;
}
