import type { ApiFlags } from "../config/apiConfig.js";
import { type ExportCommandConfig, exportCommandConfig } from "../config/commandConfig.js";
import type { ExportFlags } from "../config/exportConfig.js";
import { printableConfig } from "../config/printableConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { type ExportOutput, prepareRun } from "./exportPreparation.js";
import { type CliIo, printJson } from "./io.js";
import { RunLine } from "./runLine.js";

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
