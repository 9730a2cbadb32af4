import type { ZooClient } from "../api/client.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { describeOperation, operationFields, outputFiles } from "../operations/operationView.js";
import { saveOutputs } from "../operations/saveOutputs.js";
import { waitForOperation } from "../operations/waitForOperation.js";
import { jsonForTerminal } from "../report/escapeHtml.js";

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
  effects.stdout(options.json ? jsonForTerminal(fields) : describeOperation(operation));
  if (options.saveOutputsDir !== undefined) {
    const files = outputFiles(fields);
    const written = await saveOutputs(options.saveOutputsDir, files);
    effects.logger.info(
      written.length === 0
        ? "the operation has no outputs to save"
        : `saved ${written.length} output file(s) to ${options.saveOutputsDir}`,
    );
  }
  return fields.status === "failed" ? ExitCode.operationFailed : ExitCode.ok;
}
