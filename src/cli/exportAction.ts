import { randomBytes } from "node:crypto";
import { createClient } from "../api/createClient.js";
import { describeRun, runExport } from "../commands/export.js";
import { type ApiFlags, clientSettings } from "../config/apiConfig.js";
import { type ExportCommandConfig, exportCommandConfig } from "../config/commandConfig.js";
import type { ExportConfig, ExportFlags } from "../config/exportConfig.js";
import { printableConfig } from "../config/printableConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { describeCostSummary, readCostSummary } from "../load/costSummary.js";
import { openWarehouse } from "../load/database.js";
import { createLogger, type Logger } from "../log/logger.js";
import { printableLines } from "../log/printable.js";
import { createProgress, type Progress } from "../pipeline/progress.js";
import { jsonForTerminal } from "../report/escapeHtml.js";
import { type CliIo, printJson } from "./io.js";

/** A sortable, unique run id: UTC start time plus randomness. */
export function newRunId(now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`;
}

/**
 * SIGINT/SIGTERM ask the run to stop: requests in flight and retry waits are abandoned at once, the
 * batch in hand commits, and the run ends interrupted (130). A second signal ends the process at
 * once (the database stays consistent: an uncommitted transaction is rolled back on open).
 */
export function interruptSignal(logger: Logger): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    logger.warn(`${signal}: stopping after the current batch commits (send it again to stop at once)`);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}

/** How a run's outcome is printed: --json, --no-summary. */
export interface ExportOutput {
  json?: boolean | undefined;
  summary?: boolean | undefined;
}

/** `zoo-usage export`: the flags and environment to a config, then one run. */
export async function exportAction(
  flags: ApiFlags & ExportFlags & ExportOutput & { printConfig?: boolean },
  io: CliIo,
): Promise<ExitCodeValue> {
  const config = exportCommandConfig({ flags, env: io.env });
  if (flags.printConfig) {
    printJson(io, printableConfig(config));
    return ExitCode.ok;
  }
  return exportAndSummarise(config, flags, io.stdout);
}

/**
 * One export run with its client, progress and interrupt signal, then the run's summary and the
 * spend summary (also the demo's run, against the simulator).
 */
export async function exportAndSummarise(
  config: ExportCommandConfig,
  output: ExportOutput,
  stdout: (text: string) => void,
): Promise<ExitCodeValue> {
  const settings = clientSettings(config.api);
  // Log lines go above the live progress line, once there is one, rather than into it.
  let liveLine: Progress | undefined;
  const logger = createLogger({
    level: config.api.debug ? "debug" : "info",
    write: (line) => (liveLine === undefined ? process.stderr.write(`${line}\n`) : liveLine.above(line)),
  });
  const signal = interruptSignal(logger);
  const client = createClient(settings, { logger, signal });
  const now = () => new Date();
  const progress = createProgress({
    isTty: process.stderr.isTTY === true && !output.json,
    write: (text) => process.stderr.write(text),
    log: (line) => logger.info(line),
    now: Date.now,
    retries: () => client.stats.retries,
    columns: () => process.stderr.columns,
  });
  liveLine = progress;
  try {
    const { summary, exitCode } = await runExport(client, config.export, {
      logger,
      progress,
      now,
      signal,
      runId: newRunId(now()),
    });
    // maxRSS is in KiB (Node's resourceUsage).
    summary.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
    if (output.json) {
      stdout(jsonForTerminal(summary));
    } else {
      stdout(describeRun(summary, config.export));
      // A run that read nothing and did not complete has no spend to show: a 0 USD line would read
      // like data. What earlier runs stored is still one `zoo-usage report` away.
      const readSomething = summary.pages > 0 || (summary.operations?.fetched ?? 0) > 0;
      if (output.summary !== false && (readSomething || summary.status === "completed")) {
        stdout(printableLines(describeCostSummary(await costSummaryOf(config.export))));
      }
    }
    return exitCode;
  } finally {
    // A run that threw ends its live line too, before the error is printed below it.
    progress.done();
    await client.close();
  }
}

async function costSummaryOf(config: ExportConfig) {
  const warehouse = await openWarehouse(config.dbPath, { readOnly: true });
  try {
    return await readCostSummary(warehouse);
  } finally {
    warehouse.close();
  }
}
