import type { ApiScope } from "../../api/scope.js";
import { type CallAnswer, fetchCallsById } from "../../extract/fetchCallsById.js";
import { type Batch, noteRecord, serializeRow } from "../../load/apiCallBatch.js";
import { type ApiCallLoader, serializeReject } from "../../load/apiCallLoader.js";
import {
  forgetSettledRereads,
  recordPendingRereads,
  selectPendingRereads,
} from "../../load/pendingRereads.js";
import { isoTime } from "../../log/isoTime.js";
import { checkApiCall, rawForRejects, type TransformContext, toRow } from "../../transform/apiCallRow.js";
import type { ExportDeps } from "../exportSettings.js";

/**
 * A call pending billing this long after it was created is probably never billed: Zoo charges at
 * month end, so even a call of the 1st has settled some days into the next month.
 */
export const LIKELY_UNBILLED_DAYS = 45;
const DAY_MS = 86_400_000;
/** Re-reads committed per transaction: an interrupted run loses at most this many. */
const CHUNK = 500;

/** What the re-reads of one run did (RunSummary.pending_rereads). */
export interface PendingRereads {
  /** Calls asked for with GET /user/api-calls/{id}. */
  asked: number;
  /** Asked, and billed now (completed_at filled in). */
  settled: number;
  /** Asked, and still pending billing. */
  still_pending: number;
  /** Asked, and answered 404: the stored row is kept as it is and not asked again. */
  not_found: number;
  /** Asked, and answered with a body that does not validate: it went to `rejects`. */
  rejected: number;
  /** Pending calls before the window left for later runs by the per-run cap. */
  left: number;
}

export interface RereadOptions {
  runId: string;
  /** Calls created before this instant (the lookback window's start) are candidates. */
  windowStart: string;
  /**
   * created_at of the first call this run's scan read (null if it read none): calls after it were
   * just read, so only those up to it are re-read.
   */
  scannedFrom: string | null;
  /** The newest stored call's created_at: "likely never billed" is measured from it. */
  highWater: string;
  max: number;
  concurrency: number;
  /** Re-read through GET /user/api-calls/{id} or /org/api-calls/{id}, as the scan lists. */
  scope: ApiScope;
}

/**
 * Re-reads, one by one, the stored calls whose billing had not landed and that the scan no longer
 * reaches because they are older than the lookback window: Zoo fills in price, completed_at and
 * stripe_invoice_item_id when it bills, which can be at month end (its pricing pages; when the
 * fields are filled in is undocumented). Each answer is validated as a listed record is and
 * upserted through the loader's update path, so the cost views and the Parquet partitions follow.
 * At most `max` a run: never-asked calls first, oldest first, then the due ones asked longest ago,
 * so a call that never settles cannot starve the rest; a call asked before waits longer after each
 * ask (select_pending_rereads.sql), since most nights it would still be pending. Returns what it did, with the error that stopped
 * it (after committing what it had read), so a run the API stops midway still says what it re-read.
 */
export async function rereadPending(
  deps: ExportDeps,
  loader: ApiCallLoader,
  transform: TransformContext,
  options: RereadOptions,
  warn: (message: string, kind?: string) => void,
): Promise<RereadResult> {
  const result: PendingRereads = {
    asked: 0,
    settled: 0,
    still_pending: 0,
    not_found: 0,
    rejected: 0,
    left: 0,
  };
  const rows = { updated: 0, rejected: 0 };
  const staleBefore = isoTime(new Date(Date.parse(options.highWater) - LIKELY_UNBILLED_DAYS * DAY_MS));
  const candidates = await selectPendingRereads(deps.warehouse, {
    windowStart: options.windowStart,
    scannedFrom: options.scannedFrom,
    staleBefore,
    limit: options.max,
    now: deps.now().toISOString(),
  });
  const { ids } = candidates;
  if (ids.length === 0) return { rereads: result, ...rows };
  deps.progress.update({ phase: "re-reading calls pending billing", counting: "rereads", total: ids.length });
  result.left = candidates.backlog - ids.length;
  if (candidates.stale > 0) {
    warn(
      `${candidates.stale} call(s) created before ${staleBefore} (more than ${LIKELY_UNBILLED_DAYS} days before the newest call) are still pending billing, the oldest from ${candidates.oldestCreatedAt}: likely never billed. They are re-read one by one until they settle (see the pending_billing view).`,
    );
  }
  let failure: unknown;
  try {
    for (let start = 0; start < ids.length && failure === undefined && !deps.signal.aborted; start += CHUNK) {
      const chunk = ids.slice(start, start + CHUNK);
      failure = await rereadChunk(deps, loader, transform, options, chunk, result, rows);
    }
    // After an API failure too: the table lists only calls still pending.
    await forgetSettledRereads(deps.warehouse);
  } catch (error) {
    failure ??= error;
  }
  if (result.not_found > 0) {
    warn(
      `${result.not_found} stored call(s) pending billing are no longer found by GET /${options.scope}/api-calls/{id} (404): their rows are kept as stored and not asked again`,
    );
  }
  if (result.left > 0) {
    deps.logger.info(
      `${result.left} more call(s) pending billing before the lookback window are left for the next run (--max-pending-rereads ${options.max})`,
    );
  }
  return failure === undefined ? { rereads: result, ...rows } : { rereads: result, ...rows, failure };
}

/** What the re-reads of a run did: per call (rereads), and the rows they updated or rejected. */
export interface RereadResult {
  rereads: PendingRereads;
  updated: number;
  rejected: number;
  /** The error that stopped the re-reads, after what was read was committed. */
  failure?: unknown;
}

/**
 * Re-reads one chunk (fetch), validates each answer (transform) and commits the chunk (load);
 * returns the error that stopped it, after committing what it got.
 */
async function rereadChunk(
  deps: ExportDeps,
  loader: ApiCallLoader,
  transform: TransformContext,
  options: RereadOptions,
  ids: readonly string[],
  result: PendingRereads,
  rows: { updated: number; rejected: number },
): Promise<unknown> {
  // A batch without a resume token: the scan has ended, so the stored position stays "at the end".
  const batch = loader.newBatch(null);
  const asked: string[] = [];
  const notFound: string[] = [];
  const lines: string[] = [];
  const stopped = await fetchCallsById(
    deps.client,
    ids,
    { concurrency: options.concurrency, signal: deps.signal, scope: options.scope },
    (answer) => {
      asked.push(answer.id);
      result.asked += 1;
      deps.progress.add({ rereads: 1 });
      if (!answer.found) {
        notFound.push(answer.id);
        result.not_found += 1;
        return;
      }
      const line = rereadRow(answer, batch, transform, options.runId, deps.now);
      if (line === undefined) {
        result.rejected += 1;
        return;
      }
      lines.push(line.text);
      if (line.pending) result.still_pending += 1;
      else result.settled += 1;
    },
  );
  batch.rows.append(lines);
  if (lines.length > 0 || batch.rejects.length > 0) {
    const committed = await loader.commit(batch);
    rows.updated += committed.updated;
    rows.rejected += committed.rejected;
    deps.progress.add({ rejected: committed.rejected });
  } else {
    await batch.rows.remove();
  }
  await recordPendingRereads(deps.warehouse, { ids: asked, notFound, now: deps.now });
  return stopped?.failure;
}

/**
 * A re-read call validated as a listed record is: its serialized row and whether its billing is
 * still pending, or undefined when it went to the batch's rejects.
 */
function rereadRow(
  answer: CallAnswer & { found: true },
  batch: Batch,
  transform: TransformContext,
  runId: string,
  now: () => Date,
): { text: string; pending: boolean } | undefined {
  const { id, body } = answer;
  const checked = checkApiCall(body, transform);
  const reason = !checked.ok
    ? checked.reason
    : checked.call.id !== id
      ? `GET /user/api-calls/${id} answered with call ${checked.call.id}`
      : undefined;
  if (!checked.ok || reason !== undefined) {
    batch.rejects.push(
      serializeReject({
        run_id: runId,
        rejected_at: now().toISOString(),
        record_id: id,
        reason: `re-read of a call pending billing: ${reason}`,
        raw_json: rawForRejects(body, transform),
      }),
    );
    return undefined;
  }
  const row = toRow(checked.call, checked.source, transform);
  noteRecord(batch, row.created_at);
  return { text: serializeRow(row), pending: row.completed_at === null };
}
