import { OperationLoader } from "../load/operationLoader.js";
import { isoTime } from "../log/isoTime.js";
import { counted } from "../log/plural.js";
import { apiCalls } from "./apiCalls.js";
import type { CallsDetails } from "./calls/scanWithFallback.js";
import type { DeclaredSource, SourceResult } from "./declaredSource.js";
import { fetchOperations, type OperationFetchResult } from "./operations/fetchOperations.js";

/**
 * The async operations the exported calls started (GET /async/operations/{id}), fetched
 * concurrently at an adaptive pace for calls inside --operations-window (and every stored one not
 * yet final), upserted in batches; a 404 is stored as not found and never asked again.
 */
export const asyncOperations: DeclaredSource<OperationFetchResult, CallsDetails> = {
  name: "async operations",
  reads: "GET /async/operations/{id}",
  lands: "async_operations",
  disposition: "merge on `id`",
  position: "operations stored final are not asked again",
  optional: false,
  needs: apiCalls,
  phase: "operations",
  progress: "fetching operations",
  run: async (context): Promise<SourceResult<OperationFetchResult>> => {
    const { deps, options, startedAt, warn } = context;
    const nothing = { pages: 0, seen: 0, inserted: 0, updated: 0, rejected: 0 };
    if (!options.operations) return { counts: nothing, ended: "complete", details: undefined };
    deps.progress.update({ counting: "operations" });
    const fetched = await fetchOperations(
      {
        ...deps,
        loader: new OperationLoader(deps.warehouse, { ...options, now: deps.now, onWarning: warn }),
      },
      {
        runId: options.runId,
        concurrency: options.operationsConcurrency,
        // From the run's clock, as FutureCalls measures: a call dated in the future cannot move it.
        windowStart:
          options.operationsWindowMs === null
            ? null
            : isoTime(new Date(startedAt.getTime() - options.operationsWindowMs)),
      },
    );
    const counts = {
      ...nothing,
      seen: fetched.fetched,
      inserted: fetched.changed,
      rejected: fetched.rejected,
    };
    return { counts, ended: "complete", details: fetched };
  },
  summarize: (summary, { details }) => {
    if (details !== undefined) summary.operations = details;
  },
  describe: ({ operations }) =>
    operations === undefined
      ? []
      : [
          `  async operations fetched ${operations.fetched} (${operations.changed} changed, ${operations.not_found} not found, ${operations.rejected} rejected)`,
          ...(operations.skipped_outside_window === 0
            ? []
            : [
                `  async operations of ${counted(operations.skipped_outside_window, "call")} created before ${operations.window_start} left out (outside --operations-window; --operations all fetches them)`,
              ]),
        ],
};
