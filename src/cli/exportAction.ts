import { randomBytes } from "node:crypto";
import { createClient } from "../api/createClient.js";
import { describeRun, runExport } from "../commands/export.js";
import { type CommonFlags, loadConfig } from "../config/config.js";
import { type ExportConfig, type ExportFlags, loadExportConfig } from "../config/exportConfig.js";
import type { ExitCodeValue } from "../errors.js";
import { describeCostSummary, readCostSummary } from "../load/costSummary.js";
import { openWarehouse } from "../load/database.js";
import { createLogger, type Logger } from "../log/logger.js";
import { printableLines } from "../log/printable.js";
import { createProgress } from "../pipeline/progress.js";
import { jsonForTerminal } from "../report/escapeHtml.js";

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

export interface ExportActionOptions {
  flags: CommonFlags & ExportFlags & { json?: boolean; printConfig?: boolean; summary?: boolean };
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
}

/** Runs `zoo-usage export` (also used by the demo with the simulator's URL and token). */
export async function exportAction(options: ExportActionOptions): Promise<ExitCodeValue> {
  const { flags, env, stdout } = options;
  const config = loadConfig({ flags, env });
  const exportConfig = loadExportConfig({ flags, env });
  if (flags.printConfig) {
    stdout(
      JSON.stringify(
        { api: { ...config, token: config.token ? "[redacted]" : null }, export: redacted(exportConfig) },
        null,
        2,
      ),
    );
    return 0;
  }
  const logger = createLogger({ level: flags.debug ? "debug" : "info" });
  const signal = interruptSignal(logger);
  const client = createClient(config, { logger, signal });
  const now = () => new Date();
  const progress = createProgress({
    isTty: process.stderr.isTTY === true && !flags.json,
    write: (text) => process.stderr.write(text),
    log: (line) => logger.info(line),
    now: Date.now,
  });
  try {
    const { summary, exitCode } = await runExport(client, exportConfig, {
      logger,
      progress,
      now,
      signal,
      runId: newRunId(now()),
    });
    // maxRSS is in KiB (Node's resourceUsage).
    summary.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
    if (flags.json) {
      stdout(jsonForTerminal(summary));
    } else {
      stdout(describeRun(summary, exportConfig));
      // A run that read nothing and did not complete has no spend to show: a 0 USD line would read
      // like data. What earlier runs stored is still one `zoo-usage report` away.
      const readSomething = summary.pages > 0 || (summary.operations?.fetched ?? 0) > 0;
      if (flags.summary !== false && (readSomething || summary.status === "completed")) {
        stdout(printableLines(describeCostSummary(await costSummaryOf(exportConfig))));
      }
    }
    return exitCode;
  } finally {
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

function redacted(config: ExportConfig): Record<string, unknown> {
  return { ...config, secretKey: config.secretKey === undefined ? undefined : "[redacted]" };
}
