import { mkdir } from "node:fs/promises";
import { markMissingPartitions } from "../destination/partitionWriter.js";
import { S3ListingAnomaly } from "../destination/s3ListingGuard.js";
import { ApiCallLoader } from "../load/apiCallLoader.js";
import { clampHighWater, readCheckpoint } from "../load/checkpoint.js";
import { startRun } from "../load/runHistory.js";
import { reconcileSettings } from "../load/storedSettings.js";
import { isoTime } from "../log/isoTime.js";
import { CLOCK_TOLERANCE_MS, FutureCalls } from "../sources/calls/futureCalls.js";
import type { ScanContext } from "../sources/calls/scanApiCalls.js";
import { chooseStartPoint } from "../sources/calls/startPoint.js";
import type { ExportDeps, ExportOptions } from "../sources/exportSettings.js";
import type { RunContext } from "../sources/runContext.js";
import type { TransformContext } from "../transform/apiCallRow.js";
import { EndpointTemplater } from "../transform/endpointTemplate.js";
import { claimRunScope } from "./scopeOwner.js";

/** The Parquet datasets, each partitioned by the UTC month or day of its time column. */
export const DATASETS = [
  { dataset: "api_calls", table: "api_calls", timeColumn: "created_at" },
  { dataset: "async_operations", table: "async_operations", timeColumn: "call_created_at" },
] as const;

/**
 * Before the first request: the warehouse's scope and owner claimed, the run recorded as started,
 * the stored position read (a far-future high-water mark brought back), the settings reconciled,
 * the partitions missing from the dataset marked to be written, and the start point chosen.
 * Returns what the sources run with: the scan's loader, transform context and clock bounds too.
 * A bucket whose listing does not advance (S3ListingAnomaly) does not stop the sources: it is
 * returned as `listingAnomaly`, and the run writes no Parquet.
 */
export async function prepareRun(
  deps: ExportDeps,
  options: ExportOptions,
  startedAt: Date,
  warn: (message: string, kind?: string) => void,
): Promise<RunContext & { listingAnomaly: S3ListingAnomaly | undefined }> {
  const { warehouse, logger } = deps;
  const owner = await claimRunScope(deps, options);
  await mkdir(options.spoolDir, { recursive: true, mode: 0o700 });
  await startRun(warehouse, options.runId, startedAt);
  const clampedFrom = await clampHighWater(warehouse, startedAt, CLOCK_TOLERANCE_MS);
  if (clampedFrom !== undefined)
    warn(
      `the stored high-water mark ${clampedFrom} was after this run's clock; it is now ${isoTime(startedAt)}, so the lookback window reads recent calls again`,
    );
  const checkpoint = await readCheckpoint(warehouse);
  const settingsNote = await reconcileSettings(warehouse, options);
  if (settingsNote !== undefined) logger.info(settingsNote);
  const listingAnomaly = await markMissingPartitionsOf(deps, options);
  const transform: TransformContext = {
    templater: new EndpointTemplater(),
    secrets: deps.secrets,
    privacy: options.privacy,
    maxPriceUsd: options.maxPriceUsd,
  };
  const loader = new ApiCallLoader(warehouse, { ...options, transform, onWarning: warn, now: deps.now });
  const calls: ScanContext = {
    deps,
    options,
    loader,
    transform,
    future: new FutureCalls(startedAt),
    warn,
    owner,
  };
  const start = await chooseStartPoint(warehouse, checkpoint, {
    fullRefresh: options.fullRefresh,
    lookbackMs: options.lookbackMs,
    secrets: deps.secrets,
  });
  // A stored resume position this run cannot use is said out loud; --full-refresh drops it by choice.
  if (start.mode === "full" && checkpoint.resumeToken !== null && !options.fullRefresh) warn(start.reason);
  logger.info(`scan: ${start.reason}`);
  return { deps, options, warn, startedAt, owner, checkpoint, start, calls, listingAnomaly };
}

/** Marks the partitions missing from --out to be written; a bucket's listing anomaly is returned. */
async function markMissingPartitionsOf(
  deps: ExportDeps,
  options: ExportOptions,
): Promise<S3ListingAnomaly | undefined> {
  for (const dataset of DATASETS) {
    let missing: number;
    try {
      missing = await markMissingPartitions(deps.warehouse, {
        ...dataset,
        target: deps.target,
        partitioning: options.partitioning,
      });
    } catch (error) {
      if (error instanceof S3ListingAnomaly) return error;
      throw error;
    }
    if (missing > 0)
      deps.logger.info(
        `${missing} ${dataset.dataset} partition(s) missing from ${options.outDir}; they will be written`,
      );
  }
  return undefined;
}
