import type { ZooClient } from "../api/client.js";
import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { describeOperation, operationFields } from "../operations/operationView.js";
import { refusedOutputsError, saveOutputs } from "../operations/saveOutputs.js";
import { waitForOperation } from "../operations/waitForOperation.js";
import { jsonForTerminal } from "../report/escapeHtml.js";
import { outputFiles } from "../transform/outputFiles.js";

export interface OperationGetOptions {
  id: string;
  json: boolean;
  wait: boolean;
  timeoutMs: number;
  saveOutputsDir?: string | undefined;
}

export interface CommandEffects {
  logger: Logger;
  stdout: (text: string) => void;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** `zoo-usage operation get`: prints the operation; the exit code says whether it failed. */
export async function runOperationGet(
  client: ZooClient,
  options: OperationGetOptions,
  effects: CommandEffects,
): Promise<ExitCodeValue> {
  const operation = options.wait
    ? await waitForOperation(client, options.id, { ...effects, timeoutMs: options.timeoutMs })
    : await client.getAsyncOperation(options.id);
  const fields = operationFields(operation);
  assertAnswersFor(options.id, fields);
  effects.stdout(options.json ? jsonForTerminal(fields) : describeOperation(operation));
  if (options.saveOutputsDir !== undefined) {
    const files = outputFiles(fields);
    const { written, refused } = await saveOutputs(options.saveOutputsDir, files);
    effects.logger.info(
      files.length === 0
        ? "the operation has no outputs to save"
        : `saved ${written.length} output file(s) to ${options.saveOutputsDir}`,
    );
    if (refused.length > 0) throw refusedOutputsError(options.saveOutputsDir, refused);
  }
  return fields.status === "failed" ? ExitCode.operationFailed : ExitCode.ok;
}

/**
 * The body must be the operation asked for: a cache or proxy in front of the API answering for
 * another id would otherwise be shown (and its outputs saved) as this one. UUIDs compare without
 * regard to case. Nothing is printed or saved.
 */
function assertAnswersFor(asked: string, fields: Record<string, unknown>): void {
  const answered = fields.id;
  if (typeof answered === "string" && answered.toLowerCase() === asked.toLowerCase()) return;
  const got =
    typeof answered === "string"
      ? `operation ${JSON.stringify(answered.slice(0, 80))}`
      : "a body without an id";
  throw new ZooUsageError({
    code: "api.invalid_response",
    message: `Asked the API for operation ${asked} and it answered with ${got}`,
    hint: "Nothing was printed or saved. Run it again; if it persists, a proxy or cache in front of the API mixes up responses (run with --debug to see the requests).",
  });
}
