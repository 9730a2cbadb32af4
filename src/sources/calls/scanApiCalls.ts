import { writeDirtyPartitions } from "../../destination/partitionWriter.js";
import type { ApiCallLoader } from "../../load/apiCallLoader.js";
import { partitionOf } from "../../load/partitioning.js";
import type { ScopeOwner } from "../../load/warehouseScope.js";
import { withoutFsst } from "../../load/withoutFsst.js";
import type { TransformContext } from "../../transform/apiCallRow.js";
import type { ExportDeps, ExportOptions } from "../exportSettings.js";
import { runSource, type SourceRun } from "../runSource.js";
import { ApiCallsSource } from "./apiCallsSource.js";
import type { FutureCalls } from "./futureCalls.js";
import type { StartPoint } from "./startPoint.js";

/**
 * The most pages one scan reads, whatever the API does: a scan of 100 million calls fits at any
 * page size (the API serves 1 to 10,000 items a page), plus room for short pages.
 */
export function defaultMaxPages(limit: number): number {
  return 10_000 + Math.ceil(100_000_000 / limit);
}

/** What a scan needs from the run around it. */
export interface ScanContext {
  deps: ExportDeps;
  options: ExportOptions;
  loader: ApiCallLoader;
  transform: TransformContext;
  /** Calls dated after the run's clock: the checkpoint notes them as created now. */
  future: FutureCalls;
  /** `kind` groups repeats of one warning (RunWarnings). */
  warn: (message: string, kind?: string) => void;
  /** Whose calls the scan lists (claimRunScope): a call of anyone else stops it. */
  owner: ScopeOwner;
}

export interface ScanResult extends SourceRun {
  /** Parquet partitions the scan wrote once it had passed them. */
  partitionsWritten: number;
  /** created_at of the first call the scan read (ApiCallsSource.firstCreatedAt). */
  firstCreatedAt: string | undefined;
  /** Calls the org's listing returned with another org's org_id (ApiCallsSource.foreignOrgCalls). */
  foreignOrgCalls: number;
}

/**
 * One scan of GET /user/api-calls (or /org/api-calls) from a start point to the end, as the api-calls source run by
 * runSource: pages transformed into rows and rejects, committed in batches with their checkpoint.
 * The scan goes forward in created_at, so the partitions before the last committed call's are
 * complete for this run: they are written while the scan goes on rather than after it (a call
 * listed late dirties its partition again, and the end of the run rewrites it).
 */
export async function scanApiCalls(
  context: ScanContext,
  start: StartPoint,
  knownUser: string | null,
): Promise<ScanResult> {
  const { deps, options } = context;
  const { progress } = deps;
  const source = new ApiCallsSource(
    {
      ...context,
      list: (params) => deps.client.listApiCalls({ ...params, scope: context.owner.scope }),
      warehouse: deps.warehouse,
      secrets: deps.secrets,
      now: deps.now,
      runId: options.runId,
      limit: options.limit,
      maxPages: options.maxPages ?? defaultMaxPages(options.limit),
      lookbackMs: options.lookbackMs,
    },
    start,
    knownUser,
  );
  let partitionsWritten = 0;
  const run = await withoutFsst(deps.warehouse, () =>
    runSource(source, {
      batchRecords: options.batchRecords,
      signal: deps.signal,
      onPage: ({ records, rejected }) => {
        // Records seen, valid or rejected, as the run summary counts them.
        progress.add({ pages: 1, records: records + rejected, rejected });
      },
      afterCommit: async (batch, committed, last) => {
        progress.add({ rejected: committed.refused });
        // After the last batch the run's end writes every partition still dirty.
        if (!last) partitionsWritten += await writePassedPartitions(context, batch.maxCreatedAt);
      },
    }),
  );
  if (run.ended === "stopped")
    context.warn("interrupted: the current batch is committed and the next run resumes from it");
  return {
    ...run,
    partitionsWritten,
    firstCreatedAt: source.firstCreatedAt,
    foreignOrgCalls: source.foreignOrgCalls,
  };
}

/** Writes the api_calls partitions before the one of `committedUpTo`; returns how many. */
async function writePassedPartitions(context: ScanContext, committedUpTo: string | null): Promise<number> {
  if (committedUpTo === null) return 0;
  const { deps, options, warn } = context;
  return await writeDirtyPartitions(deps.warehouse, {
    dataset: "api_calls",
    target: deps.target,
    partitioning: options.partitioning,
    runId: options.runId,
    before: partitionOf(options.partitioning, committedUpTo),
    onPartition: () => deps.progress.add({ partitions: 1 }),
    onWarning: warn,
  });
}
