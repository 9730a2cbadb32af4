import { createClient } from "../api/createClient.js";
import { clientSettings } from "../config/apiConfig.js";
import { type OperationGetFlags, operationGetCommandConfig } from "../config/commandConfig.js";
import { printableConfig } from "../config/printableConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { createLogger, type LogFormat } from "../log/logger.js";
import { type CliIo, printJson, stderrLine } from "./io.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `zoo-usage operation get <id>`: asks the API for one async operation, or with --from-db reads
 * what the warehouse holds for it. The command modules load when it runs (dynamic import), so
 * that a nightly export does not pay for the operation viewer at every start.
 */
export async function operationGetAction(
  id: string,
  flags: OperationGetFlags & { printConfig?: boolean; logFormat?: LogFormat },
  io: CliIo,
): Promise<ExitCodeValue> {
  const config = operationGetCommandConfig({ id, flags, env: io.env });
  if (flags.printConfig) {
    printJson(io, printableConfig(config));
    return ExitCode.ok;
  }
  if ("warehouse" in config) {
    const { runOperationFromDb } = await import("../commands/operationFromDb.js");
    return runOperationFromDb({ ...config.operation, dbPath: config.warehouse.dbPath }, io.stdout);
  }
  const logger = createLogger({
    level: config.api.debug ? "debug" : "info",
    format: flags.logFormat,
    write: stderrLine(io),
    now: io.now,
  });
  const client = createClient(clientSettings(config.api), { logger });
  try {
    const { runOperationGet } = await import("../commands/operationGet.js");
    return await runOperationGet(client, config.operation, {
      logger,
      stdout: io.stdout,
      now: () => io.now().getTime(),
      sleep,
    });
  } finally {
    await client.close();
  }
}
