import type { Command } from "commander";
import { DEFAULT_DB } from "../config/exportConfig.js";
import { createLogger } from "../log/logger.js";
import { DEFAULT_TOP, loadReportConfig, type ReportFlags } from "../report/reportConfig.js";
import { positiveInteger } from "./parseNumber.js";

/**
 * `zoo-usage report`: flags to a ReportConfig, then one call. Errors are thrown to main's one
 * catch, which prints them and maps them to exit codes; success leaves the exit code at 0.
 */
export function registerReportCommand(
  program: Command,
  io: { env: Record<string, string | undefined>; stdout: (text: string) => void },
): void {
  program
    .command("report")
    .description(
      "show spend from the database: per day, per endpoint, pending billing, rejects; --html for a page",
    )
    .option(
      "--db <path>",
      `DuckDB database file, opened read-only (default: $ZOO_USAGE_DB, else ${DEFAULT_DB})`,
    )
    .option("--from <day>", "first UTC day of the period, YYYY-MM-DD (default: the first call)")
    .option("--to <day>", "last UTC day of the period, YYYY-MM-DD, included (default: the last call)")
    .option("--top <n>", `rows in the top lists (default ${DEFAULT_TOP})`, positiveInteger)
    .option("--json", "print the figures as JSON (money as exact decimal strings)")
    .option("--html <file>", "also write a self-contained HTML report to this file")
    .option("--debug", "show stack traces")
    .action(async (flags: ReportFlags & { debug?: boolean }) => {
      const config = loadReportConfig({ flags, env: io.env });
      // Loaded when the command runs: the report's modules stay out of every export's start.
      const { runReport } = await import("../report/runReport.js");
      await runReport(config, {
        stdout: io.stdout,
        logger: createLogger({ level: flags.debug ? "debug" : "info" }),
        now: () => new Date(),
      });
    });
}
