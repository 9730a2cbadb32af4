import type { ZooClient } from "../api/client.js";
import type { ApiScope } from "../api/scope.js";
import type { Warehouse } from "../load/database.js";
import type { Partitioning } from "../load/partitioning.js";
import type { Logger } from "../log/logger.js";
import type { SecretBox } from "../secrets/secretBox.js";
import type { DurationUnit } from "../transform/durationUnit.js";
import type { PrivacyPolicy } from "../transform/privacy.js";
import type { Progress } from "./progress.js";
import type { RunSummary } from "./runSummary.js";

/** What one export run is asked to do (from the config) and what it runs with (the effects). */
export interface ExportOptions {
  runId: string;
  limit: number;
  lookbackMs: number;
  fullRefresh: boolean;
  /** Records per transaction: a crash loses at most this many, re-read on the next run. */
  batchRecords: number;
  durationUnit: DurationUnit;
  partitioning: Partitioning;
  /** `/user/...` or `/org/...` endpoints; a warehouse holds one scope and one owner. */
  scope: ApiScope;
  privacy: PrivacyPolicy;
  maxPriceUsd: number;
  outDir: string;
  spoolDir: string;
  /** Also fetch the async operations the exported calls started (--no-operations skips). */
  operations: boolean;
  operationsConcurrency: number;
  /**
   * Operations never stored are fetched for calls created this long before the run's clock (stored
   * ones not yet final whatever their age); null: the whole history (`--operations all`).
   */
  operationsWindowMs: number | null;
  /** Stored calls pending billing from before the lookback window re-read per run (0: none). */
  maxPendingRereads: number;
  /** Pages one scan reads at most (default: defaultMaxPages of the limit). */
  maxPages?: number | undefined;
}

export interface ExportDeps {
  client: ZooClient;
  warehouse: Warehouse;
  secrets: SecretBox;
  logger: Logger;
  progress: Progress;
  now: () => Date;
  /** Aborted by SIGINT/SIGTERM: the current batch commits and the run stops. */
  signal: AbortSignal;
  /** Told the summary of a run that fails (which then throws): what it had done before the failure. */
  onFailedRun?: ((summary: RunSummary) => void) | undefined;
}
