import { type DemoFlags, demoApiConfig, demoCommandConfig } from "../config/commandConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { createLogger } from "../log/logger.js";
import { wrapLine } from "../log/terminalText.js";
import { startSimulator } from "../sim/index.js";
import { DEMO_EXPORTING_USER, demoSimulatorOptions } from "./demoAccount.js";
import { type ExportOutput, prepareRun } from "./exportPreparation.js";
import { exportAndSummarise } from "./exportRun.js";
import { type CliIo, stderrLine } from "./io.js";
import { RunLine } from "./runLine.js";

/**
 * `npm start`: the export on the built-in demo. A seeded simulator runs in-process (its own account,
 * demoAccount.ts: no account, no network) and the export writes ./zoo-usage-demo/ as a real run
 * would. Running it again shows an incremental run with nothing new.
 */
export async function demoAction(flags: DemoFlags & ExportOutput, io: CliIo): Promise<ExitCodeValue> {
  const config = demoCommandConfig({ flags, env: io.env });
  const simulator = await startSimulator(demoSimulatorOptions(startOfUtcDay(io.now()), config.calls));
  try {
    const user = simulator.users[DEMO_EXPORTING_USER];
    if (user === undefined) return ExitCode.internal;
    // With --json, stdout holds the run's one line only.
    const say = flags.json
      ? (text: string) =>
          createLogger({ level: "info", format: flags.logFormat, write: stderrLine(io), now: io.now }).info(
            text,
          )
      : (text: string) => io.stdout(wrapLine(text, "  ").join("\n"));
    const whose =
      config.export.scope === "org" ? `org ${user.orgId}, as its admin ${user.id}` : `user ${user.id}`;
    say(`demo: simulated Zoo API at ${simulator.url}, exporting the calls of ${whose}`);
    // The simulator's own credential, handed over in-process.
    const api = demoApiConfig({ url: simulator.url, token: user.token, debug: config.debug });
    const demoConfig = { api, export: config.export };
    const runLine = io.runLine ?? new RunLine(io.stdout, io.env);
    const prepared = await prepareRun(demoConfig, flags, io, runLine);
    return await exportAndSummarise(demoConfig, flags, io, runLine, prepared);
  } finally {
    await simulator.close();
  }
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
