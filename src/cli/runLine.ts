import { scrubText } from "../api/redact.js";
import type { Env } from "../config/environment.js";
import { REDACTED } from "../config/printableConfig.js";
import { TOKEN_ENV_VARS } from "../config/tokenVariables.js";
import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { jsonLine } from "../log/jsonLine.js";
import type { RunSummary } from "../sources/runSummary.js";

/**
 * `--json`: exactly one line on stdout for every outcome of a run, so that a cron job appending
 * to a file keeps one JSON object a line. The first line printed wins: a second signal ending the
 * process after the summary was printed adds nothing.
 */
export class RunLine {
  #printed = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly env: Env,
  ) {}

  /** A run that ended with a summary (completed, partial, interrupted). */
  summary(summary: RunSummary, exitCode: ExitCodeValue): void {
    this.#print({ ...summary, exit_code: exitCode });
  }

  /**
   * A run that failed, or never started (config, lock): status, exit code, the error's code and
   * message, and the counts the run had when it had started.
   */
  failure(error: unknown, context: { summary?: RunSummary | undefined; runId?: string | undefined }): void {
    const known = error instanceof ZooUsageError;
    const message = error instanceof Error ? error.message : String(error);
    this.#print({
      ...(context.summary ?? (context.runId === undefined ? {} : { run_id: context.runId })),
      status: "failed",
      exit_code: known ? error.exitCode : ExitCode.internal,
      error: {
        code: known ? error.code : "internal",
        message: withoutTokens(message, this.env),
        ...(known && error.hint ? { hint: withoutTokens(error.hint, this.env) } : {}),
      },
    });
  }

  /** The second SIGINT/SIGTERM, which ends the process at once. */
  interrupted(runId: string): void {
    this.#print({
      run_id: runId,
      status: "interrupted",
      exit_code: ExitCode.interrupted,
      message: "stopped at once by a second signal",
    });
  }

  /** A SIGINT/SIGTERM during start-up: the run never began, or began and wrote nothing. */
  interruptedAtStart(message: string, runId?: string): void {
    this.#print({
      ...(runId === undefined ? {} : { run_id: runId }),
      status: "interrupted",
      exit_code: ExitCode.interrupted,
      message,
    });
  }

  #print(value: object): void {
    if (this.#printed) return;
    this.#printed = true;
    this.write(jsonLine(value));
  }
}

/**
 * Error messages quote what they failed on: a token from the environment is never among it, not
 * even in part (the line is kept in files, unlike a log a person reads once).
 */
function withoutTokens(text: string, env: Env): string {
  const tokens = TOKEN_ENV_VARS.map((name) => env[name]?.trim() ?? "").filter((token) => token.length >= 4);
  return scrubText(text, tokens, () => REDACTED);
}
