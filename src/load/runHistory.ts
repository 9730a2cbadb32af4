import type { Warehouse } from "./database.js";

/** What the runs table keeps of a finished run: the counts of its summary, and why it stopped. */
export interface FinishedRun {
  run_id: string;
  status: string;
  scan_mode: string;
  requests: number;
  pages: number;
  records_seen: number;
  records_new: number;
  records_updated: number;
  records_rejected: number;
  partitions_written: number;
  retries: number;
  warnings: readonly string[];
  message?: string;
}

/**
 * The runs table: a row at start (status running) so that a crashed run is visible too. A row still
 * running when a run starts belongs to a process that ended without finishing (only one export holds
 * the database for writing at a time): it becomes `crashed`, so that `running` means running.
 */
export async function startRun(warehouse: Warehouse, runId: string, startedAt: Date): Promise<void> {
  await warehouse.connection.run(
    `UPDATE runs SET status = 'crashed', message = coalesce(message, $message) WHERE status = 'running'`,
    { message: `ended without finishing (killed or crashed); run ${runId} carried on from its last commit` },
  );
  await warehouse.connection.run(
    "INSERT INTO runs (run_id, started_at, status) VALUES ($id, $at::TIMESTAMPTZ, 'running')",
    {
      id: runId,
      at: startedAt.toISOString(),
    },
  );
}

export async function finishRun(warehouse: Warehouse, summary: FinishedRun, finishedAt: Date): Promise<void> {
  await warehouse.connection.run(
    "UPDATE runs SET finished_at = $at::TIMESTAMPTZ, status = $status, scan_mode = $mode, requests = $requests, pages = $pages, records_seen = $seen, records_new = $new, records_updated = $updated, records_rejected = $rejected, partitions_written = $partitions, retries = $retries, message = $message WHERE run_id = $id",
    {
      id: summary.run_id,
      at: finishedAt.toISOString(),
      status: summary.status,
      mode: summary.scan_mode,
      requests: summary.requests,
      pages: summary.pages,
      seen: summary.records_seen,
      new: summary.records_new,
      updated: summary.records_updated,
      rejected: summary.records_rejected,
      partitions: summary.partitions_written,
      retries: summary.retries,
      message: runMessage(summary),
    },
  );
}

/**
 * What stopped the run, then its warnings: both, since a run stopped early can have warned before.
 * Small whatever the API did: summary.warnings is capped (RunWarnings).
 */
function runMessage(summary: FinishedRun): string | null {
  const parts = [...(summary.message === undefined ? [] : [summary.message]), ...summary.warnings];
  return parts.length === 0 ? null : parts.join("; ");
}
