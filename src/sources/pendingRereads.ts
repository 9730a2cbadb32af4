import { readCheckpoint } from "../load/checkpoint.js";
import { type PendingRereads, rereadPending } from "./calls/rereadPending.js";
import type { CallsDetails } from "./calls/scanWithFallback.js";
import type { DeclaredSource, SourceResult } from "./declaredSource.js";

/**
 * The stored calls still pending billing that the scan no longer reaches (older than the lookback
 * window), re-read one by one (GET /user/api-calls/{id} or /org/api-calls/{id}) and updated in
 * place: Zoo fills in price and stripe_invoice_item_id when it bills, which can be at month end.
 * Only after a scan that ended well and was not a full scan (which has just read every call).
 */
export const pendingRereads: DeclaredSource<PendingRereads> = {
  name: "pending re-reads",
  reads: "GET /{user,org}/api-calls/{id}",
  lands: "api_calls",
  disposition: { kind: "update", key: "id" },
  position: "internal.pending_rereads (when each call was last asked)",
  optional: false,
  needs: ["api calls"],
  phase: "scan",
  progress: "re-reading calls pending billing",
  run: async (context, earlier): Promise<SourceResult<PendingRereads>> => {
    const { deps, options, checkpoint, calls } = context;
    const scan = earlier.get("api calls")?.details as CallsDetails | undefined;
    const stored = checkpoint.highWaterCreated;
    const nothing = {
      counts: { pages: 0, seen: 0, inserted: 0, updated: 0, rejected: 0 },
      ended: "complete" as const,
      details: undefined,
    };
    if (
      options.maxPendingRereads === 0 ||
      scan === undefined ||
      scan.start.mode === "full" ||
      stored === null
    )
      return nothing;
    const windowStart = new Date(Date.parse(stored) - options.lookbackMs).toISOString();
    const highWater = (await readCheckpoint(deps.warehouse)).highWaterCreated ?? stored;
    const result = await rereadPending(
      deps,
      calls.loader,
      calls.transform,
      {
        runId: options.runId,
        windowStart,
        scannedFrom: scan.firstCreatedAt ?? null,
        highWater,
        max: options.maxPendingRereads,
        concurrency: options.operationsConcurrency,
        scope: options.scope,
      },
      context.warn,
    );
    const counts = {
      ...nothing.counts,
      seen: result.rereads.asked,
      updated: result.updated,
      rejected: result.rejected,
    };
    return {
      counts,
      ended: result.failure === undefined ? "complete" : "failed",
      ...(result.failure === undefined ? {} : { failure: result.failure }),
      details: result.rereads,
    };
  },
};
