import type { ZooClient } from "../api/client.js";
import type { ExportConfig } from "../config/exportConfig.js";
import type { DatasetTarget } from "../destination/datasetTarget.js";
import type { Warehouse } from "../load/database.js";
import type { Logger } from "../log/logger.js";
import type { Progress } from "../log/progress.js";
import type { SecretBox } from "../secrets/secretBox.js";

/** The settings the export command uses itself to open the database and its secret key. */
export type CommandSettings = "dbPath" | "secretKey" | "keyFile" | "newSecretKey";

/**
 * What one export run is asked to do: the export's config as loaded (a flag reaches the sources
 * without being copied field by field), less where the database and the secret key live (the
 * command opens those), plus what the command decides for this run.
 */
export type ExportOptions = Omit<ExportConfig, CommandSettings> & {
  runId: string;
  /** Where the loaders spool their batches: removed at the end of the run. */
  spoolDir: string;
  /** Pages one scan reads at most (default: defaultMaxPages of the limit). */
  maxPages?: number | undefined;
};

/** What every source runs with: the effects, passed in so that tests can pin them. */
export interface ExportDeps {
  client: ZooClient;
  warehouse: Warehouse;
  secrets: SecretBox;
  logger: Logger;
  progress: Progress;
  now: () => Date;
  /** Aborted by SIGINT/SIGTERM: the current batch commits and the run stops. */
  signal: AbortSignal;
  /** Where the Parquet datasets go: --out's directory or bucket prefix. */
  target: DatasetTarget;
}
