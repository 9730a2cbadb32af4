import { setTimeout as delay } from "node:timers/promises";
import { type Config, requireToken } from "../config/config.js";
import type { Logger } from "../log/logger.js";
import { ZooClient } from "./client.js";
import { RetryBudget } from "./retryPolicy.js";
import { assertSecureTransport } from "./secureTransport.js";
import { Transport } from "./transport.js";
import { exporterUserAgent } from "./userAgent.js";

export interface ClientEffects {
  logger: Logger;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** The run's stop signal: requests in flight and retry waits end when it aborts. */
  signal?: AbortSignal | undefined;
}

/** A timer that ends early, without an error, when the signal aborts (the caller checks why). */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal === undefined ? {} : { signal }).then(
    () => undefined,
    () => undefined,
  );
}

/** Builds the client from a Config: checks the token is present and may be sent to this host. */
export function createClient(config: Config, effects: ClientEffects): ZooClient {
  const token = requireToken(config);
  assertSecureTransport(config.baseUrl);
  const now = effects.now ?? Date.now;
  const transport = new Transport({
    baseUrl: config.baseUrl,
    token,
    policy: config.retry,
    budget: new RetryBudget(config.retry, now),
    requestTimeoutMs: config.requestTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    userAgent: exporterUserAgent(),
    effects: {
      logger: effects.logger,
      now,
      sleep: effects.sleep ?? abortableSleep,
      random: effects.random ?? Math.random,
    },
    signal: effects.signal,
  });
  return new ZooClient(transport);
}
