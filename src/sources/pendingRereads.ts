import { readCheckpoint } from "../load/checkpoint.js";
import { apiCalls } from "./apiCalls.js";
import { type PendingRereads, rereadPending } from "./calls/rereadPending.js";
import type { CallsDetails } from "./calls/scanWithFallback.js";
import type { DeclaredSource, SourceResult } from "./declaredSource.js";

/**
 * The stored calls still pending billing that the scan no longer reaches (older than the lookback
 * window), re-read one by one (GET /user/api-calls/{id} or /org/api-calls/{id}) and updated in
 * place: Zoo fills in price and stripe_invoice_item_id when it bills, which can be at month end.
 * Only after a scan that ended well and was not a full scan (which has just read every call).
 */
export const pendingRereads: DeclaredSource<PendingRereads, CallsDetails> = {
  name: "pending re-reads",
  reads: "GET /{user,org}/api-calls/{id}",
  lands: "api_calls",
  disposition: "update on `id`",
  position: "when each call was last asked, `internal.pending_rereads`",
  optional: false,
  needs: apiCalls,
  phase: "scan",
  progress: "re-reading calls pending billing",
  run: async (context, scan): Promise<SourceResult<PendingRereads>> => {
    const { deps, options, checkpoint, calls } = context;
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
  summarize: (summary, { counts, details }) => {
    summary.records_updated += counts.updated;
    summary.records_rejected += counts.rejected;
    if (details !== undefined) summary.pending_rereads = details;
  },
  describe: ({ pending_rereads: rereads }) =>
    rereads === undefined || rereads.asked === 0
      ? []
      : [
          `  calls pending billing re-read ${rereads.asked} (${rereads.settled} settled, ${rereads.still_pending} still pending, ${rereads.not_found} not found, ${rereads.left} left for the next run)`,
        ],
};
