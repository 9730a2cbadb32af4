import { type CheckConfig, loadCheckConfig } from "../config/checkConfig.js";
import type { ExportConfig } from "../config/exportConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { readRules } from "./checkAction.js";
import type { CliIo } from "./io.js";

/**
 * `export --check <rules>`: the rules read and validated before the run starts (a bad file fails
 * with exit 2 before anything is exported), or null without --check.
 */
export async function prepareExportCheck(
  config: ExportConfig,
  json: boolean,
  io: CliIo,
): Promise<CheckConfig | null> {
  if (config.checkRules === null) return null;
  return loadCheckConfig({
    flags: { db: config.dbPath, rules: config.checkRules, json },
    env: io.env,
    rulesText: await readRules(config.checkRules),
  });
}

/**
 * The check after a run that stored what it read (completed, or partial): its alerts follow the
 * run's output (JSON lines after the run's line with --json). The export's own non-zero exit code
 * wins; else the check's (1 when it reported an alert). A run that failed is not checked.
 */
export async function checkAfterExport(
  check: CheckConfig | null,
  exitCode: ExitCodeValue,
  io: CliIo,
  logger: Logger,
): Promise<ExitCodeValue> {
  if (check === null || (exitCode !== ExitCode.ok && exitCode !== ExitCode.partial)) return exitCode;
  const { runCheck } = await import("../check/runCheck.js");
  const checked = await runCheck(check, { stdout: io.stdout, logger, now: io.now });
  return exitCode === ExitCode.ok ? checked : exitCode;
}

/**
 * With --json, the run's line carries the process's exit code, the check's included (1 for an
 * alert): the check runs first with its lines held, then the run's line is printed with the code
 * the process exits with, then the check's lines, in the order --json has always printed them.
 */
export async function checkWithRunLine(
  check: CheckConfig | null,
  exitCode: ExitCodeValue,
  io: CliIo,
  logger: Logger,
  printRunLine: (exitCode: ExitCodeValue) => void,
): Promise<ExitCodeValue> {
  const held: string[] = [];
  const flush = () => {
    for (const text of held) io.stdout(text);
  };
  let code: ExitCodeValue;
  try {
    code = await checkAfterExport(check, exitCode, { ...io, stdout: (text) => held.push(text) }, logger);
  } catch (error) {
    // The run's line as the run ended; the failure's own line follows it (exportRun.ts).
    printRunLine(exitCode);
    flush();
    throw error;
  }
  printRunLine(code);
  flush();
  return code;
}
