import type { ClientSettings } from "../api/createClient.js";
import { assertSecureTransport } from "../api/secureTransport.js";
import { type ApiFlags, clientSettings } from "../config/apiConfig.js";
import type { CheckConfig } from "../config/checkConfig.js";
import { type ExportCommandConfig, exportCommandConfig } from "../config/commandConfig.js";
import type { ExportFlags } from "../config/exportConfig.js";
import { printableConfig } from "../config/printableConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import type { LogFormat } from "../log/logger.js";
import { prepareExportCheck } from "./exportCheck.js";
import { type CliIo, printJson } from "./io.js";
import { RunLine } from "./runLine.js";

/** How a run's outcome is printed: --json, --no-summary, --log-format. */
export interface ExportOutput {
  json?: boolean | undefined;
  summary?: boolean | undefined;
  logFormat?: LogFormat | undefined;
}

/** What a run checked before it starts: the API client's settings and the --check rules. */
export interface PreparedRun {
  settings: ClientSettings;
  /** The --check rules, or null without --check. */
  check: CheckConfig | null;
}

/** `zoo-usage export`: the flags and environment to a config, then one run. */
export async function exportAction(
  flags: ApiFlags & ExportFlags & ExportOutput & { printConfig?: boolean },
  io: CliIo,
): Promise<ExitCodeValue> {
  const runLine = io.runLine ?? new RunLine(io.stdout, io.env);
  let config: ExportCommandConfig;
  try {
    config = exportCommandConfig({ flags, env: io.env });
  } catch (error) {
    // A config error ends the run before it starts: with --json, its one line says so too.
    if (flags.json && !flags.printConfig) runLine.failure(error, {});
    throw error;
  }
  if (flags.printConfig) {
    printJson(io, printableConfig(config));
    return ExitCode.ok;
  }
  const prepared = await prepareRun(config, flags, io, runLine);
  // The run's modules (DuckDB, the HTTP client, the pipeline) load once the run is sure to start:
  // --print-config and a refused flag, token, URL or rules file answer without them.
  const { exportAndSummarise } = await import("./exportRun.js");
  return exportAndSummarise(config, flags, io, runLine, prepared);
}

/**
 * The token, the URL and the --check rules, checked before the run starts (also the demo's): with
 * --json, a refusal's one line says so.
 */
export async function prepareRun(
  config: ExportCommandConfig,
  output: ExportOutput,
  io: CliIo,
  runLine: RunLine,
): Promise<PreparedRun> {
  try {
    const settings = clientSettings(config.api);
    assertSecureTransport(settings.baseUrl);
    return { settings, check: await prepareExportCheck(config.export, output.json === true, io) };
  } catch (error) {
    if (output.json) runLine.failure(error, {});
    throw error;
  }
}
