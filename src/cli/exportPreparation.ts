import type { ClientSettings } from "../api/createClient.js";
import { assertSecureTransport } from "../api/secureTransport.js";
import { clientSettings } from "../config/apiConfig.js";
import type { CheckConfig } from "../config/checkConfig.js";
import type { ExportCommandConfig } from "../config/commandConfig.js";
import type { LogFormat } from "../log/logger.js";
import { prepareExportCheck } from "./exportCheck.js";
import type { CliIo } from "./io.js";
import type { RunLine } from "./runLine.js";

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
