import type { UploadStats } from "../destination/datasetTarget.js";
import type { FocusWrite } from "../destination/focusDataset.js";
import type { VerifySummary } from "../destination/verifyDatasets.js";
import type { FinishedRun } from "../load/runHistory.js";
import type { PendingRereads } from "./calls/rereadPending.js";
import type { OperationFetchResult } from "./operations/fetchOperations.js";
import type { SourceOutcome, SourceStatus } from "./outcome.js";

export type RunStatus = "completed" | "partial" | "failed" | "interrupted";

/**
 * The machine-readable result of one export run (`--json`); the runs table stores the counts it
 * shares with FinishedRun.
 */
export interface RunSummary extends FinishedRun {
  status: RunStatus;
  seconds: number;
  /**
   * Where the run's seconds went: before the first list request (stored state, settings, missing
   * partitions), the scan (pages, commits, and the partitions the scan has passed), the account
   * steps (spenders, invoices, balance), the async operations, and the Parquet partitions still
   * dirty after them.
   */
  phase_seconds: { prepare: number; scan: number; account: number; operations: number; parquet: number };
  warnings: string[];
  /**
   * Org scope: calls GET /org/api-calls listed whose org_id names another org. They are stored (the
   * org's own listing returned them) with one warning; absent when there were none.
   */
  foreign_org_calls?: number;
  /**
   * Async operations fetched this run (absent with --no-operations or when the scan failed):
   * `window_start` is where the window began (the run's clock minus --operations-window; null with
   * --operations all), `skipped_outside_window` the calls before it whose operation was never fetched.
   */
  operations?: OperationFetchResult;
  /**
   * Stored calls pending billing from before the lookback window, re-read one by one (absent when
   * the run read everything, the scan failed, or --max-pending-rereads is 0).
   */
  pending_rereads?: PendingRereads;
  /**
   * Tokens, service accounts and org members listed this run. This and the two below are absent when
   * the run was stopped or a failure stopped the plan before them (pipeline/plan.ts).
   */
  spenders?: SpendersSummary;
  /** The account's invoices listed and stored this run. */
  invoices?: InvoicesSummary;
  /** The credits balance snapshot. */
  balance?: BalanceSummary;
  /**
   * An s3:// --out: the partition objects this run uploaded (each replaced whole), their bytes, the
   * seconds spent uploading, and the partitions left with no rows it deleted; absent for a directory.
   */
  upload?: UploadStats;
  /**
   * --verify-out: the partition files under --out checked (every dataset the run writes), those
   * found not whole Parquet (each marked and rewritten by the same run), and those rewritten by its
   * end; absent without --verify-out.
   */
  verify?: VerifySummary;
  /**
   * --focus: the billing periods of the FOCUS dataset written (their rows changed), left as they
   * were, and removed (no rows left), and its rows; absent without --focus, or when the Parquet
   * datasets were not written (a stopped run).
   */
  focus?: FocusWrite;
  /** Peak resident memory of the exporting process (set by the CLI, which owns process facts). */
  peak_rss_mb?: number;
}

/**
 * What every account step (spenders, invoices, balance) reports, so a script reads the three alike.
 * `status` is the source's outcome (sources/outcome.ts): "stored" (read and stored, its bad records
 * in `rejects`), "skipped" (the token may not read it: 403/404, a warning, the run's status
 * untouched), "failed" (the step did not finish: an API failure after its retries or a pagination
 * anomaly, after storing what it read; the run ends partial).
 */
export interface AccountStepSummary {
  status: SourceStatus;
  /** Items that did not validate: in `rejects` with the reason (the run ends partial). */
  rejected: number;
  /** Wall time of the step; phase_seconds.account is the three steps together. */
  seconds: number;
  /** Why the step was skipped or failed; absent when it stored. */
  message?: string;
}

/** An account source's outcome in the shape every account step shares. */
export function accountStep(outcome: SourceOutcome): AccountStepSummary {
  return {
    status: outcome.status,
    rejected: outcome.counts.rejected,
    seconds: outcome.seconds,
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
  };
}

/** What the run listed of who holds the tokens (RunSummary.spenders). */
export interface SpendersSummary extends AccountStepSummary {
  api_tokens: number;
  service_accounts: number;
  org_members: number;
  /** Listings the token may not read (403/404): skipped with a warning; all of them: status "skipped". */
  skipped_listings: string[];
}

/** What the credits balance step of one run did (RunSummary.balance). */
export interface BalanceSummary extends AccountStepSummary {
  /** Snapshots stored: 1, or 0 when the balance was skipped, failed or rejected. */
  snapshots: number;
  /** The credits' remaining monetary value (monthly + stable), exact decimal text; null without a snapshot. */
  remaining_usd: string | null;
}

/** The summary of a run before it has done anything: completed, with every count at zero. */
export function newRunSummary(runId: string): RunSummary {
  return {
    run_id: runId,
    status: "completed",
    scan_mode: "full",
    requests: 0,
    pages: 0,
    records_seen: 0,
    records_new: 0,
    records_updated: 0,
    records_rejected: 0,
    partitions_written: 0,
    retries: 0,
    seconds: 0,
    phase_seconds: { prepare: 0, scan: 0, account: 0, operations: 0, parquet: 0 },
    warnings: [],
  };
}

/** What the invoices step did (RunSummary.invoices). */
export interface InvoicesSummary extends AccountStepSummary {
  invoices: number;
  lines: number;
  new_invoices: number;
}
