import type { ZooClient } from "../api/client.js";
import type { AsyncOperation } from "../api/schemas/index.js";
import { ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { operationFields, TERMINAL_STATUSES } from "./operationView.js";

export interface WaitOptions {
  timeoutMs: number;
  /** First poll interval; grows by half each poll up to `maxIntervalMs`. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
}

/** Polls until the operation is completed or failed, with a growing interval and a deadline. */
export async function waitForOperation(
  client: ZooClient,
  id: string,
  options: WaitOptions,
): Promise<AsyncOperation> {
  const deadline = options.now() + options.timeoutMs;
  let interval = options.initialIntervalMs ?? 1000;
  const maxInterval = options.maxIntervalMs ?? 15_000;
  for (;;) {
    const operation = await client.getAsyncOperation(id);
    const status = String(operationFields(operation).status ?? "");
    if (TERMINAL_STATUSES.has(status)) return operation;
    const remaining = deadline - options.now();
    if (remaining <= 0) {
      throw new ZooUsageError({
        code: "operation.wait_timeout",
        message: `Operation ${id} is still ${status || "unfinished"} after ${Math.round(options.timeoutMs / 1000)} s`,
        hint: "Wait longer with --timeout SECONDS, or run the command again later.",
      });
    }
    options.logger.info(
      `operation ${id} is ${status}; polling again in ${Math.round(interval / 100) / 10} s`,
    );
    await options.sleep(Math.min(interval, remaining));
    interval = Math.min(maxInterval, Math.round(interval * 1.5));
  }
}
