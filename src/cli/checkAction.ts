import { readFile } from "node:fs/promises";
import { type CheckFlags, loadCheckConfig } from "../config/checkConfig.js";
import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { createLogger, type LogFormat } from "../log/logger.js";
import { type CliIo, stderrLine } from "./io.js";

/**
 * `zoo-usage check`: the rules file read, flags to a config, then one call. A config error is
 * thrown to main's one catch (exit 2).
 */
export async function checkAction(
  flags: CheckFlags & { debug?: boolean; logFormat?: LogFormat },
  io: CliIo,
): Promise<ExitCodeValue> {
  const config = loadCheckConfig({ flags, env: io.env, rulesText: await readRules(flags.rules) });
  const { runCheck } = await import("../check/runCheck.js");
  return runCheck(config, {
    stdout: io.stdout,
    logger: createLogger({
      level: flags.debug ? "debug" : "info",
      format: flags.logFormat,
      write: stderrLine(io),
      now: io.now,
    }),
    now: io.now,
  });
}

/** The rules file's text, or undefined without --rules; a file that cannot be read is a config error. */
export async function readRules(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  try {
    return await readFile(file, "utf8");
  } catch (cause) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `Cannot read the rules file ${file}: ${(cause as Error).message}`,
      hint: "Point --rules at a readable file (docs/check.md shows one).",
      exitCode: ExitCode.usage,
      cause,
    });
  }
}
