import { randomBytes } from "node:crypto";
import { createClient } from "../api/createClient.js";
import { describeRun, runExport } from "../commands/export.js";
import type { ExportCommandConfig } from "../config/commandConfig.js";
import type { ExportConfig } from "../config/exportConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { describeCostSummary, readCostSummary } from "../load/costSummary.js";
import { openWarehouse } from "../load/database.js";
import { createLogger } from "../log/logger.js";
import { printableLines } from "../log/printable.js";
import { createProgress, type Progress } from "../log/progress.js";
import type { RunSummary } from "../sources/runSummary.js";
import { checkAfterExport, checkWithRunLine } from "./exportCheck.js";
import type { ExportOutput, PreparedRun } from "./exportPreparation.js";
import { type CliIo, stderrLine } from "./io.js";
import type { RunLine } from "./runLine.js";

/** A sortable, unique run id: UTC start time plus randomness. */
export function newRunId(now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`;
}

/**
 * One export run with its client, progress and interrupt signal, then the run's summary and the
 * spend summary (also the demo's run, against the simulator), once prepareRun (exportAction.ts)
 * has checked what it needs.
 *
 * SIGINT/SIGTERM ask the run to stop: requests in flight and retry waits are abandoned at once, the
 * batch in hand commits, and the run ends interrupted (130). A second signal ends the process at
 * once (the database stays consistent: an uncommitted transaction is rolled back on open). A signal
 * before the run began (the database opened, GET /org asked) ends it interrupted too, not failed.
 */
export async function exportAndSummarise(
  config: ExportCommandConfig,
  output: ExportOutput,
  io: CliIo,
  runLine: RunLine,
  { settings, check }: PreparedRun,
): Promise<ExitCodeValue> {
  const { stdout } = io;
  // Log lines go above the live progress line, once there is one, rather than into it.
  let liveLine: Progress | undefined;
  const logger = createLogger({
    level: config.api.debug ? "debug" : "info",
    format: output.logFormat,
    write: (line) => (liveLine === undefined ? stderrLine(io)(line) : liveLine.above(line)),
    now: io.now,
  });
  const { now } = io;
  const runId = newRunId(now());
  // main listens for a stop before a writing command loads (io.stop); without it nothing stops.
  io.stop?.takeOver({
    first: (name) =>
      logger.warn(`${name}: stopping after the current batch commits (send it again to stop at once)`),
    beforeForcedExit: () => {
      if (output.json) runLine.interrupted(runId);
    },
  });
  const signal = io.stop?.signal ?? new AbortController().signal;
  const client = createClient(settings, { logger, signal });
  // Redraws are for a person at a terminal: with --json or JSON logs, progress is log lines.
  const progress = createProgress({
    isTty: io.stderr.isTTY === true && !output.json && output.logFormat !== "json",
    write: (text) => io.stderr.write(text),
    log: (line) => logger.info(line),
    now: () => now().getTime(),
    retries: () => client.stats.retries,
    columns: () => io.stderr.columns,
  });
  let failedRun: RunSummary | undefined;
  liveLine = progress;
  try {
    const { summary, exitCode } = await runExport(client, config.export, {
      retry: config.api.retry,
      logger,
      progress,
      now,
      signal,
      runId,
      onFailedRun: (summary) => {
        failedRun = { ...summary, peak_rss_mb: peakRssMb() };
      },
    });
    summary.peak_rss_mb = peakRssMb();
    if (output.json) {
      return await checkWithRunLine(check, exitCode, io, logger, (code) => runLine.summary(summary, code));
    }
    stdout(describeRun(summary, config.export));
    // A run that read nothing and did not complete has no spend to show: a 0 USD line would read
    // like data. What earlier runs stored is still one `zoo-usage report` away.
    const readSomething = summary.pages > 0 || (summary.operations?.fetched ?? 0) > 0;
    if (output.summary !== false && (readSomething || summary.status === "completed")) {
      stdout(printableLines(describeCostSummary(await costSummaryOf(config.export))));
    }
    return await checkAfterExport(check, exitCode, io, logger);
  } catch (error) {
    // Stopped before the run made a summary: whatever the start-up step was doing when its
    // request was abandoned, the run was interrupted, not failed.
    if (signal.aborted && failedRun === undefined) {
      const message = "interrupted during start-up, before the run began; nothing was exported";
      logger.warn(message);
      if (output.json) runLine.interruptedAtStart(message, runId);
      return ExitCode.interrupted;
    }
    // The CLI prints the error on stderr; with --json, stdout says the run failed, in its one line.
    if (output.json) runLine.failure(error, { summary: failedRun, runId });
    throw error;
  } finally {
    // A run that threw ends its live line too, before the error is printed below it.
    progress.done();
    await client.close();
  }
}

/** Peak resident memory of this process; maxRSS is in KiB (Node's resourceUsage). */
function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

async function costSummaryOf(config: ExportConfig) {
  const warehouse = await openWarehouse(config.dbPath, { readOnly: true });
  try {
    return await readCostSummary(warehouse);
  } finally {
    warehouse.close();
  }
}
