import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { ZooClient } from "../api/client.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../api/retryPolicy.js";
import type { ExportConfig } from "../config/exportConfig.js";
import { type ExportDestination, openDestination } from "../destination/openDestination.js";
import { datasetLocation } from "../destination/outUrl.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { openWarehouse } from "../load/database.js";
import { removeOrphanedTemporariesOf } from "../load/orphanedTemporaries.js";
import { assertWritableDirectory, createRunDirectories } from "../load/preflight.js";
import { asStorageError } from "../load/storageError.js";
import { assertWarehousePath } from "../load/warehouseFile.js";
import { checkSecretKey, recordSecretKey } from "../load/warehouseKey.js";
import type { Logger } from "../log/logger.js";
import { counted } from "../log/plural.js";
import { foreignText, printableLines } from "../log/printable.js";
import type { Progress } from "../log/progress.js";
import { packParts, wrapLine } from "../log/terminalText.js";
import { groupDigits } from "../log/usdText.js";
import { exportApiCalls } from "../pipeline/exportApiCalls.js";
import { apiTokens } from "../sources/apiTokens.js";
import { asyncOperations } from "../sources/asyncOperations.js";
import { balance } from "../sources/balance.js";
import type { DeclaredSource } from "../sources/declaredSource.js";
import type { CommandSettings } from "../sources/exportSettings.js";
import { invoices } from "../sources/invoices.js";
import { pendingRereads } from "../sources/pendingRereads.js";
import type { RunSummary } from "../sources/runSummary.js";

export interface ExportEffects {
  logger: Logger;
  progress: Progress;
  now: () => Date;
  signal: AbortSignal;
  runId: string;
  /** Told the summary of a run that fails after it started, before the error is thrown. */
  onFailedRun?: ((summary: RunSummary) => void) | undefined;
  /** The API's retry policy, which an object store's requests follow too (default: the policy's own). */
  retry?: RetryPolicy | undefined;
}

/** `zoo-usage export`: one run into the warehouse; returns the summary and the exit code it maps to. */
export async function runExport(
  client: ZooClient,
  config: ExportConfig,
  effects: ExportEffects,
): Promise<{ summary: RunSummary; exitCode: ExitCodeValue }> {
  // A --db that is not a DuckDB file (a CSV, a Parquet file, ":memory:") fails before anything is created.
  await assertWarehousePath(config.dbPath);
  const spoolDir = `${spoolPrefix(config.dbPath)}${effects.runId}`;
  const destination = await openDestination(config, {
    retry: effects.retry ?? DEFAULT_RETRY_POLICY,
    now: () => effects.now().getTime(),
    stagingDir: path.join(spoolDir, "parquet"),
    stop: effects.signal,
  });
  try {
    return await exportInto(client, config, effects, destination, spoolDir);
  } finally {
    destination.close();
  }
}

async function exportInto(
  client: ZooClient,
  config: ExportConfig,
  effects: ExportEffects,
  destination: ExportDestination,
  spoolDir: string,
): Promise<{ summary: RunSummary; exitCode: ExitCodeValue }> {
  const databaseDirectory = { dir: path.dirname(config.dbPath), flag: "--db" };
  await assertWritableDirectory(databaseDirectory.dir, databaseDirectory.flag);
  await destination.assertFreeForNewDatabase(config.dbPath);
  // Every check passed: only now does the run create anything, so that a refusal leaves nothing.
  await createRunDirectories([...destination.directories, databaseDirectory]);
  // The database next: another tool's DuckDB file, or a locked one, fails before --out is written.
  // Opening applies the schema, views and comments in a transaction: a full disk can meet it there.
  const warehouse = await openWarehouse(config.dbPath);
  try {
    // Before --out is claimed: a refused key leaves the dataset as it was.
    const secretKey = await checkSecretKey(warehouse, {
      fromEnv: config.secretKey,
      keyFile: config.keyFile,
      acceptNewKey: config.newSecretKey,
    });
    if (secretKey.warning !== undefined) effects.logger.warn(secretKey.warning);
    // Claiming --out also removes what killed runs left in it; this process holds the database,
    // and the database owns --out. The spools and key-file drafts of killed runs go too.
    await destination.claim(warehouse, effects.now());
    await removeStaleSpools(config.dbPath);
    await removeOrphanedTemporariesOf(config.keyFile);
    const summary = await exportApiCalls(
      {
        client,
        warehouse,
        secrets: secretKey.secrets,
        logger: effects.logger,
        progress: effects.progress,
        now: effects.now,
        signal: effects.signal,
        onFailedRun: effects.onFailedRun,
        target: destination.target,
      },
      {
        ...runOptionsOf(config),
        runId: effects.runId,
        spoolDir,
      },
    );
    const keyChange = await recordSecretKey(warehouse, secretKey);
    if (keyChange !== undefined) {
      effects.logger.warn(keyChange);
      summary.warnings.push(keyChange);
    }
    if (secretKey.warning !== undefined) summary.warnings.push(secretKey.warning);
    // Done writing: the checkpoint at close may now merge the row groups this and earlier runs left.
    await warehouse.mergeAtClose();
    return { summary, exitCode: exitCodeOf(summary) };
  } catch (error) {
    // DuckDB reports a full disk at a checkpoint as an IO Error, and then refuses every statement
    // on the database: whichever statement meets it, the cause is the storage.
    throw asStorageError(error, `the database ${warehouse.path}`);
  } finally {
    warehouse.close();
  }
}

/** The config as the run's options: all of it but where the database and the secret key live. */
function runOptionsOf(config: ExportConfig): Omit<ExportConfig, CommandSettings> {
  const { dbPath: _db, secretKey: _secret, keyFile: _keyFile, newSecretKey: _newKey, ...options } = config;
  return options;
}

export function exitCodeOf(summary: RunSummary): ExitCodeValue {
  if (summary.status === "interrupted") return ExitCode.interrupted;
  if (summary.status === "partial") return ExitCode.partial;
  if (summary.status === "failed") return ExitCode.internal;
  return ExitCode.ok;
}

/**
 * The sources that say lines of the printed summary, in the order they print rather than the order
 * they run (exportPlan): what the calls started and re-read comes next to the calls' own counts.
 */
const DESCRIBED: readonly DeclaredSource[] = [asyncOperations, pendingRereads, invoices, balance, apiTokens];

/**
 * The human lines printed after a run. Each fact is re-wrapped at spaces to fit an 80-column
 * terminal, continuing four columns in; the lines that end in a path are left whole, so that the
 * path can be copied, and a path inside a warning stays whole on a line of its own.
 */
export function describeRun(summary: RunSummary, config: ExportConfig): string {
  const wrapped = (line: string) => wrapLine(line, "    ");
  const lines = [
    `export ${summary.status} (run ${summary.run_id}, ${summary.scan_mode} scan, ${summary.seconds.toFixed(1)} s)`,
    `  requests ${summary.requests} (${summary.retries} retries), pages ${summary.pages}, records seen ${summary.records_seen}`,
    `  new ${summary.records_new}, updated ${summary.records_updated}, rejected ${summary.records_rejected}${summary.records_rejected > 0 ? " (see the rejects table)" : ""}`,
    ...DESCRIBED.flatMap((source) => source.describe?.(summary) ?? []),
    `  Parquet partitions written ${summary.partitions_written}`,
  ].flatMap(wrapped);
  lines.push(
    ...packParts(
      "  time: ",
      Object.entries(summary.phase_seconds).map(([phase, seconds]) => `${phase} ${seconds.toFixed(1)} s`),
      "    ",
    ),
  );
  if (summary.upload !== undefined) lines.push(...wrapped(uploadLine(summary.upload, config.outDir)));
  if (summary.verify !== undefined) {
    const { objects, unreadable, repaired } = summary.verify;
    lines.push(
      ...wrapped(
        `  verified ${counted(objects, "partition file")} under --out: ${unreadable} unreadable, ${repaired} rewritten`,
      ),
    );
  }
  lines.push(`  database ${config.dbPath}`, `  parquet  ${datasetLocation(config.outDir, "api_calls")}`);
  if (config.operations) lines.push(`           ${datasetLocation(config.outDir, "async_operations")}`);
  if (summary.focus !== undefined) {
    const { written, unchanged, removed, rows } = summary.focus;
    lines.push(
      `           ${datasetLocation(config.outDir, "focus")}`,
      ...wrapped(
        `  FOCUS dataset: ${counted(rows, "row")}, ${counted(written, "billing period")} written, ${unchanged} unchanged${removed === 0 ? "" : `, ${removed} removed`}`,
      ),
    );
  }
  // Warnings and messages quote API data (ids, endpoints, error text): neutralised for the terminal.
  for (const warning of summary.warnings) lines.push(...wrapped(`  warning: ${foreignText(warning)}`));
  if (summary.message)
    lines.push(...printableLines(`  stopped by: ${summary.message}`).split("\n").flatMap(wrapped));
  return lines.join("\n");
}

/** What the run sent to the bucket. */
function uploadLine(upload: NonNullable<RunSummary["upload"]>, outDir: string): string {
  const deleted = upload.deleted === 0 ? "" : `, ${counted(upload.deleted, "empty partition")} deleted`;
  return `  uploaded ${counted(upload.objects, "object")} (${groupDigits(String(upload.bytes))} bytes) to ${outDir} in ${upload.seconds.toFixed(1)} s${deleted}`;
}

/** Spool folders sit beside the database, named after it, so two databases in one folder never mix. */
function spoolPrefix(dbPath: string): string {
  return path.join(path.dirname(dbPath), `.${path.basename(dbPath)}.spool-`);
}

/** Spool files of a run that crashed: safe to remove, since this process now holds the database lock. */
async function removeStaleSpools(dbPath: string): Promise<void> {
  const prefix = path.basename(spoolPrefix(dbPath));
  for (const entry of await readdir(path.dirname(dbPath))) {
    if (entry.startsWith(prefix))
      await rm(path.join(path.dirname(dbPath), entry), { recursive: true, force: true });
  }
}
