import { reportCommandConfig } from "../config/commandConfig.js";
import type { ReportFlags } from "../config/reportConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { createLogger, type LogFormat } from "../log/logger.js";
import { type CliIo, stderrLine } from "./io.js";

/**
 * `zoo-usage report`: flags to a config, then one call. Errors are thrown to main's one catch,
 * which prints them and maps them to exit codes.
 */
export async function reportAction(
  flags: ReportFlags & { debug?: boolean; logFormat?: LogFormat },
  io: CliIo,
): Promise<ExitCodeValue> {
  const config = reportCommandConfig({ flags, env: io.env });
  // Loaded when the command runs: the report's modules stay out of every export's start.
  const { runReport } = await import("../report/runReport.js");
  await runReport(config.report, {
    stdout: io.stdout,
    logger: createLogger({
      level: flags.debug ? "debug" : "info",
      format: flags.logFormat,
      write: stderrLine(io),
      now: io.now,
    }),
    now: io.now,
  });
  return ExitCode.ok;
}
